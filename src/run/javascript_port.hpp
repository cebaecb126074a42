#pragma once
// Ports over a behavior3 file's variables (runtime_rules::behavior3): `json` keys that start
// undefined and hold any JavaScript value. A node that reads one as a number, a count, a
// boolean or text converts it as behavior3-ts's node would use the value; one that writes a
// number, boolean or text stores that value.

#include <cstdint>
#include <string_view>

#include "canopy/run/context.hpp"

namespace canopy::detail::javascript_port {

std::int64_t read_integer(const context& ctx, std::uint32_t slot);
double read_number(const context& ctx, std::uint32_t slot);
bool read_boolean(const context& ctx, std::uint32_t slot);
std::string_view read_string(const context& ctx, std::uint32_t slot);
void write(context& ctx, std::uint32_t slot, double value);
void write(context& ctx, std::uint32_t slot, bool value);
void write(context& ctx, std::uint32_t slot, std::string_view value);

}  // namespace canopy::detail::javascript_port
