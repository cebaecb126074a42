#include "run/javascript_port.hpp"

#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/run/port.hpp"

namespace canopy::detail {

bool holds_javascript(const blackboard& board, std::uint32_t slot) noexcept {
    const blackboard_key& key = board.keys()[slot];
    return key.custom != nullptr && key.custom->is<dynamic_value>();
}

namespace javascript_port {
namespace {

const dynamic_value& value_of(const context& ctx, std::uint32_t slot) {
    return ctx.blackboard().get_ref<dynamic_value>(slot);
}

void store(context& ctx, std::uint32_t slot, const dynamic_value& value) {
    ctx.blackboard().set(slot, value);
}

}  // namespace

// A count as behavior3-ts's loops use it (`i < count`): a fraction counts up to the next whole
// number, NaN as none, an infinity as for ever.
std::int64_t read_integer(const context& ctx, std::uint32_t slot) {
    const double number = value_of(ctx, slot).to_number();
    if (std::isnan(number)) return 0;
    constexpr double limit = 9.2e18;
    if (number >= limit) return std::numeric_limits<std::int64_t>::max();
    if (number <= -limit) return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(std::ceil(number));
}

// A time or delay: behavior3-ts adds it to its clock, which joins a string, array or object to
// the clock's text instead: no time that ever comes.
double read_number(const context& ctx, std::uint32_t slot) {
    const dynamic_value& value = value_of(ctx, slot);
    if (value.is_string() || value.is_array() || value.is_object())
        return std::numeric_limits<double>::quiet_NaN();
    return value.to_number();
}

bool read_boolean(const context& ctx, std::uint32_t slot) {
    return value_of(ctx, slot).truthy();
}

// JavaScript's String(value).
std::string_view read_string(const context& ctx, std::uint32_t slot) {
    const dynamic_value& value = value_of(ctx, slot);
    if (value.is_string()) return value.string();
    thread_local std::string texts[4];
    thread_local std::size_t next = 0;
    std::string& text = texts[next++ % std::size(texts)];
    switch (value.type()) {
        case dynamic_value::kind::boolean: text = value.boolean() ? "true" : "false"; break;
        case dynamic_value::kind::number: {
            const double d = value.number();
            text = std::isnan(d)   ? "NaN"
                   : std::isinf(d) ? (d > 0 ? "Infinity" : "-Infinity")
                                   : value.to_json();
            break;
        }
        case dynamic_value::kind::object: text = "[object Object]"; break;
        default: text = value.to_json();
    }
    return text;
}

void write(context& ctx, std::uint32_t slot, double value) {
    store(ctx, slot, dynamic_value(value));
}
void write(context& ctx, std::uint32_t slot, bool value) {
    store(ctx, slot, dynamic_value(value));
}
void write(context& ctx, std::uint32_t slot, std::string_view value) {
    store(ctx, slot, dynamic_value(value));
}

}  // namespace javascript_port
}  // namespace canopy::detail
