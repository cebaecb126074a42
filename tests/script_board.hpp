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
    script_board() = default;
    script_board(const script_board&) = delete;
    script_board& operator=(const script_board&) = delete;
    ~script_board() {
        if (!cells_.empty()) blackboard(base(), &layout_).destroy();
    }

    /// Adds a key; call before board().
    script_board& add_key(std::string name, param_type type,
                          std::optional<param_value> initial = std::nullopt) {
        keys_.push_back({std::move(name), type, std::move(initial), false});
        return *this;
    }
    script_board& enumeration(std::string name, std::int64_t value) {
        enums_[std::move(name)] = value;
        return *this;
    }

    /// The blackboard, laid out and its values constructed on the first call.
    blackboard board() {
        if (cells_.empty()) {
            layout_.place(keys_, false);
            cells_.resize(layout_.bytes / sizeof(std::int64_t) + 1);
            blackboard(base(), &layout_).construct();
        }
        return blackboard(base(), &layout_);
    }

    std::optional<script_scope::key> find_key(std::string_view name) const override {
        for (std::size_t k = 0; k < keys_.size(); ++k) {
            if (keys_[k].name == name) {
                return script_scope::key{static_cast<std::uint32_t>(k), keys_[k].type};
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
    std::byte* base() { return reinterpret_cast<std::byte*>(cells_.data()); }

    std::vector<blackboard_key> keys_;
    blackboard::layout layout_;
    std::vector<std::int64_t> cells_;  // 8-byte aligned, as every key type here asks
    std::map<std::string, std::int64_t> enums_;
};

}  // namespace canopy::testing
