#include "canopy/builtin_nodes.hpp"

#include "canopy/registry.hpp"

namespace canopy {

// Ticking semantics arrive with the runtime; what the builder needs (arity, ids, parameters)
// is fixed here and documented in docs/nodes.md. Ids 1 to 5 are fixed: files written
// with them must keep meaning the same types.
void register_builtin_nodes(registry& reg) {
    reg.add({"Sequence", 1, arity::composite, {}, {}});
    reg.add({"Selector", 2, arity::composite, {}, {}});
    reg.add({"Not", 3, arity::decorator, {}, {}});
    reg.add({"AlwaysSuccess", 4, arity::leaf, {}, {}});
    reg.add({"AlwaysFailure", 5, arity::leaf, {}, {}});
    reg.add_alias("Fallback", "Selector");
    reg.add_alias("Inverter", "Not");
}

}  // namespace canopy
