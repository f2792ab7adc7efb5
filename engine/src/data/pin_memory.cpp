#include "data/pin_memory.h"

namespace libreyolo::data {

PinMemoryThread::PinMemoryThread() : thread_([this] { run(); }) {}

PinMemoryThread::~PinMemoryThread() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

std::future<Batch> PinMemoryThread::pin(std::future<Batch> built) {
    Job job{std::move(built), {}};
    std::future<Batch> result = job.pinned.get_future();
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    return result;
}

void PinMemoryThread::run() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return quit_ || !jobs_.empty(); });
            // Queued jobs are finished even when quitting: their futures may still be waited on.
            if (jobs_.empty()) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        try {
            Batch b = job.built.get();
            b.images = b.images.pin_memory();
            b.targets = b.targets.pin_memory();
            job.pinned.set_value(std::move(b));
        } catch (...) {
            job.pinned.set_exception(std::current_exception());
        }
    }
}

}  // namespace libreyolo::data
