#include "canopy/blackboard.hpp"

#include "canopy/error.hpp"

namespace canopy {

std::uint32_t blackboard::find(std::string_view name) const noexcept {
    for (std::size_t k = 0; k < keys_->size(); ++k) {
        if ((*keys_)[k].name == name) return static_cast<std::uint32_t>(k);
    }
    return npos;
}

std::uint32_t blackboard::slot(std::string_view name) const {
    const std::uint32_t found = find(name);
    if (found == npos) throw error("no blackboard key '" + std::string(name) + "'");
    return found;
}

void blackboard::wrong_type(std::uint32_t slot, param_type asked) const {
    const blackboard_key& key = (*keys_)[slot];
    throw error("blackboard key '" + key.name + "' holds " +
                (key.type == param_type::integer ? "an " : "a ") +
                std::string(to_string(key.type)) + " value, not " +
                (asked == param_type::integer ? "an " : "a ") + std::string(to_string(asked)));
}

}  // namespace canopy
