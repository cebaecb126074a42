#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "canopy/core/param.hpp"

namespace canopy {

/// A blackboard key: what nodes and the host may read and write per agent. A program declares
/// keys with registry::add_key; a tree file may declare its own (docs/formats.md).
struct blackboard_key {
    std::string name;
    param_type type = param_type::number;  ///< integer, number, boolean or string
    /// What each agent's value starts as; absent: 0, 0.0, false or "".
    std::optional<param_value> initial;
    /// Whether the tree's file declares it (a program key it declares again included), so
    /// that writing the tree writes the declaration.
    bool from_file = false;
};

/// One agent's blackboard: a typed value per key of its tree, each at a place fixed when the
/// tree was built, so reading or writing by slot does no string lookup. A view: cheap to
/// copy, valid while its agent lives.
///
/// A string value lives in the agent's own state block, in a fixed buffer of
/// max_string_bytes, so that reading and writing one never allocates.
class blackboard {
public:
    /// The most bytes of UTF-8 a string value holds.
    static constexpr std::size_t max_string_bytes = 63;

    /// Where each key of a tree lives in an agent's blackboard; the tree makes it.
    struct layout {
        std::vector<blackboard_key> keys;    ///< in slot order
        std::vector<std::uint32_t> offsets;  ///< per slot: the value's byte offset
        std::size_t bytes = 0;               ///< the blackboard's size
        static constexpr std::size_t align = alignof(std::int64_t);
        /// The bytes a value of that type takes.
        static std::size_t size_of(param_type type) noexcept {
            return type == param_type::string ? max_string_bytes + 1 : sizeof(std::int64_t);
        }
    };

    blackboard(std::byte* base, const layout* l) : base_(base), layout_(l) {}

    /// The slot of a key, or npos when the tree has no such key.
    std::uint32_t find(std::string_view name) const noexcept;
    static constexpr std::uint32_t npos = 0xFFFFFFFF;
    /// The slot of a key. @warning throws canopy::error for a key the tree does not have.
    std::uint32_t slot(std::string_view name) const;

    /// The value as T: bool for a boolean key, std::int64_t for an integer key, double for a
    /// number or integer key, std::string_view for a string key (valid until the value
    /// changes). @warning throws canopy::error for any other T.
    template <typename T>
    T get(std::uint32_t slot) const;
    /// Stores a value: bool into a boolean key, an integer into an integer or number key, a
    /// floating-point value into a number key, a string into a string key.
    /// @warning throws canopy::error for any other combination, and for a string longer than
    /// max_string_bytes.
    template <typename T>
    void set(std::uint32_t slot, const T& value);

    template <typename T>
    T get(std::string_view name) const {
        return get<T>(slot(name));
    }
    template <typename T>
    void set(std::string_view name, const T& value) {
        set(slot(name), value);
    }

    const std::vector<blackboard_key>& keys() const noexcept { return layout_->keys; }
    param_type type(std::uint32_t slot) const noexcept { return layout_->keys[slot].type; }

    /// Writes every key's initial value. The runtime calls it when it makes an agent.
    void initialize();

private:
    [[noreturn]] void wrong_type(std::uint32_t slot, param_type asked) const;
    void set_string(std::uint32_t slot, std::string_view value);
    std::byte* at(std::uint32_t slot) const noexcept { return base_ + layout_->offsets[slot]; }
    template <typename V>
    V load(std::uint32_t slot) const noexcept {
        V value;
        std::memcpy(&value, at(slot), sizeof value);
        return value;
    }
    template <typename V>
    void store(std::uint32_t slot, V value) noexcept {
        std::memcpy(at(slot), &value, sizeof value);
    }

    std::byte* base_;
    const layout* layout_;
};

template <typename T>
T blackboard::get(std::uint32_t slot) const {
    const param_type type = this->type(slot);
    if constexpr (std::is_same_v<T, bool>) {
        if (type == param_type::boolean) return load<bool>(slot);
        wrong_type(slot, param_type::boolean);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        if (type == param_type::integer) return load<std::int64_t>(slot);
        wrong_type(slot, param_type::integer);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        if (type != param_type::string) wrong_type(slot, param_type::string);
        const std::byte* cell = at(slot);
        return {reinterpret_cast<const char*>(cell + 1), static_cast<std::size_t>(cell[0])};
    } else {
        static_assert(std::is_same_v<T, double>,
                      "blackboard values are bool, std::int64_t, double or std::string_view");
        if (type == param_type::number) return load<double>(slot);
        if (type == param_type::integer) return static_cast<double>(load<std::int64_t>(slot));
        wrong_type(slot, param_type::number);
    }
}

template <typename T>
void blackboard::set(std::uint32_t slot, const T& value) {
    const param_type type = this->type(slot);
    if constexpr (std::is_same_v<T, bool>) {
        if (type != param_type::boolean) wrong_type(slot, param_type::boolean);
        store(slot, value);
    } else if constexpr (std::is_integral_v<T>) {
        if (type == param_type::integer) {
            store(slot, static_cast<std::int64_t>(value));
        } else if (type == param_type::number) {
            store(slot, static_cast<double>(value));
        } else {
            wrong_type(slot, param_type::integer);
        }
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        set_string(slot, std::string_view(value));
    } else {
        static_assert(std::is_floating_point_v<T>,
                      "blackboard values are bool, an integer, a floating-point value or a "
                      "string");
        if (type != param_type::number) wrong_type(slot, param_type::number);
        store(slot, static_cast<double>(value));
    }
}

}  // namespace canopy
