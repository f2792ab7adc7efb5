#pragma once
// The pin-memory stage of the CUDA loader: one thread that waits for each batch the workers
// build, in order, and copies it into page-locked memory so the trainer's host-to-device copy can
// be asynchronous. It is its own thread (as PyTorch's DataLoader has one) because that is the
// configuration CUDA graph capture must coexist with: cudaHostAlloc on another thread.
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "data/batch.h"

namespace libreyolo::data {

class PinMemoryThread {
public:
    PinMemoryThread();
    ~PinMemoryThread();
    PinMemoryThread(const PinMemoryThread&) = delete;
    PinMemoryThread& operator=(const PinMemoryThread&) = delete;

    // Queues a batch in the making; the returned future holds it pinned (or the worker's error).
    std::future<Batch> pin(std::future<Batch> built);

private:
    struct Job {
        std::future<Batch> built;
        std::promise<Batch> pinned;
    };
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    bool quit_ = false;
    std::thread thread_;
};

}  // namespace libreyolo::data
