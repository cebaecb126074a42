#pragma once
// What the copies of a tree_handle share, seen by the handle and by the agents that follow it.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "canopy/run/tree_handle.hpp"

namespace canopy {

struct tree_handle::shared {
    // Read by following agents once a tick, without the lock; raised after the tree changes.
    std::atomic<std::uint64_t> version{0};
    mutable std::mutex mutex;  // guards `tree`
    std::shared_ptr<const canopy::tree> tree;

    /// The tree and its version, read together.
    std::pair<std::shared_ptr<const canopy::tree>, std::uint64_t> read() const {
        std::lock_guard<std::mutex> lock(mutex);
        return {tree, version.load(std::memory_order_relaxed)};
    }
};

}  // namespace canopy
