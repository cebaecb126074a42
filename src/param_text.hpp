#pragma once

#include <string>

#include "canopy/param.hpp"

namespace canopy::detail {

/// "an integer", "a number", "a boolean" or "a string": for messages.
inline std::string with_article(param_type type) {
    switch (type) {
        case param_type::integer: return "an integer";
        case param_type::key: return "the name of a blackboard key";
        case param_type::key_value: return "a value for its key";
        case param_type::any: return "any value";
        default: return "a " + std::string(to_string(type));
    }
}

}  // namespace canopy::detail
