#include "canopy/dialects/behavior3_nodes.hpp"
#include "canopy/nodes/builtin_nodes.hpp"
#include "commands.hpp"
#include "demo.hpp"
#include "plugins.hpp"

namespace canopy::cli {
namespace {

// The built-in nodes at once; the demo packs' at the first read, unless a plugin came first:
// a program's trees are checked against its own types, not the demos'.
struct registry_state {
    registry reg;
    bool plugins = false;
    bool complete = false;
};

registry_state& state() {
    static registry_state s = [] {
        registry_state made;
        register_builtin_nodes(made.reg);
        register_behavior3_nodes(made.reg);
        return made;
    }();
    return s;
}

}  // namespace

registry& cli_registry_to_extend() {
    return state().reg;
}

const registry& cli_registry() {
    registry_state& s = state();
    if (!s.complete) {
        s.complete = true;
        if (!s.plugins) demo::register_demo_nodes(s.reg);
    }
    return s.reg;
}

void add_plugin(const std::string& path) {
    registry_state& s = state();
    if (s.complete && !s.plugins) {
        throw error(error_code::load, "plugin '" + path +
                                          "': given after the demo nodes were registered (a bug "
                                          "in canopy: --plugin is read before anything else)");
    }
    load_plugin(path, s.reg);
    s.plugins = true;
}

bool uses_plugins() {
    return state().plugins;
}

const demo::pack* demo_pack_for(const tree& t) {
    return uses_plugins() ? nullptr : demo::pack_for(t);
}

}  // namespace canopy::cli
