#pragma once

#include <string_view>
#include <type_traits>

namespace canopy {

namespace detail {

// The compiler's spelling of T, read from the signature it gives a function template: the
// one way to name a type that needs no RTTI. GCC and Clang write "[with T = X; ...]" and
// "[T = X]", MSVC "type_name<X>(void)"; another compiler gets "(unnamed type)".
template <typename T>
constexpr std::string_view type_name() noexcept {
#if defined(__clang__) || defined(__GNUC__)
    constexpr std::string_view signature = __PRETTY_FUNCTION__;
    constexpr std::string_view open = "T = ";
    constexpr std::size_t first = signature.find(open);
    if (first == std::string_view::npos) return "(unnamed type)";
    constexpr std::size_t begin = first + open.size();
    std::size_t end = signature.find(';', begin);
    if (end == std::string_view::npos) end = signature.rfind(']');
    return signature.substr(begin, end - begin);
#elif defined(_MSC_VER)
    constexpr std::string_view signature = __FUNCSIG__;
    constexpr std::string_view open = "type_name<";
    constexpr std::size_t begin = signature.find(open) + open.size();
    return signature.substr(begin, signature.rfind(">(void)") - begin);
#else
    return "(unnamed type)";
#endif
}

struct type_tag {
    std::string_view name;
};

// One per type in a program: its address is the type's identity.
template <typename T>
inline constexpr type_tag type_tag_of{type_name<T>()};

// A type in an anonymous namespace is a different type in each file that declares it, under
// the same name; such names never identify a type across shared libraries.
constexpr bool names_one_type(std::string_view name) noexcept {
    return name.find("anonymous") == std::string_view::npos;
}

}  // namespace detail

/// A C++ type's identity, for the program's own types on the blackboard and in ports, which
/// works with RTTI off (`-fno-rtti`): made by type_id_of<T>(), equal for the same type
/// across the files of a program and the shared libraries it loads (whose copies of the
/// identity are told apart by their names, as the C++ ABI compares type_info). A
/// default-made type_id is no type.
class type_id {
public:
    constexpr type_id() noexcept = default;

    /// The type as the compiler spells it (`Pose2D`, `std::vector<int>`); empty for no type.
    /// For messages: Canopy's own messages call the common types by their usual names
    /// (detail::cpp_name).
    constexpr std::string_view name() const noexcept {
        return tag_ != nullptr ? tag_->name : std::string_view();
    }
    constexpr explicit operator bool() const noexcept { return tag_ != nullptr; }

    friend constexpr bool operator==(type_id a, type_id b) noexcept {
        return a.tag_ == b.tag_ ||
               (a.tag_ != nullptr && b.tag_ != nullptr && a.tag_->name == b.tag_->name &&
                detail::names_one_type(a.tag_->name));
    }
    friend constexpr bool operator!=(type_id a, type_id b) noexcept { return !(a == b); }

    template <typename T>
    friend constexpr type_id type_id_of() noexcept;

private:
    constexpr explicit type_id(const detail::type_tag* tag) noexcept : tag_(tag) {}
    const detail::type_tag* tag_ = nullptr;
};

/// The identity of T (without const or volatile).
template <typename T>
constexpr type_id type_id_of() noexcept {
    return type_id(&detail::type_tag_of<std::remove_cv_t<T>>);
}

}  // namespace canopy
