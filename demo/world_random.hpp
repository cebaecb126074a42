#pragma once

#include <cstdint>

namespace canopy::demo {

/// The generator of a demo's world (the coins that drop, the player's moves): splitmix64, with
/// conversions written out rather than taken from <random>, whose distributions differ between
/// standard libraries. The same seed gives the same world everywhere.
class world_random {
public:
    explicit world_random(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() noexcept {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// A number in [0, 1).
    double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// A number in [low, high).
    double uniform(double low, double high) noexcept { return low + (high - low) * uniform(); }
    /// True with probability p.
    bool chance(double p) noexcept { return uniform() < p; }

private:
    std::uint64_t state_;
};

}  // namespace canopy::demo
