#include "graphs/capture_graph.h"

#include <ATen/core/CachingHostAllocator.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace libreyolo::graphs {

void CaptureGraph::drop_template() {
    if (!has_graph_ || !has_graph_exec_) return;
    (void)cudaGraphDestroy(graph_);
    graph_ = nullptr;
    has_graph_ = false;
}

void write_graph_dot_if_asked(cudaGraph_t graph, const std::string& what) {
    const char* dir = std::getenv("LIBREYOLO_GRAPH_DOT");
    if (!dir || !*dir) return;
    static std::atomic<int> written{0};
    std::filesystem::create_directories(dir);
    const std::string path = (std::filesystem::path(dir) / (std::to_string(++written) + "-" + what + ".dot")).string();
    C10_CUDA_CHECK(cudaGraphDebugDotPrint(graph, path.c_str(), cudaGraphDebugDotFlagsKernelNodeParams));
}

int count_kernel_nodes(cudaGraph_t graph) {
    std::size_t n = 0;
    C10_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &n));
    std::vector<cudaGraphNode_t> nodes(n);
    if (n > 0) C10_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &n));
    int kernels = 0;
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type{};
        C10_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
        if (type == cudaGraphNodeTypeKernel) {
            ++kernels;
        } else if (type == cudaGraphNodeTypeGraph) {
            cudaGraph_t child = nullptr;
            C10_CUDA_CHECK(cudaGraphChildGraphNodeGetGraph(node, &child));
            kernels += count_kernel_nodes(child);
        }
    }
    return kernels;
}

std::int64_t reserved_bytes(c10::DeviceIndex device) {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
    return stats.reserved_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)].current;
}

Error capture_error(const c10::Error& e, const std::string& what) {
    const std::string message = e.what_without_backtrace();
    if (dynamic_cast<const c10::OutOfMemoryError*>(&e) || message.find("out of memory") != std::string::npos)
        return Error("cuda_graph: out of memory while capturing " + what +
                     " (lower the batch or release other graphs): " + message);
    return Error("cuda_graph: capture failed: " + message);
}

// Ends a capture that failed (the stage threw, or CUDA invalidated the capture) so that the
// model's shared pool can take the next capture. CUDAGraph::capture_end throws on an invalidated
// capture before it tells the allocators that the capture is over, which would leave the pool
// "being recorded to" and refuse every later capture into it; and the reference to the pool that
// capture_begin took is only given back by a graph whose capture ended. Clears the (non-sticky)
// capture error too. The caller must not capture into pool again once no graph holds it.
void abandon_capture(CaptureGraph& graph, c10::DeviceIndex device, at::cuda::MempoolId_t pool) {
    try {
        graph.capture_end();
    } catch (...) {
    }
    if (graph.capture_ended()) return;  // a complete graph after all: its destructor releases the pool
    // capture_end stopped before or after ending the routing; ending it twice is refused.
    try {
        c10::cuda::CUDACachingAllocator::endAllocateToPool(device, pool);
    } catch (...) {
    }
    try {
        at::getHostAllocator(at::kCUDA)->end_allocate_to_pool(pool);
    } catch (...) {
    }
    try {
        c10::cuda::CUDACachingAllocator::releasePool(device, pool);
        at::getHostAllocator(at::kCUDA)->release_pool(pool);
    } catch (...) {
    }
    (void)cudaGetLastError();
}

}  // namespace libreyolo::graphs
