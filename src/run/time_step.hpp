#pragma once
// The time step a tick is given, checked and rounded to the clock's whole nanoseconds: one
// rule for agent::tick and world::tick, so that a world's agents keep the clock theirs would.

#include <cstdint>

namespace canopy::detail {

/// Throws canopy::error, naming `caller`, for a step that is negative, not finite or over a
/// year.
[[noreturn]] void refuse_time_step(double dt, const char* caller);

/// `dt` seconds in whole nanoseconds, rounded to the nearest one.
inline std::int64_t time_step_ns(double dt, const char* caller) {
    constexpr double longest_step = 365.0 * 24 * 3600;  // keeps the clock far from overflow
    if (!(dt >= 0.0 && dt <= longest_step)) refuse_time_step(dt, caller);  // NaN fails both
    // dt is not negative, so adding a half and truncating rounds as std::llround would (but
    // for ties too close to tell apart), without its library call on every agent tick.
    // NOLINTNEXTLINE(bugprone-incorrect-roundings)
    return static_cast<std::int64_t>(dt * 1e9 + 0.5);
}

}  // namespace canopy::detail
