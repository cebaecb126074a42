#include "canopy/run/blackboard.hpp"

#include "canopy/core/error.hpp"
#include "core/param_text.hpp"

namespace canopy {

std::uint32_t blackboard::find(std::string_view name) const noexcept {
    const std::vector<blackboard_key>& all = keys();
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (all[k].name == name) return static_cast<std::uint32_t>(k);
    }
    return npos;
}

std::uint32_t blackboard::slot(std::string_view name) const {
    const std::uint32_t found = find(name);
    if (found == npos)
        throw error(error_code::blackboard, "no blackboard key '" + std::string(name) + "'");
    return found;
}

void blackboard::wrong_type(std::uint32_t slot, param_type asked) const {
    const blackboard_key& key = keys()[slot];
    throw error(error_code::blackboard, "blackboard key '" + key.name + "' holds " +
                                            detail::with_article(key.type) + " value, not " +
                                            detail::with_article(asked));
}

void blackboard::set_string(std::uint32_t slot, std::string_view value) {
    if (type(slot) != param_type::string) wrong_type(slot, param_type::string);
    if (value.size() > max_string_bytes) {
        throw error(error_code::blackboard, "blackboard key '" + keys()[slot].name +
                                                "' holds at most " +
                                                std::to_string(max_string_bytes) + " bytes, not " +
                                                std::to_string(value.size()));
    }
    std::byte* cell = at(slot);
    cell[0] = static_cast<std::byte>(value.size());
    std::memcpy(cell + 1, value.data(), value.size());
}

void blackboard::initialize() {
    const std::vector<blackboard_key>& all = keys();
    for (std::uint32_t k = 0; k < all.size(); ++k) {
        std::memset(at(k), 0, layout::size_of(all[k].type));
        if (!all[k].initial) continue;
        const param_value& value = *all[k].initial;
        switch (all[k].type) {
            case param_type::boolean: store(k, std::get<bool>(value)); break;
            case param_type::integer: store(k, std::get<std::int64_t>(value)); break;
            case param_type::number: store(k, std::get<double>(value)); break;
            default: {  // a string, checked for length when the key was declared
                const auto& text = std::get<std::string>(value);
                at(k)[0] = static_cast<std::byte>(text.size());
                std::memcpy(at(k) + 1, text.data(), text.size());
            }
        }
    }
}

}  // namespace canopy
