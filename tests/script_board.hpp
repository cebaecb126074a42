#pragma once

// A blackboard made by hand for script tests: keys of each type laid out in a local buffer,
// and the scope a script compiles against (keys and enums by name).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"

namespace canopy::testing {

class script_board : public script_scope {
public:
    /// Adds a key; call before board().
    script_board& add_key(std::string name, param_type type,
                          std::optional<param_value> initial = std::nullopt) {
        layout_.keys.push_back({std::move(name), type, std::move(initial), false});
        return *this;
    }
    script_board& enumeration(std::string name, std::int64_t value) {
        enums_[std::move(name)] = value;
        return *this;
    }

    /// The blackboard, laid out and initialized on the first call.
    blackboard board() {
        if (cells_.empty()) {
            std::size_t bytes = 0;
            for (const blackboard_key& k : layout_.keys) {
                layout_.offsets.push_back(static_cast<std::uint32_t>(bytes));
                const std::size_t size = blackboard::layout::size_of(k.type);
                bytes += (size + blackboard::layout::align - 1) / blackboard::layout::align *
                         blackboard::layout::align;
            }
            layout_.bytes = bytes;
            cells_.resize(bytes / sizeof(std::int64_t) + 1);
            blackboard b(reinterpret_cast<std::byte*>(cells_.data()), &layout_);
            b.initialize();
        }
        return blackboard(reinterpret_cast<std::byte*>(cells_.data()), &layout_);
    }

    std::optional<script_scope::key> find_key(std::string_view name) const override {
        for (std::size_t k = 0; k < layout_.keys.size(); ++k) {
            if (layout_.keys[k].name == name) {
                return script_scope::key{static_cast<std::uint32_t>(k), layout_.keys[k].type};
            }
        }
        return std::nullopt;
    }
    std::optional<std::int64_t> find_enum(std::string_view name) const override {
        const auto found = enums_.find(std::string(name));
        if (found == enums_.end()) return std::nullopt;
        return found->second;
    }

private:
    blackboard::layout layout_;
    std::vector<std::int64_t> cells_;  // aligned as blackboard::layout::align asks
    std::map<std::string, std::int64_t> enums_;
};

}  // namespace canopy::testing
