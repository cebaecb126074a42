#pragma once
// Names the node a context ticks, for errors thrown while it runs.

#include <string>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"

namespace canopy::detail {

/// "node 4 ('Wait', line 12, column 3)": the node `ctx` ticks, its record id and type, and
/// where its file declares it (as far as the reader knew).
std::string node_named(const context& ctx);

/// A param_error out of a node's tick (a parameter read as another type, a literal read where
/// the file gave a key) again, its message led by the node that threw it.
[[noreturn]] void throw_located(const context& ctx, const param_error& problem);

}  // namespace canopy::detail
