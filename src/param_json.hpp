#pragma once
// Parameter values as nlohmann JSON values, for the library's JSON output (schema, palette).

#include <nlohmann/json.hpp>

#include "canopy/param.hpp"

namespace canopy::detail {

/// A parameter value as a JSON value: true, 42, 2.5 or "text".
inline nlohmann::ordered_json json_value(const param_value& value) {
    switch (value.index()) {
        case 0: return std::get<bool>(value);
        case 1: return std::get<std::int64_t>(value);
        case 2: return std::get<double>(value);
        default: return std::get<std::string>(value);
    }
}

}  // namespace canopy::detail
