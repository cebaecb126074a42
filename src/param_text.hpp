#pragma once

#include <string>

#include "canopy/param.hpp"

namespace canopy::detail {

/// "an integer", "a number", "a boolean" or "a string": for messages.
inline std::string with_article(param_type type) {
    return (type == param_type::integer ? "an " : "a ") + std::string(to_string(type));
}

}  // namespace canopy::detail
