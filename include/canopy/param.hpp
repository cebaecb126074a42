#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace canopy {

/// The value types a node parameter may have.
enum class param_type : std::uint8_t {
    integer,
    number,
    boolean,
    string,
    /// The name of a blackboard key the registry declares (registry::add_key). The file gives
    /// the name; the node reads the key's slot as an integer: params.get<std::int64_t>(...).
    key,
    /// A value of the type of the node's one `key` parameter, converted to it at load.
    key_value,
};

/// "integer", "number", "boolean", "string", "key" or "key-value".
std::string_view to_string(param_type type) noexcept;

/// A parameter value. An integer is accepted where a number is expected.
using param_value = std::variant<bool, std::int64_t, double, std::string>;

/// The type a value holds.
param_type type_of(const param_value& value) noexcept;

/// One parameter a node type accepts: its name, type and, unless it is required, a default.
struct param_spec {
    std::string name;
    param_type type = param_type::string;
    std::optional<param_value> default_value;  ///< absent: the file must give the parameter

    static param_spec required(std::string name, param_type type) {
        return {std::move(name), type, std::nullopt};
    }
    static param_spec optional(std::string name, param_value default_value) {
        param_type type = type_of(default_value);
        return {std::move(name), type, std::move(default_value)};
    }
};

/// A parameter of one tree node, already checked against its type's spec.
struct param {
    std::string name;
    param_value value;
};

/// The parameters of one tree node: every parameter its type declares, in declaration order,
/// defaults filled in. A view into storage owned by a tree (or by the builder while it runs).
class param_list {
public:
    param_list() = default;
    param_list(const param* first, std::size_t count) : first_(first), count_(count) {}

    const param* begin() const noexcept { return first_; }
    const param* end() const noexcept { return first_ + count_; }
    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }

    /// The value of a parameter, or null if the node type declares none of that name.
    const param_value* find(std::string_view name) const noexcept {
        for (const param& p : *this) {
            if (p.name == name) return &p.value;
        }
        return nullptr;
    }

    /// The value of a declared parameter as T (bool, std::int64_t, double or std::string).
    /// @warning throws std::out_of_range for an undeclared name and std::bad_variant_access
    /// for the wrong T; a declared parameter always has a value of its declared type.
    template <typename T>
    const T& get(std::string_view name) const {
        const param_value* value = find(name);
        if (value == nullptr) throw std::out_of_range("no parameter '" + std::string(name) + "'");
        return std::get<T>(*value);
    }

private:
    const param* first_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace canopy
