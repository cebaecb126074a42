#pragma once
// The behavior3 node family, registered in parts by register_behavior3_nodes(). Their
// semantics, and where they differ from behavior3-ts, are in docs/behavior3.md.

#include <cstdint>
#include <string>

#include "canopy/core/error.hpp"
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

/// Refuses a literal count below 0: behavior3-ts would run no iteration, which is never what
/// a tree means.
inline void check_behavior3_count(const char* name, bool from_blackboard, std::int64_t literal) {
    if (!from_blackboard && literal < 0) {
        throw param_error(std::string("'") + name + "' must be 0 or more, not " +
                          std::to_string(literal));
    }
}

/// The control-flow and timing nodes: the four below.
void register_behavior3_flow(registry& reg);
void register_behavior3_composites(registry& reg);
void register_behavior3_decorators(registry& reg);
void register_behavior3_actions(registry& reg);
void register_behavior3_listeners(registry& reg);

}  // namespace canopy::detail
