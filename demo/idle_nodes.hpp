#pragma once

#include <cstdint>
#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy::demo {

/// The body of one idling character from seed 003, whose colour the idle behaviour changes.
struct idle_body {
    /// The seed is not needed: the colours come from the agent's own generator.
    explicit idle_body(std::uint64_t /*seed*/) {}

    std::uint8_t red = 255;  ///< white until the first change
    std::uint8_t green = 255;
    std::uint8_t blue = 255;
    std::int64_t changes = 0;  ///< how many times the colour changed
};

/// Registers ChangeColour, type id 130: a leaf that gives the host's body (an idle_body) a
/// colour drawn from the agent's generator and succeeds (seed 003's NOD_Idle, whose half-second
/// timer data/idle.json leaves to the built-in Wait). An agent made without a body fails it.
void register_idle_nodes(registry& reg);

/// Nothing moves an idle body between ticks; here so that every demo has the same shape.
void advance(idle_body& body, agent& a, double dt);

/// One line about the body: "body colour #3fa2c7 after 4 changes".
std::string describe(const idle_body& body);

}  // namespace canopy::demo
