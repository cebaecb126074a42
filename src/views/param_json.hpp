#pragma once
// Parameter values as nlohmann JSON values, for the library's JSON output (schema, palette).

#include <nlohmann/json.hpp>

#include "canopy/core/param.hpp"

namespace canopy::detail {

/// A parameter value as a JSON value: true, 42, 2.5 or "text".
inline nlohmann::ordered_json json_value(const param_value& value) {
    return std::visit([](const auto& v) { return nlohmann::ordered_json(v); }, value);
}

}  // namespace canopy::detail
