#pragma once
// Durations in seconds, as parameters and programs give them, turned into the agent clock's
// whole nanoseconds.

#include <cstdint>

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

}  // namespace canopy::detail
