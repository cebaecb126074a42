#include "canopy/nodes/builtin_nodes.hpp"
#include "commands.hpp"
#include "demo.hpp"

namespace canopy::cli {

registry& cli_registry_to_extend() {
    static registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        demo::register_demo_nodes(r);
        return r;
    }();
    return reg;
}

const registry& cli_registry() {
    return cli_registry_to_extend();
}

}  // namespace canopy::cli
