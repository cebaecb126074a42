#include "canopy/nodes/builtin_nodes.hpp"
#include "commands.hpp"
#include "demo.hpp"

namespace canopy::cli {

const registry& cli_registry() {
    static const registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        demo::register_demo_nodes(r);
        return r;
    }();
    return reg;
}

}  // namespace canopy::cli
