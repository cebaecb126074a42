#pragma once

#include <cstdint>
#include <string_view>

namespace canopy {

/// How many children a node of a type must have.
enum class arity : std::uint8_t {
    leaf,       ///< none
    decorator,  ///< exactly one
    composite,  ///< one or more
};

/// "leaf", "decorator" or "composite".
std::string_view to_string(arity a) noexcept;

}  // namespace canopy
