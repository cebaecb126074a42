#pragma once
// The built-in node library, registered in parts by register_builtin_nodes(). The semantics
// of every node are in docs/nodes.md, one row each.

#include <cstdint>

#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// A duration in seconds as whole nanoseconds, the unit of the agent's clock, so that elapsed
/// time compares exactly however long the agent has lived. NaN and negative values give 0,
/// and values past a century give a century: a value read from the blackboard at tick time
/// must not overflow.
inline std::int64_t seconds_to_ns(double seconds) noexcept {
    constexpr double century = 100.0 * 365 * 24 * 3600;
    if (!(seconds > 0.0)) return 0;
    if (seconds > century) return static_cast<std::int64_t>(century * 1e9);
    // Positive, so adding a half and truncating rounds to nearest (but for ties a nanosecond
    // apart, which do not matter here) without std::llround's library call.
    // NOLINTNEXTLINE(bugprone-incorrect-roundings)
    return static_cast<std::int64_t>(seconds * 1e9 + 0.5);
}

/// Writes a `key_value` parameter's value to a key: another key's value, or its literal
/// (SetBlackboard, behavior3's Let).
void write_value(blackboard board, std::uint32_t key, const param& value);

void register_composites(registry& reg);
void register_decorators(registry& reg);
void register_leaves(registry& reg);
void register_script_nodes(registry& reg);
void register_blackboard_nodes(registry& reg);

}  // namespace canopy::detail
