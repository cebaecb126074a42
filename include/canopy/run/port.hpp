#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

#include "canopy/core/error.hpp"
#include "canopy/core/param.hpp"
#include "canopy/run/context.hpp"

namespace canopy {

namespace detail {
template <typename T>
inline constexpr bool builtin_value =
    std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::string_view>;

// A key that is a dynamic entry of a BehaviorTree.CPP file (param::dynamic), read and written
// as BehaviorTree.CPP's getInput<T> and setOutput<T> convert (docs/btcpp-xml.md, "Dynamic
// entries"): text read as T, a number cast to T, with BehaviorTree.CPP's failures, which
// throw canopy::error (code `blackboard`) naming the node. A string read is valid until the
// entry changes; a number read as text, until the fourth such read after it on the thread.
// A `json` key (a behavior3 file's variable) is read as behavior3-ts's nodes read a JavaScript
// value; one not set gives the parameter's default, as there.
std::int64_t read_dynamic_integer(const context& ctx, std::uint32_t slot);
double read_dynamic_number(const context& ctx, std::uint32_t slot);
bool read_dynamic_boolean(const context& ctx, std::uint32_t slot);
std::string_view read_dynamic_string(const context& ctx, std::uint32_t slot);
bool holds_javascript(const blackboard& board, std::uint32_t slot) noexcept;
void write_dynamic(context& ctx, std::uint32_t slot, std::int64_t value);
void write_dynamic(context& ctx, std::uint32_t slot, double value);
void write_dynamic(context& ctx, std::uint32_t slot, bool value);
void write_dynamic(context& ctx, std::uint32_t slot, std::string_view value);

template <typename T>
T read_dynamic(const context& ctx, std::uint32_t slot) {
    if constexpr (std::is_same_v<T, bool>) {
        return read_dynamic_boolean(ctx, slot);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return read_dynamic_integer(ctx, slot);
    } else if constexpr (std::is_same_v<T, double>) {
        return read_dynamic_number(ctx, slot);
    } else {
        return read_dynamic_string(ctx, slot);
    }
}

}  // namespace detail

/// A parameter a node reads at each tick: the file's literal, or the current value of the
/// blackboard key the file named as `"{key}"`. The loader checked the key's type against the
/// parameter's, so reading is one branch and, for a key, one load from the agent's block.
///
/// T is bool, std::int64_t, double, std::string_view (for a string parameter), or a type
/// registered with registry::add_type (for a parameter declared with it, param_spec::custom),
/// which get() returns by reference. Make one in the node's constructor from its parameters:
/// `seconds_(params, "seconds")`.
template <typename T>
class input {
    static_assert(!std::is_arithmetic_v<T> || detail::builtin_value<T>,
                  "an arithmetic input is of bool, std::int64_t or double");
    static_assert(!std::is_same_v<T, std::string>, "a string input is of std::string_view");
    static constexpr bool builtin = detail::builtin_value<T>;
    using stored = std::conditional_t<std::is_same_v<T, std::string_view>, std::string,
                                      std::conditional_t<builtin, T, std::shared_ptr<const void>>>;
    using result = std::conditional_t<builtin, T, const T&>;

public:
    /// @warning throws param_error when the node's type declares no such parameter, or
    /// declares it of another type than T.
    input(const param_list& params, std::string_view name) {
        const param* found = params.find_param(name);
        if (found == nullptr) throw param_error("no parameter '" + std::string(name) + "'");
        key_ = found->key;
        dynamic_ = found->dynamic;
        if constexpr (builtin) {
            const stored* literal = std::get_if<stored>(&found->value);
            if (literal == nullptr) {
                throw param_error("parameter '" + std::string(name) + "' is " +
                                  std::string(to_string(type_of(found->value))) +
                                  ", not read as this input's type");
            }
            literal_ = *literal;
        } else if (key_ == param::no_key) {
            if (found->object == nullptr || *found->object_type != typeid(T)) {
                throw param_error("parameter '" + std::string(name) +
                                  "' is not of the registered type this input reads");
            }
            literal_ = found->object;
        }
    }

    /// The value for this tick.
    /// @warning throws canopy::error (code `blackboard`) for a key that holds no value
    /// (context::require_value).
    result get(const context& ctx) const {
        if (key_ == param::no_key) {
            if constexpr (builtin) {
                return literal_;
            } else {
                return *static_cast<const T*>(literal_.get());
            }
        }
        const canopy::blackboard board = ctx.blackboard();
        if (!board.is_set(key_)) {
            if constexpr (builtin) {
                if (dynamic_ && detail::holds_javascript(board, key_)) return literal_;
            }
            ctx.require_value(key_);
        }
        if constexpr (builtin) {
            if (dynamic_) return detail::read_dynamic<T>(ctx, key_);
            return board.get<T>(key_);
        } else {
            return board.template get_ref<T>(key_);
        }
    }
    /// Whether the value comes from the blackboard (else it is literal()).
    bool from_blackboard() const noexcept { return key_ != param::no_key; }
    /// The key's slot, or param::no_key.
    std::uint32_t key() const noexcept { return key_; }
    /// The file's value; meaningful only when !from_blackboard().
    const auto& literal() const noexcept {
        if constexpr (builtin) {
            return literal_;
        } else {
            return *static_cast<const T*>(literal_.get());
        }
    }

private:
    stored literal_{};
    std::uint32_t key_ = param::no_key;
    bool dynamic_ = false;
};

/// An output parameter: the blackboard key the file named, which the node writes. A node
/// whose file left the output out writes nowhere.
template <typename T>
class output {
public:
    /// @warning throws param_error when the node's type declares no such parameter.
    output(const param_list& params, std::string_view name) {
        const param* found = params.find_param(name);
        if (found == nullptr) throw param_error("no parameter '" + std::string(name) + "'");
        key_ = found->key;
        dynamic_ = found->dynamic;
    }

    /// Writes the value to the key, if the file named one.
    void set(context& ctx, const T& value) const {
        if (key_ == param::no_key) return;
        if constexpr (detail::builtin_value<T> ||
                      std::is_convertible_v<const T&, std::string_view>) {
            if (dynamic_) return detail::write_dynamic(ctx, key_, value);
        }
        ctx.blackboard().set(key_, value);
    }
    /// Unsets the key (blackboard::unset), if the file named one.
    void unset(context& ctx) const {
        if (key_ != param::no_key) ctx.blackboard().unset(key_);
    }
    bool connected() const noexcept { return key_ != param::no_key; }

private:
    std::uint32_t key_ = param::no_key;
    bool dynamic_ = false;
};

}  // namespace canopy
