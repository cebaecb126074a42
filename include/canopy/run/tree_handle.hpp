#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// The current tree of something that changes, such as a file a tree_library watches: agents
/// made from the handle follow it, moving to each new tree at the start of their next tick
/// (canopy/run/agent.hpp). Copies share one current tree. Publishing and reading are thread-safe;
/// an agent that follows a handle whose tree has not changed pays one atomic load a tick.
class tree_handle {
public:
    /// An empty handle: no tree yet.
    tree_handle() = default;
    explicit tree_handle(std::shared_ptr<const tree> first);

    /// The current tree (null for an empty handle).
    std::shared_ptr<const tree> current() const;
    /// How many trees have been published: 1 for the first, and one more for each.
    std::uint64_t version() const noexcept;
    /// Makes `next` the current tree.
    /// @warning throws canopy::error for a null tree or an empty handle.
    void publish(std::shared_ptr<const tree> next);

    explicit operator bool() const noexcept { return shared_ != nullptr; }

    struct shared;  // the state copies share; defined in src/run/tree_handle_state.hpp

    /// A handle over that state: how an agent gives back the handle it follows.
    explicit tree_handle(std::shared_ptr<shared> state) noexcept : shared_(std::move(state)) {}
    /// The state copies share, for the agents that follow the handle.
    const std::shared_ptr<shared>& shared_state() const noexcept { return shared_; }

private:
    std::shared_ptr<shared> shared_;
};

}  // namespace canopy
