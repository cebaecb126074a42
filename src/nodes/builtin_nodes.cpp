#include "canopy/nodes/builtin_nodes.hpp"

#include "nodes/builtin.hpp"

namespace canopy {

// Ids are fixed once given: files written with them must keep meaning the same types.
void register_builtin_nodes(registry& reg) {
    detail::register_composites(reg);        // ids 1, 2, 6-9, 22-34
    detail::register_decorators(reg);        // ids 3, 10-17, 40-48
    detail::register_leaves(reg);            // ids 4, 5, 18-21, 60-61
    detail::register_script_nodes(reg);      // ids 35, 36
    detail::register_blackboard_nodes(reg);  // ids 49-54, 62-63
}

}  // namespace canopy
