#pragma once

// BT::Any, the value a BehaviorTree.CPP blackboard entry holds: empty, an integer (every
// integral and enum type, as int64_t), a real (float and double, as double), text, or an
// object of any copyable type. cast<T>() converts between the arithmetic kinds when no value
// is lost, reads text as T with convertFromString<T>, and gives an object back only as its
// own type.

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <typeinfo>

#include "behaviortree_cpp/exceptions.h"
#include "behaviortree_cpp/utils/expected.hpp"

namespace BT {

template <typename T>
using Expected = nonstd::expected<T, std::string>;

/// Whether T is a std::shared_ptr (whose ports may read registered derived types).
template <typename T>
struct is_shared_ptr : std::false_type {};
template <typename U>
struct is_shared_ptr<std::shared_ptr<U>> : std::true_type {};

template <typename T>
[[nodiscard]] T convertFromString(std::string_view str);

/// The readable name of a C++ type ("Pose2D", "std::string").
std::string demangle(const std::type_index& type);
inline std::string demangle(const std::type_info& type) {
    return demangle(std::type_index(type));
}

class PolymorphicCastRegistry;

class Any {
public:
    enum class Kind : std::uint8_t { Empty, Integer, Real, Text, Object };

    Any() = default;
    template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, Any>>>
    explicit Any(const T& value) : type_(typeid(T)) {
        if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
            kind_ = Kind::Integer;
            integer_ = static_cast<std::int64_t>(value);
        } else if constexpr (std::is_floating_point_v<T>) {
            kind_ = Kind::Real;
            real_ = static_cast<double>(value);
        } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
            kind_ = Kind::Text;
            text_ = std::string(std::string_view(value));
            type_ = typeid(std::string);
        } else {
            kind_ = Kind::Object;
            object_ = std::make_shared<T>(value);
        }
    }
    /// An object held elsewhere (in an agent's blackboard) seen through `object`, which
    /// owns it or not; `type` is its C++ type.
    static Any object(std::shared_ptr<void> object, const std::type_info& type) {
        Any any;
        any.kind_ = Kind::Object;
        any.object_ = std::move(object);
        any.type_ = type;
        return any;
    }

    bool empty() const noexcept { return kind_ == Kind::Empty; }
    bool isNumber() const noexcept { return kind_ == Kind::Integer || kind_ == Kind::Real; }
    bool isIntegral() const noexcept { return kind_ == Kind::Integer; }
    bool isString() const noexcept { return kind_ == Kind::Text; }
    Kind kind() const noexcept { return kind_; }
    /// The type the value was made from (int, float, Pose2D...).
    const std::type_index& type() const noexcept { return type_; }
    /// The type it is kept as: int64_t, double, std::string, or the object's own.
    std::type_index castedType() const noexcept {
        switch (kind_) {
            case Kind::Integer: return typeid(std::int64_t);
            case Kind::Real: return typeid(double);
            case Kind::Text: return typeid(std::string);
            default: return type_;
        }
    }
    template <typename T>
    bool isType() const noexcept {
        return type_ == typeid(T);
    }

    /// The value as T. @warning throws std::runtime_error when it cannot be one.
    template <typename T>
    T cast() const {
        auto result = tryCast<T>();
        if (!result) throw std::runtime_error(result.error());
        return std::move(result).value();
    }
    template <typename T>
    Expected<T> tryCast() const;
    /// tryCast, then for a shared_ptr a cast the registry knows (polymorphic_cast_registry.hpp
    /// defines it).
    template <typename T>
    Expected<T> tryCastWithRegistry(const PolymorphicCastRegistry& registry) const;
    /// The object itself, to change in place, or null unless it is an object of type T.
    template <typename T>
    T* castPtr() const noexcept {
        if (kind_ != Kind::Object || type_ != typeid(T)) return nullptr;
        return static_cast<T*>(object_.get());
    }
    /// The object's address and type, for code that copies it without knowing T.
    const void* objectAddress() const noexcept { return object_.get(); }

    /// Copies the value into `other`.
    void copyInto(Any& other) const { other = *this; }

private:
    std::string failure(const std::type_info& wanted) const {
        return "Any::cast failed to cast [" + demangle(type_) + "] to [" + demangle(wanted) + "]";
    }

    Kind kind_ = Kind::Empty;
    std::int64_t integer_ = 0;
    double real_ = 0;
    std::string text_;
    std::shared_ptr<void> object_;
    std::type_index type_ = typeid(void);
};

template <typename T>
Expected<T> Any::tryCast() const {
    using nonstd::make_unexpected;
    if (kind_ == Kind::Empty) return make_unexpected("Any::cast failed because it is empty");
    if constexpr (std::is_same_v<T, Any>) {
        return *this;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (kind_ == Kind::Text) return text_;
        if (kind_ == Kind::Integer) return std::to_string(integer_);
        if (kind_ == Kind::Real) return std::to_string(real_);
        if (auto* text = castPtr<std::string>()) return *text;
        return make_unexpected(failure(typeid(T)));
    } else if constexpr (std::is_same_v<T, bool>) {
        // BehaviorTree.CPP's: an integer only when 0 or 1, a real when not 0; text never.
        if (kind_ == Kind::Integer && (integer_ == 0 || integer_ == 1)) return integer_ == 1;
        if (kind_ == Kind::Real) return real_ != 0.0;
        if (isNumber()) return make_unexpected("Implicit casting to bool is not allowed");
        return make_unexpected(failure(typeid(T)));
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        using limits = std::numeric_limits<std::conditional_t<std::is_enum_v<T>, int, T>>;
        std::int64_t whole = 0;
        if (kind_ == Kind::Integer) {
            whole = integer_;
        } else if (kind_ == Kind::Real) {
            if (std::trunc(real_) != real_ || !(std::abs(real_) < 9.2e18))
                return make_unexpected("Floating point truncated");
            whole = static_cast<std::int64_t>(real_);
        } else if (kind_ == Kind::Text) {
            return convertFromString<T>(text_);
        } else {
            if (auto* same = castPtr<T>()) return *same;
            return make_unexpected(failure(typeid(T)));
        }
        if constexpr (!std::is_enum_v<T>) {
            if (std::is_unsigned_v<T> && whole < 0)
                return make_unexpected("Value is negative and can't be converted to unsigned");
            if (whole < static_cast<std::int64_t>(limits::min()) ||
                (whole > 0 &&
                 static_cast<std::uint64_t>(whole) > static_cast<std::uint64_t>(limits::max())))
                return make_unexpected("Value outside the max numerical limit.");
        }
        return static_cast<T>(whole);
    } else if constexpr (std::is_floating_point_v<T>) {
        if (kind_ == Kind::Integer) return static_cast<T>(integer_);
        if (kind_ == Kind::Real) return static_cast<T>(real_);
        if (kind_ == Kind::Text) return convertFromString<T>(text_);
        return make_unexpected(failure(typeid(T)));
    } else {
        if (auto* same = castPtr<T>()) return *same;
        if (kind_ == Kind::Text) return convertFromString<T>(text_);
        return make_unexpected(failure(typeid(T)));
    }
}

}  // namespace BT
