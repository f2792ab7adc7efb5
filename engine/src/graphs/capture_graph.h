#pragma once
// What every capture here shares: a CUDAGraph that can say whether its capture ended, the clean-up
// of a capture that failed, and the allocator's reserved bytes (to report a graph's memory).
#include <ATen/cuda/CUDAGraph.h>
#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "graphs/graph_key.h"
#include "libreyolo/errors.h"

namespace libreyolo::graphs {

// CUDAGraph with the one piece of state a failed capture's clean-up needs. keep_template: the
// captured graph stays readable after capture_end (for count_kernel_nodes) until drop_template().
class CaptureGraph : public at::cuda::CUDAGraph {
public:
    explicit CaptureGraph(bool keep_template = false) : at::cuda::CUDAGraph(keep_template) {}
    bool capture_ended() const { return capture_ended_; }
    // Frees the captured graph's template once instantiated; replays use the executable graph.
    void drop_template();
};

// The kernels one replay of graph launches (kernel nodes, child graphs included).
int count_kernel_nodes(cudaGraph_t graph);

// Where LIBREYOLO_GRAPH_DOT names a folder: writes graph there as Graphviz text with each kernel
// node's function (CUDA's cudaGraphDebugDotPrint), "<n>-<what>.dot", for finding out what a
// captured forward launches (scripts/bench_gpu_fuse.sh sums them by kind).
void write_graph_dot_if_asked(cudaGraph_t graph, const std::string& what);

// Ends a capture that failed (the captured code threw, or CUDA invalidated the capture) so that
// later captures into pool work; see capture_graph.cpp. The caller must not capture into pool
// again once no graph holds it.
void abandon_capture(CaptureGraph& graph, c10::DeviceIndex device, at::cuda::MempoolId_t pool);

// The error a failed capture of what ("a 8x3x640x640 forward") raises: out of memory named as such
// (an allocation failing inside a capture surfaces as an invalidated capture), else "capture failed".
Error capture_error(const c10::Error& e, const std::string& what);

std::int64_t reserved_bytes(c10::DeviceIndex device);

}  // namespace libreyolo::graphs
