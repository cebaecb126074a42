#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/param.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"

namespace canopy {

/// Keys laid out in storage of their own, outside any tree or agent, and the scope scripts
/// compile against: for running scripts by hand (a tool, a console, a test).
///
///     script_board keys;
///     keys.add_key("battery", param_type::number, 0.8).add_enum("LOW", 1);
///     auto parsed = parsed_script::parse("battery < 0.2");
///     auto compiled = script::compile(std::get<parsed_script>(parsed), keys);
///     bool low = std::get<0>(compiled)->test(keys.board());
class script_board : public script_scope {
public:
    script_board() = default;
    script_board(const script_board&) = delete;
    script_board& operator=(const script_board&) = delete;
    ~script_board() override;

    /// Adds a key (a custom one with its `custom` type and `initial_object`).
    /// @warning throws canopy::error for a name taken, or once board() was called.
    script_board& add_key(blackboard_key added);
    /// Adds a key of a built-in type, starting at `initial` (else 0, 0.0, false or "").
    script_board& add_key(std::string name, param_type type,
                          std::optional<param_value> initial = std::nullopt) {
        return add_key(blackboard_key{std::move(name), type, std::move(initial), false});
    }
    /// Names a value for scripts, as registry::add_enum does.
    script_board& add_enum(std::string name, std::int64_t value);

    bool has_key(std::string_view name) const noexcept { return find_slot(name).has_value(); }

    /// The keys' values: laid out and constructed on the first call, valid while this lives.
    blackboard board();

    std::optional<key> find_key(std::string_view name) const override;
    std::optional<std::int64_t> find_enum(std::string_view name) const override;

private:
    std::optional<std::uint32_t> find_slot(std::string_view name) const noexcept;

    std::vector<blackboard_key> keys_;
    std::map<std::string, std::int64_t, std::less<>> enums_;
    blackboard::layout layout_;
    std::byte* storage_ = nullptr;
};

}  // namespace canopy
