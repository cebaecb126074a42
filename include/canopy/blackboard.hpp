#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "canopy/param.hpp"

namespace canopy {

/// A blackboard key a registry declares: what nodes and the host may read and write per agent.
/// Values are integers, numbers or booleans (strings would cost every agent an allocation).
struct blackboard_key {
    std::string name;
    param_type type = param_type::number;
};

/// One agent's blackboard: a typed value per key of its tree, each in a slot fixed when the
/// tree was built, so reading or writing by slot does no string lookup. A view: cheap to
/// copy, valid while its agent lives. Values start as 0, 0.0 and false.
class blackboard {
public:
    /// One value; which member is live follows the key's type.
    union cell {
        std::int64_t integer;
        double number;
        bool boolean;
    };

    blackboard(cell* cells, const std::vector<blackboard_key>* keys) : cells_(cells), keys_(keys) {}

    /// The slot of a key, or npos when the tree has no such key.
    std::uint32_t find(std::string_view name) const noexcept;
    static constexpr std::uint32_t npos = 0xFFFFFFFF;
    /// The slot of a key. @warning throws canopy::error for a key the tree does not have.
    std::uint32_t slot(std::string_view name) const;

    /// The value as T: bool for a boolean key, std::int64_t for an integer key, double for a
    /// number or integer key. @warning throws canopy::error for any other T.
    template <typename T>
    T get(std::uint32_t slot) const;
    /// Stores a value: bool into a boolean key, std::int64_t into an integer or number key,
    /// double into a number key. @warning throws canopy::error for any other combination.
    template <typename T>
    void set(std::uint32_t slot, T value);

    template <typename T>
    T get(std::string_view name) const {
        return get<T>(slot(name));
    }
    template <typename T>
    void set(std::string_view name, T value) {
        set<T>(slot(name), value);
    }

    const std::vector<blackboard_key>& keys() const noexcept { return *keys_; }
    cell raw(std::uint32_t slot) const noexcept { return cells_[slot]; }

private:
    [[noreturn]] void wrong_type(std::uint32_t slot, param_type asked) const;

    cell* cells_;
    const std::vector<blackboard_key>* keys_;
};

template <typename T>
T blackboard::get(std::uint32_t slot) const {
    const param_type type = (*keys_)[slot].type;
    if constexpr (std::is_same_v<T, bool>) {
        if (type == param_type::boolean) return cells_[slot].boolean;
        wrong_type(slot, param_type::boolean);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        if (type == param_type::integer) return cells_[slot].integer;
        wrong_type(slot, param_type::integer);
    } else {
        static_assert(std::is_same_v<T, double>,
                      "blackboard values are bool, std::int64_t or double");
        if (type == param_type::number) return cells_[slot].number;
        if (type == param_type::integer) return static_cast<double>(cells_[slot].integer);
        wrong_type(slot, param_type::number);
    }
}

template <typename T>
void blackboard::set(std::uint32_t slot, T value) {
    const param_type type = (*keys_)[slot].type;
    if constexpr (std::is_same_v<T, bool>) {
        if (type != param_type::boolean) wrong_type(slot, param_type::boolean);
        cells_[slot].boolean = value;
    } else if constexpr (std::is_integral_v<T>) {
        if (type == param_type::integer) {
            cells_[slot].integer = static_cast<std::int64_t>(value);
        } else if (type == param_type::number) {
            cells_[slot].number = static_cast<double>(value);
        } else {
            wrong_type(slot, param_type::integer);
        }
    } else {
        static_assert(std::is_floating_point_v<T>,
                      "blackboard values are bool, an integer type or a floating-point type");
        if (type != param_type::number) wrong_type(slot, param_type::number);
        cells_[slot].number = static_cast<double>(value);
    }
}

}  // namespace canopy
