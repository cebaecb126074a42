#include "canopy/run/parallel_ticker.hpp"

#include <algorithm>

#include "canopy/run/agent.hpp"

namespace canopy {

parallel_ticker::parallel_ticker(unsigned threads) {
    if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
    workers_.reserve(threads - 1);
    for (unsigned share = 1; share < threads; ++share) {
        workers_.emplace_back([this, share] { work(share); });
    }
}

parallel_ticker::~parallel_ticker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    start_.notify_all();
    for (std::thread& worker : workers_) worker.join();
}

void parallel_ticker::tick(std::vector<agent>& agents, double dt) {
    tick(agents.data(), agents.size(), dt);
}

void parallel_ticker::tick(agent* agents, std::size_t count, double dt) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        agents_ = agents;
        dt_ = dt;
        job_ = nullptr;
    }
    start(count);
    finish();
}

void parallel_ticker::run_shares(std::size_t count,
                                 void (*job)(void* data, std::size_t first, std::size_t last,
                                             unsigned share),
                                 void* data) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = job;
        job_data_ = data;
    }
    start(count);
    finish();
}

void parallel_ticker::start(std::size_t count) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        count_ = count;
        failure_ = nullptr;
        pending_ = static_cast<unsigned>(workers_.size());
        ++generation_;
    }
    start_.notify_all();
    tick_share(0);
}

void parallel_ticker::finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    if (failure_) std::rethrow_exception(failure_);
}

void parallel_ticker::work(unsigned share) {
    std::size_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        tick_share(share);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            --pending_;
        }
        done_.notify_one();
    }
}

void parallel_ticker::tick_share(unsigned share) noexcept {
    const std::size_t shares = threads();
    const std::size_t first = count_ * share / shares;
    const std::size_t last = count_ * (share + 1) / shares;
    if (job_ != nullptr) {
        job_(job_data_, first, last, share);
        return;
    }
    // One agent's exception (error_policy::rethrow) does not keep the others of the share
    // from their tick; the first is kept for tick() to rethrow.
    for (std::size_t i = first; i < last; ++i) {
        try {
            agents_[i].tick(dt_);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
    }
}

}  // namespace canopy
