#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "canopy/core/type_id.hpp"

namespace canopy {

namespace detail {

/// The type of an agent's host (canopy::type_id: compared without RTTI); default-made for
/// none.
using host_type = type_id;

template <typename Host>
constexpr host_type host_type_of() noexcept {
    return type_id_of<Host>();
}

/// The C++ name of a host type, for messages; "no host" for none.
inline std::string host_type_name(host_type type) {
    if (!type) return "no host";
    const std::string_view name = type.name();
    return name.empty() ? std::string("a host type") : std::string(name);
}

/// A host type some node of a tree needs (an action taking `Host&`, a class declaring
/// `using host_type = Host;`), with the first node type that needs it, for the message when
/// an agent is given another.
struct host_need {
    host_type type;
    std::string node_type;
};

/// Any host object, opaque: only host_ref turns it back into its type.
struct erased_host;

/// Marks a host read whose type the agent checked when it was given the host.
struct unchecked_t {};
inline constexpr unchecked_t unchecked{};

}  // namespace detail

/// The host an agent drives (the game object or robot its leaves act on) with its type, so
/// that asking for it as another type is caught: `agent(tree, &robot, seed)` makes one from
/// any `Host*`. Not owning; null by default.
class host_ref {
public:
    host_ref() noexcept = default;
    host_ref(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor): agent(t, nullptr)
    template <typename Host>
    host_ref(Host* host) noexcept  // NOLINT(google-explicit-constructor): agent(t, &robot)
        : object_(reinterpret_cast<detail::erased_host*>(host)),
          type_(host == nullptr ? detail::host_type{} : detail::host_type_of<Host>()) {
        static_assert(!std::is_void_v<Host>,
                      "an agent's host is passed as a pointer to its own type, not as void*: "
                      "nodes then ask for it as that type, and a mismatch is caught");
        static_assert(!std::is_const_v<Host>,
                      "an agent's host is changed by its nodes: pass a non-const pointer");
    }

    /// The host as a Host, or null when there is none or it is of another type.
    template <typename Host>
    Host* get() const noexcept {
        if (type_ != detail::host_type_of<Host>()) return nullptr;
        return reinterpret_cast<Host*>(object_);
    }
    /// The host as a Host, its type not compared: for the runtime, which compared it when
    /// the agent was given the host.
    template <typename Host>
    Host& get(detail::unchecked_t /*checked before*/) const noexcept {
        return *reinterpret_cast<Host*>(object_);
    }
    /// Whether it is a host of type Host (false when empty).
    template <typename Host>
    bool is() const noexcept {
        return type_ == detail::host_type_of<Host>();
    }
    detail::host_type type() const noexcept { return type_; }
    explicit operator bool() const noexcept { return object_ != nullptr; }

private:
    detail::erased_host* object_ = nullptr;
    detail::host_type type_{};
};

}  // namespace canopy
