#pragma once
// Names the node a context ticks, for errors thrown while it runs.

#include <string>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"

namespace canopy::detail {

/// "node 4 ('Wait', line 12, column 3)": the node `ctx` ticks, its record id and type, and
/// where its file declares it (as far as the reader knew).
std::string node_named(const context& ctx);

}  // namespace canopy::detail
