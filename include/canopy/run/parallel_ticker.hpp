#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// Ticks many agents on several threads, each agent on one thread. Its worker threads start
/// with it and end with it, so a tick costs two waits, not a thread start.
class parallel_ticker {
public:
    /// @param threads how many threads tick, the calling one included; 0 means one per core.
    explicit parallel_ticker(unsigned threads = 0);
    ~parallel_ticker();
    parallel_ticker(const parallel_ticker&) = delete;
    parallel_ticker& operator=(const parallel_ticker&) = delete;

    /// Ticks each of `count` agents once with time step dt, in contiguous shares, one per
    /// thread; returns when all are done. A node's error stays its agent's, as the agent's
    /// error_policy says: with fail or halt, that agent's tick() returns failure or idle and
    /// keeps the error (agent::last_error), and nothing reaches here. An exception out of an
    /// agent's tick (error_policy::rethrow) does not stop the others: every agent is still
    /// ticked, then the first exception (by time, if several threads throw) is rethrown here.
    void tick(agent* agents, std::size_t count, double dt);
    void tick(std::vector<agent>& agents, double dt);
    /// Calls `job(first, last, share)` for each thread's contiguous share [first, last) of
    /// [0, count), `share` numbering the threads from 0 (the calling one), and returns when
    /// all are done: work over many items that is not one agent::tick each (canopy::world
    /// ticks its awake agents so). `job` must not throw.
    template <typename Job>
    void run_shares(std::size_t count, Job& job) {
        run_shares(
            count,
            [](void* data, std::size_t first, std::size_t last, unsigned share) {
                (*static_cast<Job*>(data))(first, last, share);
            },
            &job);
    }
    void run_shares(std::size_t count,
                    void (*job)(void* data, std::size_t first, std::size_t last, unsigned share),
                    void* data);

    unsigned threads() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

private:
    void work(unsigned share);
    void start(std::size_t count);  // wakes the workers for one round, the caller's share next
    void finish();                  // waits for the workers' shares, rethrows a failure
    void tick_share(unsigned share) noexcept;

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable done_;
    std::size_t generation_ = 0;
    unsigned pending_ = 0;
    bool stopping_ = false;
    agent* agents_ = nullptr;
    std::size_t count_ = 0;
    double dt_ = 0.0;
    // run_shares' job, null for a tick
    void (*job_)(void* data, std::size_t first, std::size_t last, unsigned share) = nullptr;
    void* job_data_ = nullptr;
    std::exception_ptr failure_;
};

}  // namespace canopy
