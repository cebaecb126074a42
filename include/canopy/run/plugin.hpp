#pragma once
/// A node plugin: a shared library that registers a program's node types, so that tools
/// (`canopy validate --plugin libguards.so ...`) know them as the program does. The library
/// defines one entry point with CANOPY_PLUGIN:
///
///     #include "canopy/run/plugin.hpp"
///     #include "guard_nodes.hpp"  // void register_guard_nodes(canopy::registry&)
///
///     CANOPY_PLUGIN("guards", register_guard_nodes)
///
/// The entry point is a C function, `canopy_plugin`, that returns a canopy_plugin_entry: what
/// the library was built with, then the function that registers its types. A loader reads the
/// first and refuses the library when any part differs from its own (another Canopy version,
/// another standard library or its ABI, another layout of the types both sides share): such a
/// library would corrupt the registry rather than fill it. Build it with CMake's
/// canopy_add_plugin() (docs/cli.md, "Plugins"). See tools/canopy/plugins.cpp for the loader.

#include <cstddef>
#include <cstdint>

#include "canopy/core/param.hpp"
#include "canopy/core/version.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/registry.hpp"

/// The layout of canopy_plugin_entry: a loader reads `interface_version` first, and reads
/// the rest only when it equals its own.
#define CANOPY_PLUGIN_INTERFACE_VERSION 1

extern "C" {

/// What canopy_plugin() returns. Every field stays valid while the library is loaded.
struct canopy_plugin_entry {
    std::uint32_t interface_version;  ///< CANOPY_PLUGIN_INTERFACE_VERSION
    const char* canopy_version;       ///< CANOPY_VERSION of the headers it was built with
    /// The standard library, its ABI and the checks that change containers' layouts:
    /// canopy::detail::plugin_build().
    const char* build;
    /// The sizes and alignments of the types a plugin and its loader share:
    /// canopy::detail::plugin_layout().
    std::uint64_t layout;
    const char* name;  ///< the plugin's name, for messages
    /// Adds the plugin's node types (and keys, enums, value types) to the registry; may throw
    /// (registry_error for a name taken already).
    void (*register_types)(canopy::registry& reg);
};

/// The entry point's type; its name is "canopy_plugin".
using canopy_plugin_function = const canopy_plugin_entry* (*)();
}

namespace canopy::detail {

/// What a plugin and its loader must agree on beyond the version: the standard library,
/// its ABI, its checked containers.
constexpr const char* plugin_build() noexcept {
#if defined(_LIBCPP_VERSION)
#define CANOPY_DETAIL_STDLIB "libc++"
#elif defined(__GLIBCXX__)
#if defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define CANOPY_DETAIL_STDLIB "libstdc++ (C++11 ABI)"
#else
#define CANOPY_DETAIL_STDLIB "libstdc++ (old ABI)"
#endif
#elif defined(_MSC_VER)
#define CANOPY_DETAIL_STDLIB "MSVC's standard library"
#else
#define CANOPY_DETAIL_STDLIB "an unknown standard library"
#endif
#if defined(_GLIBCXX_DEBUG)
#define CANOPY_DETAIL_CHECKED ", debug containers"
#else
#define CANOPY_DETAIL_CHECKED ""
#endif
    return CANOPY_DETAIL_STDLIB CANOPY_DETAIL_CHECKED;
#undef CANOPY_DETAIL_STDLIB
#undef CANOPY_DETAIL_CHECKED
}

/// A hash of the sizes and alignments of the types a plugin fills or reads (the registry and
/// what it holds, the context and blackboard its nodes use): a library built against headers
/// where one of them differs gives another number.
constexpr std::uint64_t plugin_layout() noexcept {
    const std::uint64_t sizes[] = {
        sizeof(registry),     alignof(registry),  sizeof(node_type),
        sizeof(param_spec),   sizeof(param),      sizeof(param_list),
        sizeof(param_value),  sizeof(value_type), sizeof(blackboard),
        sizeof(context),      sizeof(node),       sizeof(blackboard_key),
        sizeof(node_creator), sizeof(void*),      alignof(std::max_align_t),
    };
    std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a
    for (const std::uint64_t size : sizes) {
        hash ^= size;
        hash *= 1099511628211ULL;
    }
    return hash;
}

}  // namespace canopy::detail

#if defined(_WIN32)
#define CANOPY_PLUGIN_EXPORT __declspec(dllexport)
#else
#define CANOPY_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/// Defines the plugin's entry point: `name` (a string literal) for messages, and
/// `register_function`, a `void(canopy::registry&)` that adds the program's node types, the
/// same function the program itself calls.
#define CANOPY_PLUGIN(name, register_function)                                                   \
    extern "C" CANOPY_PLUGIN_EXPORT const canopy_plugin_entry* canopy_plugin() {                 \
        static const canopy_plugin_entry entry{                                                  \
            CANOPY_PLUGIN_INTERFACE_VERSION,   CANOPY_VERSION, ::canopy::detail::plugin_build(), \
            ::canopy::detail::plugin_layout(), name,           register_function};               \
        return &entry;                                                                           \
    }
