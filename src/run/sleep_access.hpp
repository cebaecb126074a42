#pragma once
// What a world (canopy::world) does to its agents beyond their public interface: a tick that
// says whether the agent may sleep, and the ticks it sleeps through.

#include <cstddef>
#include <cstdint>

#include "canopy/core/status.hpp"
#include "canopy/run/agent.hpp"
#include "run/sleep_report.hpp"

namespace canopy::detail {

struct sleep_access {
    /// Ticks `a` as agent::tick does, `dt_ns` checked and rounded already, gathering what its
    /// nodes say of their next ticks in `report`; returns the root's status and sets `until`
    /// to the time on the agent's clock until which it may sleep (sleep_report::until), or
    /// sleep_report::awake. An agent stays awake when its tree did not end the tick running,
    /// when a node's error cut the tick short, when it has an observer (which would see the
    /// ticks it sleeps through), when it follows a tree_handle (whose new tree it takes at a
    /// tick), and in a tree with nodes that listen while idle (they hear every tick) or that
    /// abandon running children (behavior3's stack).
    /// @warning passes on what agent::tick throws, `until` then awake.
    static status tick(agent& a, std::int64_t dt_ns, sleep_report& report, std::int64_t& until);
    /// Advances the agent's clock by `ns` and its tick count by `ticks` without ticking it:
    /// the ticks it slept through, none of which would have changed anything else.
    static void pass(agent& a, std::int64_t ns, std::uint64_t ticks) noexcept {
        a.core_.time_ns += ns;
        a.core_.ticks += ticks;
    }
    /// Asks the memory system for the agent object, which a tick reads first. A world's
    /// awake agents lie anywhere among the sleepers, and a tick that waits for each cache line
    /// of its agent in turn costs several times the tick itself: a world asks a few agents
    /// ahead.
    static void prefetch_agent(const agent& a) noexcept { prefetch(&a); }
    /// The same for what the agent points to, once the agent object has arrived: the first
    /// lines of its state block (status bytes, node states, keys) and its host.
    static void prefetch_state(const agent& a) noexcept {
        constexpr std::size_t line = 64;
        constexpr std::size_t most = 4 * line;  // a block's first lines: statuses, states, keys
        const std::size_t bytes = a.tree_->layout().block_size;
        for (std::size_t offset = 0; offset < bytes && offset < most; offset += line)
            prefetch(a.core_.block + offset);
        if (a.core_.host) prefetch(&a.core_.host.get<erased_host>(unchecked));
    }

private:
    static void prefetch(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(address);
#else
        (void)address;
#endif
    }
};

}  // namespace canopy::detail
