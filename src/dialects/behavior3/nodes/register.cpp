#include "canopy/dialects/behavior3_nodes.hpp"
#include "dialects/behavior3/nodes/family.hpp"
#include "dialects/behavior3/nodes/value_nodes.hpp"

namespace canopy {

namespace detail {

void register_behavior3_flow(registry& reg) {
    register_behavior3_composites(reg);  // Parallel, Switch, Case, Watchdog
    register_behavior3_decorators(reg);  // Repeat, the retries, Timeout, AlwaysRunning, Once
    register_behavior3_actions(reg);     // Wait, WaitForEvent
    register_behavior3_listeners(reg);   // Listen, Delay: their child runs between ticks
}

}  // namespace detail

void register_behavior3_nodes(registry& reg) {
    detail::register_behavior3_flow(reg);
    detail::register_behavior3_value_nodes(reg);  // Check, Calculate, Let, Assert, Math, ...
    detail::register_behavior3_array_nodes(reg);  // the json type; Push, Index, GetField, ...
    detail::register_behavior3_loop_nodes(reg);   // ForEach
}

}  // namespace canopy
