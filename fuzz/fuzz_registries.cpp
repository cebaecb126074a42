#include "fuzz_registries.hpp"

#include <algorithm>

#include "canopy/dialects/behavior3_nodes.hpp"
#include "canopy/nodes/builtin_nodes.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/registry.hpp"
#include "demo.hpp"

namespace canopy::fuzz {

status byte_source::next_status() noexcept {
    const std::uint8_t b = next();
    if (b < 86) return status::success;
    if (b < 171) return status::failure;
    if (b < 236) return status::running;
    return status::skipped;
}

double byte_source::next_dt() noexcept {
    static constexpr double steps[] = {0.0, 0.01, 0.1, 1.0, 10.0};
    return steps[next() % 5];
}

const registry& load_registry() {
    static const registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        register_behavior3_nodes(r);
        demo::register_demo_nodes(r);
        return r;
    }();
    return reg;
}

namespace {

status from_bytes(context& ctx) {
    return ctx.host<byte_source>().next_status();
}

}  // namespace

const registry& tick_registry() {
    static const registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        register_behavior3_nodes(r);
        // The demo leaves act on their demo's world; here they read the byte stream instead,
        // keeping their names, parameters and ids so that data/ trees tick as seeds.
        registry builtins_only;
        register_builtin_nodes(builtins_only);
        register_behavior3_nodes(builtins_only);
        for (const node_type& type : load_registry().types()) {
            if (builtins_only.find(type.name) != nullptr) continue;
            r.add_action(type.name, &from_bytes, type.id, type.params);
        }
        for (const blackboard_key& key : load_registry().keys()) {
            const auto& known = r.keys();
            if (std::none_of(known.begin(), known.end(),
                             [&](const blackboard_key& k) { return k.name == key.name; }))
                r.add_key(key.name, key.type, key.initial);
        }
        r.add_action("FuzzAction", &from_bytes);
        r.add_condition("FuzzCondition", [](context& ctx) {
            return ctx.host<byte_source>().next_status() == status::success;
        });
        return r;
    }();
    return reg;
}

}  // namespace canopy::fuzz
