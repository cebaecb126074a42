#pragma once
// The behavior3 node family, registered in parts by register_behavior3_nodes(). Their
// semantics, and where they differ from behavior3-ts, are in docs/behavior3.md.

#include <cstdint>
#include <string_view>

#include "canopy/core/status.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// behavior3-ts's default for a loop or try count it was not given: Number.MAX_SAFE_INTEGER,
/// as good as for ever.
inline constexpr std::int64_t behavior3_for_ever = 9007199254740991;

/// behavior3 has no skipped status: a child that Canopy skips (only a Canopy condition on a
/// node can) counts as failed there.
constexpr status behavior3_result(status result) noexcept {
    return result == status::skipped ? status::failure : result;
}

/// The event a listener's child run between ticks (Delay's, Listen's) posts to the running
/// nodes, its one argument the child's status as a number: behavior3-ts resumes a node with
/// the status of the node that ticked last in the tree (`Tree.__lastStatus`), and such a run
/// is the last before the next tick resumes its running nodes. Only the retry loops, which
/// wait for the next tick with their child finished, read it.
inline constexpr std::string_view behavior3_ran_between_ticks = "behavior3.ran-between-ticks";

/// The iterations left in this tick to the loops that run their child again within the tick
/// (Repeat, ForEach): behavior3-ts loops without a bound, so a child that finishes at once
/// under a large count would hang its tick. The outermost loop of a tick makes one and gets
/// per_tick iterations; loops nested in it share them (a Repeat of 65,536 over another must
/// not make 2^32). A loop out of iterations returns running and goes on at the next tick.
/// Kept per thread: an agent ticks on one thread at a time.
class loop_budget {
public:
    static constexpr std::int64_t per_tick = 65536;

    loop_budget() noexcept : left_(left_in_tick_) {
        if (depth_++ == 0) left_ = per_tick;
    }
    ~loop_budget() { --depth_; }
    loop_budget(const loop_budget&) = delete;
    loop_budget& operator=(const loop_budget&) = delete;

    /// Takes one iteration; false when none is left.
    bool take() noexcept {
        if (left_ == 0) return false;
        --left_;
        return true;
    }

private:
    static inline thread_local std::int64_t left_in_tick_ = 0;
    static inline thread_local int depth_ = 0;
    std::int64_t& left_;  // this thread's left_in_tick_
};

/// The control-flow and timing nodes: the four below.
void register_behavior3_flow(registry& reg);
void register_behavior3_composites(registry& reg);
void register_behavior3_decorators(registry& reg);
void register_behavior3_actions(registry& reg);
void register_behavior3_listeners(registry& reg);

}  // namespace canopy::detail
