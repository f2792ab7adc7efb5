#pragma once
// Minimum-cost assignment of a rectangular cost matrix (the linear sum assignment problem), as
// scipy.optimize.linear_sum_assignment states it: every row is assigned a distinct column when
// rows <= cols (else every column a distinct row), minimising the summed cost. Solved with the
// shortest augmenting path method (Jonker–Volgenant, in Crouse's rectangular form), O(n² m).
#include <cstdint>
#include <vector>

namespace libreyolo {

struct Assignment {
    std::vector<std::int64_t> rows, cols;  // pairs (rows[k], cols[k]), rows ascending
};

// cost: rows × cols, row-major. Throws InvalidArgument for a size mismatch, a NaN or -inf entry,
// or a matrix with no finite assignment.
Assignment linear_sum_assignment(const std::vector<double>& cost, std::int64_t rows, std::int64_t cols);

}  // namespace libreyolo
