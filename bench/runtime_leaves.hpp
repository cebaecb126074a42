#pragma once
// The runtime benchmark's trivial leaves: the same code for Canopy's agents and for the
// copy-per-agent baseline, so that the two differ only in how they run a tree.

#include <canopy/core/status.hpp>
#include <cstdint>

namespace canopy_bench {

/// Per-agent data the leaves read and write: what a game keeps in its own entity.
struct bench_host {
    std::uint64_t random = 1;  // xorshift64 state, never 0
    std::uint64_t steps = 0;
};

namespace leaf {

/// A few bits from the host's generator: xorshift64*, top bits.
inline unsigned draw(bench_host& h, int bits) {
    std::uint64_t& x = h.random;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return static_cast<unsigned>((x * 0x2545f4914f6cdd1dULL) >> (64 - bits));
}
/// "Ready": a condition that holds 1 time in 2.
inline bool ready(bench_host& h) {
    return draw(h, 1) != 0;
}
/// "Chance": a condition that holds 1 time in 4.
inline bool chance(bench_host& h) {
    return draw(h, 2) == 0;
}
/// "Work": an action that succeeds 3 times in 8, runs 3 in 8, fails 2 in 8.
inline canopy::status work(bench_host& h) {
    const unsigned roll = draw(h, 3);
    if (roll < 3) return canopy::status::success;
    return roll < 6 ? canopy::status::running : canopy::status::failure;
}
/// "Step": an action that counts and succeeds.
inline canopy::status step(bench_host& h) {
    ++h.steps;
    return canopy::status::success;
}

}  // namespace leaf

}  // namespace canopy_bench
