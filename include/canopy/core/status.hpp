#pragma once

#include <cstdint>
#include <string_view>

namespace canopy {

/// What a node's tick returns: success, failure, running, skipped or error. `idle` is what a
/// node is before its first tick and after it finishes being halted; a tick never returns it
/// (one that does is taken as failure).
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
    /// Failed because it could not do its job (an input of the wrong kind), as behavior3's
    /// `error` status. Only a parent whose type sees errors (node_type::sees_errors) receives
    /// it; to any other parent, to the node's status byte and to observers the node failed,
    /// and the root's error is failure to the program (agent::tick), as behavior3-ts's tree
    /// reports it (docs/behavior3.md, "The error status").
    error = 5,
};

/// "idle", "success", "failure", "running", "skipped" or "error".
std::string_view to_string(status s) noexcept;

}  // namespace canopy
