#include "idle_nodes.hpp"

#include <cstdio>

#include "canopy/run/context.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::demo {

void register_idle_nodes(registry& reg) {
    reg.add_action(
        "ChangeColour",
        [](context& ctx) {
            auto* body = ctx.host_or_null<idle_body>();
            if (body == nullptr) return status::failure;
            const std::uint64_t bits = ctx.random();
            body->red = static_cast<std::uint8_t>(bits >> 40);
            body->green = static_cast<std::uint8_t>(bits >> 48);
            body->blue = static_cast<std::uint8_t>(bits >> 56);
            ++body->changes;
            return status::success;
        },
        130);
}

void advance(idle_body& /*body*/, agent& /*a*/, double /*dt*/) {}

std::string describe(const idle_body& body) {
    char text[80];
    std::snprintf(text, sizeof text, "body colour #%02x%02x%02x after %lld change%s", body.red,
                  body.green, body.blue, static_cast<long long>(body.changes),
                  body.changes == 1 ? "" : "s");
    return text;
}

}  // namespace canopy::demo
