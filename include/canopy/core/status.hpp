#pragma once

#include <cstdint>
#include <string_view>

namespace canopy {

/// What a node's tick returns: success, failure, running or skipped. `idle` is what a node is
/// before its first tick and after it finishes being halted; a tick never returns it (one that
/// does is taken as failure).
enum class status : std::uint8_t {
    idle = 0,
    success = 1,
    failure = 2,
    running = 3,  ///< not finished: tick again
    /// Not executed this tick, as BehaviorTree.CPP's SKIPPED: a node whose `_skipIf` holds, or
    /// a composite whose children were all skipped. Its parent moves past it; the node's status
    /// byte says skipped until it is ticked again or halted, and, like idle, it is not running
    /// (docs/nodes.md, "Skipped").
    skipped = 4,
};

/// "idle", "success", "failure", "running" or "skipped".
std::string_view to_string(status s) noexcept;

}  // namespace canopy
