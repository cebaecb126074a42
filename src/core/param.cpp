#include "canopy/core/param.hpp"

namespace canopy {

std::string_view to_string(param_type type) noexcept {
    switch (type) {
        case param_type::integer: return "integer";
        case param_type::number: return "number";
        case param_type::boolean: return "boolean";
        case param_type::string: return "string";
        case param_type::key: return "key";
        case param_type::key_value: return "key-value";
        case param_type::any: return "any";
        case param_type::script: return "script";
        case param_type::custom: return "custom";
    }
    return "unknown";
}

param_type type_of(const param_value& value) noexcept {
    if (std::holds_alternative<bool>(value)) return param_type::boolean;
    if (std::holds_alternative<std::int64_t>(value)) return param_type::integer;
    if (std::holds_alternative<double>(value)) return param_type::number;
    return param_type::string;
}

}  // namespace canopy
