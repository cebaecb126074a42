#include "canopy/param.hpp"

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
    }
    return "unknown";
}

param_type type_of(const param_value& value) noexcept {
    switch (value.index()) {
        case 0: return param_type::boolean;
        case 1: return param_type::integer;
        case 2: return param_type::number;
        default: return param_type::string;
    }
}

}  // namespace canopy
