#include "canopy/builtin_nodes.hpp"
#include "commands.hpp"
#include "pet_nodes.hpp"

namespace canopy::cli {

const registry& cli_registry() {
    static const registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        demo::register_pet_nodes(r);
        return r;
    }();
    return reg;
}

}  // namespace canopy::cli
