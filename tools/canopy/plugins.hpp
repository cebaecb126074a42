#pragma once
// Node plugins (canopy/run/plugin.hpp): shared libraries that register a program's node
// types, loaded by --plugin LIB before any tree is read.

#include <string>

#include "canopy/run/registry.hpp"

namespace canopy::cli {

/// Loads the plugin at `path` and registers its node types in `reg`. The library stays
/// loaded until the process ends: the registry and the trees built with it run its code.
/// @warning throws canopy::error, its message naming the library and what is wrong: it
/// cannot be opened, has no entry point, was built with another Canopy or standard library,
/// or its types cannot be registered (a name taken already).
void load_plugin(const std::string& path, registry& reg);

}  // namespace canopy::cli
