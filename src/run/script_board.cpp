// Keys outside any tree, for scripts run by hand: laid out and constructed as an agent's
// blackboard is, in storage of their own.
#include "canopy/run/script_board.hpp"

#include "canopy/core/error.hpp"
#include "run/aligned_bytes.hpp"

namespace canopy {

script_board::~script_board() {
    if (storage_ == nullptr) return;
    blackboard(storage_, &layout_).destroy();
    detail::aligned_delete{layout_.align}(storage_);
}

script_board& script_board::add_key(blackboard_key added) {
    if (storage_ != nullptr) {
        throw error(error_code::invalid_argument,
                    "script_board: key '" + added.name + "' added after the board was made");
    }
    if (has_key(added.name)) {
        throw error(error_code::invalid_argument,
                    "script_board: key '" + added.name + "' is there already");
    }
    keys_.push_back(std::move(added));
    return *this;
}

script_board& script_board::add_enum(std::string name, std::int64_t value) {
    enums_[std::move(name)] = value;
    return *this;
}

blackboard script_board::board() {
    if (storage_ == nullptr) {
        layout_.place(keys_, false);
        detail::aligned_bytes storage = detail::allocate_zeroed(layout_.bytes, layout_.align);
        blackboard(storage.get(), &layout_).construct();
        storage_ = storage.release();
    }
    return {storage_, &layout_};
}

std::optional<std::uint32_t> script_board::find_slot(std::string_view name) const noexcept {
    for (std::size_t k = 0; k < keys_.size(); ++k) {
        if (keys_[k].name == name) return static_cast<std::uint32_t>(k);
    }
    return std::nullopt;
}

std::optional<script_scope::key> script_board::find_key(std::string_view name) const {
    const std::optional<std::uint32_t> slot = find_slot(name);
    if (!slot) return std::nullopt;
    const blackboard_key& k = keys_[*slot];
    return key{*slot, k.type, k.custom.get(), k.starts_unset, k.starts_unset && k.made_by_script};
}

std::optional<std::int64_t> script_board::find_enum(std::string_view name) const {
    const auto found = enums_.find(name);
    if (found == enums_.end()) return std::nullopt;
    return found->second;
}

}  // namespace canopy
