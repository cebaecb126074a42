#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/core/type_id.hpp"

namespace canopy {

/// A C++ type a program puts on the blackboard beside integers, numbers, booleans and strings
/// (a pose, a path, a handle): how to make, copy, compare and destroy one in an agent's block,
/// and how to read one from a file's text and show one as text. registry::add_type makes it;
/// keys (blackboard_key::custom) and parameters (param_spec::custom) share it.
struct value_type {
    std::string name;  ///< what files and palettes call it, e.g. "Pose2D"
    std::size_t size = 0;
    std::size_t align = 1;
    /// Trivially copyable and destructible: copied with memcpy, never destroyed.
    bool trivial = false;
    type_id cpp_type{};
    /// The type as RTTI names it, for a layer that speaks RTTI (canopy::btcpp, whose BT::Any
    /// carries a std::type_info): set where that layer makes the type, null otherwise.
    const std::type_info* rtti = nullptr;
    void (*construct)(void* at) = nullptr;  ///< a value-initialized T
    void (*copy_construct)(void* at, const void* from) = nullptr;
    void (*destroy)(void* at) noexcept = nullptr;
    void (*assign)(void* to, const void* from) = nullptr;
    void (*reset)(void* at) = nullptr;  ///< assigns a value-initialized T
    /// Null when T has no operator==: then scripts may not compare such values.
    bool (*equal)(const void* a, const void* b) = nullptr;
    /// The value as text, for print, trace and viewer.
    std::function<std::string(const void* value)> to_text;
    /// A new value from a file's text. @warning throws (any std::exception) for bad text.
    std::function<std::shared_ptr<const void>(std::string_view text)> from_text;
    /// How a snapshot (agent::save) keeps a value: `save` gives bytes from which `restore`
    /// gives the same value back into a constructed one, throwing (any std::exception) for
    /// bytes it cannot read. Empty: the snapshot keeps the value's to_text and restores it
    /// with from_text, which must then read back what it showed.
    std::function<std::string(const void* value)> save;
    std::function<void(void* at, std::string_view saved)> restore;

    /// For a type that holds whatever plain value is written into it (a BehaviorTree.CPP
    /// file's dynamic entry): how each plain value a program writes (blackboard::set) is
    /// stored into the value at `at`, as the type takes it; each may throw canopy::error
    /// for a value it refuses. Null for the others, which refuse plain values.
    struct plain_writes {
        void (*boolean)(void* at, bool value);
        void (*integer)(void* at, std::int64_t value);
        void (*number)(void* at, double value);
        void (*text)(void* at, std::string_view value);
    };
    const plain_writes* takes_plain = nullptr;

    /// Whether T is this type.
    template <typename T>
    bool is() const noexcept {
        return cpp_type == type_id_of<T>();
    }
};

namespace detail {

template <typename T, typename = void>
struct declares_equal : std::false_type {};
template <typename T>
struct declares_equal<T,
                      std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>>
    : std::true_type {};
template <typename T>
struct has_equal : declares_equal<T> {};
// A vector declares == whatever its elements are; it compiles only for elements that have one.
template <typename T, typename Allocator>
struct has_equal<std::vector<T, Allocator>> : has_equal<T> {};

}  // namespace detail

/// The descriptor of T under `name`, with BehaviorTree.CPP's convertFromString<T> as
/// `from_text` (T from a file's text; it throws for text it cannot read) and `to_text` for
/// showing a value (BehaviorTree.CPP's toStr).
template <typename T>
std::shared_ptr<const value_type> make_value_type(std::string name,
                                                  std::function<T(std::string_view)> from_text,
                                                  std::function<std::string(const T&)> to_text) {
    static_assert(std::is_default_constructible_v<T> && std::is_copy_constructible_v<T> &&
                      std::is_copy_assignable_v<T> && std::is_nothrow_destructible_v<T>,
                  "a blackboard type must be default-constructible, copyable and have a "
                  "destructor that does not throw");
    if (!from_text || !to_text)
        detail::throw_registry_error("blackboard type '" + name + "' needs from_text and to_text");
    auto type = std::make_shared<value_type>();
    type->name = std::move(name);
    type->size = sizeof(T);
    type->align = alignof(T);
    type->trivial = std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>;
    type->cpp_type = type_id_of<T>();
    type->construct = [](void* at) { ::new (at) T(); };
    type->copy_construct = [](void* at, const void* from) {
        ::new (at) T(*static_cast<const T*>(from));
    };
    type->destroy = [](void* at) noexcept { static_cast<T*>(at)->~T(); };
    type->assign = [](void* to, const void* from) {
        *static_cast<T*>(to) = *static_cast<const T*>(from);
    };
    type->reset = [](void* at) { *static_cast<T*>(at) = T(); };
    if constexpr (detail::has_equal<T>::value) {
        type->equal = [](const void* a, const void* b) {
            return static_cast<bool>(*static_cast<const T*>(a) == *static_cast<const T*>(b));
        };
    }
    type->to_text = [show = std::move(to_text)](const void* value) {
        return show(*static_cast<const T*>(value));
    };
    type->from_text = [read = std::move(from_text)](std::string_view text) {
        return std::shared_ptr<const void>(std::make_shared<const T>(read(text)));
    };
    return type;
}

/// BehaviorTree.CPP's readings of a file's text for its built-in types (its
/// convertFromString<bool/int/double/std::vector<...>>), for from_text functions.
namespace text {

/// "true", "True", "TRUE" or "1"; "false", "False", "FALSE" or "0".
/// @warning throws canopy::error for anything else.
bool to_bool(std::string_view text);
/// A whole decimal number. @warning throws canopy::error for other text.
std::int64_t to_integer(std::string_view text);
/// A decimal number. @warning throws canopy::error for other text.
double to_number(std::string_view text);
/// The parts of "a;b;c", empty parts included; none for "".
std::vector<std::string_view> split(std::string_view text, char separator = ';');
/// The shortest text that reads back as the same double.
std::string of_number(double value);

}  // namespace text

/// The descriptors of BehaviorTree.CPP's vector types, read from "1;2;3" and shown so:
/// "std::vector<int>", "std::vector<double>" and
/// "std::vector<std::string>". registry::add_builtin_types adds them.
std::vector<std::shared_ptr<const value_type>> builtin_value_types();

}  // namespace canopy
