#include "core/linear_sum_assignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "libreyolo/errors.h"

namespace libreyolo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Solves with rows <= cols. cost(i, j) reads the (possibly transposed) matrix.
class ShortestAugmentingPath {
public:
    template <typename Cost>
    ShortestAugmentingPath(std::int64_t rows, std::int64_t cols, Cost cost)
        : rows_(rows),
          cols_(cols),
          u_(rows, 0),
          v_(cols, 0),
          path_(cols, -1),
          col_of_row_(rows, -1),
          row_of_col_(cols, -1),
          distance_(cols),
          in_rows_(rows),
          in_cols_(cols),
          remaining_(cols) {
        for (std::int64_t row = 0; row < rows_; ++row) augment_from(row, cost);
    }
    const std::vector<std::int64_t>& col_of_row() const { return col_of_row_; }

private:
    // Dijkstra over reduced costs from an unassigned row to the nearest free column, then the
    // dual update and the flip of the path's assignments.
    template <typename Cost>
    void augment_from(std::int64_t start, Cost& cost) {
        std::fill(distance_.begin(), distance_.end(), kInf);
        std::fill(in_rows_.begin(), in_rows_.end(), false);
        std::fill(in_cols_.begin(), in_cols_.end(), false);
        // Columns are scanned from the last: among equally short paths the earliest free column
        // found wins, the order scipy's solver uses, so ties resolve alike.
        for (std::int64_t k = 0; k < cols_; ++k) remaining_[k] = cols_ - 1 - k;
        std::int64_t left = cols_, row = start, sink = -1;
        double shortest = 0;
        while (sink < 0) {
            in_rows_[row] = true;
            std::int64_t best = -1;
            double lowest = kInf;
            for (std::int64_t k = 0; k < left; ++k) {
                const std::int64_t col = remaining_[k];
                const double reduced = shortest + cost(row, col) - u_[row] - v_[col];
                if (reduced < distance_[col]) {
                    path_[col] = row;
                    distance_[col] = reduced;
                }
                if (distance_[col] < lowest || (distance_[col] == lowest && row_of_col_[col] < 0)) {
                    lowest = distance_[col];
                    best = k;
                }
            }
            shortest = lowest;
            if (!std::isfinite(shortest)) throw InvalidArgument("linear_sum_assignment: the cost matrix is infeasible");
            const std::int64_t col = remaining_[best];
            in_cols_[col] = true;
            remaining_[best] = remaining_[--left];
            if (row_of_col_[col] < 0)
                sink = col;
            else
                row = row_of_col_[col];
        }
        u_[start] += shortest;
        for (std::int64_t i = 0; i < rows_; ++i)
            if (in_rows_[i] && i != start) u_[i] += shortest - distance_[col_of_row_[i]];
        for (std::int64_t j = 0; j < cols_; ++j)
            if (in_cols_[j]) v_[j] -= shortest - distance_[j];
        for (std::int64_t col = sink;;) {
            const std::int64_t r = path_[col];
            row_of_col_[col] = r;
            std::swap(col_of_row_[r], col);
            if (r == start) break;
        }
    }

    std::int64_t rows_, cols_;
    std::vector<double> u_, v_;
    std::vector<std::int64_t> path_, col_of_row_, row_of_col_;
    std::vector<double> distance_;
    std::vector<bool> in_rows_, in_cols_;
    std::vector<std::int64_t> remaining_;
};

}  // namespace

Assignment linear_sum_assignment(const std::vector<double>& cost, std::int64_t rows, std::int64_t cols) {
    if (rows < 0 || cols < 0 || static_cast<std::int64_t>(cost.size()) != rows * cols)
        throw InvalidArgument("linear_sum_assignment: " + std::to_string(cost.size()) + " costs for a " +
                              std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    for (const double c : cost)
        if (std::isnan(c) || c == -kInf)
            throw InvalidArgument("linear_sum_assignment: the cost matrix contains NaN or -inf");
    Assignment out;
    if (rows == 0 || cols == 0) return out;
    if (rows <= cols) {
        const ShortestAugmentingPath solved(rows, cols,
                                            [&](std::int64_t i, std::int64_t j) { return cost[i * cols + j]; });
        out.rows.resize(rows);
        std::iota(out.rows.begin(), out.rows.end(), 0);
        out.cols = solved.col_of_row();
        return out;
    }
    // More rows than columns: solve the transpose, then list the pairs by row.
    const ShortestAugmentingPath solved(cols, rows, [&](std::int64_t i, std::int64_t j) { return cost[j * cols + i]; });
    const std::vector<std::int64_t>& row_of_col = solved.col_of_row();
    std::vector<std::int64_t> order(cols);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::int64_t a, std::int64_t b) { return row_of_col[a] < row_of_col[b]; });
    for (const std::int64_t c : order) {
        out.rows.push_back(row_of_col[c]);
        out.cols.push_back(c);
    }
    return out;
}

}  // namespace libreyolo
