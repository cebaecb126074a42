// Loading node plugins: dlopen, the entry point, the checks that what the library was built
// with is what this canopy was built with, then its registration.
#include "plugins.hpp"

#include <dlfcn.h>

#include <cinttypes>
#include <cstring>
#include <filesystem>
#include <set>

#include "canopy/core/error.hpp"
#include "canopy/run/plugin.hpp"

namespace canopy::cli {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
    throw error(error_code::load, "plugin '" + path + "': " + why);
}

std::string text_or(const char* text, const char* otherwise) {
    return text != nullptr ? std::string(text) : std::string(otherwise);
}

}  // namespace

void load_plugin(const std::string& path, registry& reg) {
    namespace fs = std::filesystem;
    // A name without a slash would be looked for in the library path only: one in the
    // working directory is meant.
    std::string opened = path;
    std::error_code ec;
    if (path.find('/') == std::string::npos && fs::exists(path, ec)) opened = "./" + path;
    // The same library given twice is loaded once; its types are registered already.
    static std::set<std::string> loaded;
    const fs::path canonical = fs::weakly_canonical(opened, ec);
    const std::string identity = ec ? opened : canonical.string();
    if (loaded.count(identity) != 0) return;

    // RTLD_LOCAL: the library's own symbols (its copy of Canopy's code among them) stay its
    // own. It is never closed: the registry holds its creators, and trees its nodes.
    void* library = dlopen(opened.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) refuse(path, "cannot load it: " + text_or(dlerror(), "unknown error"));
    dlerror();
    void* symbol = dlsym(library, "canopy_plugin");
    if (symbol == nullptr) {
        refuse(path,
               "it has no entry point 'canopy_plugin', so it is not a Canopy node plugin (a "
               "plugin defines one with CANOPY_PLUGIN, from canopy/run/plugin.hpp)");
    }
    canopy_plugin_function entry_point = nullptr;
    static_assert(sizeof entry_point == sizeof symbol);
    std::memcpy(&entry_point, &symbol, sizeof symbol);
    const canopy_plugin_entry* entry = entry_point();
    if (entry == nullptr) refuse(path, "its entry point 'canopy_plugin' gives no plugin");
    const std::string rebuild =
        "; rebuild it against the headers of Canopy " CANOPY_VERSION ", the version of this canopy";
    // The first field is read before any other: the others' layout depends on it.
    if (entry->interface_version != CANOPY_PLUGIN_INTERFACE_VERSION) {
        refuse(path, "it was built for version " + std::to_string(entry->interface_version) +
                         " of Canopy's plugin interface, but this canopy takes version " +
                         std::to_string(CANOPY_PLUGIN_INTERFACE_VERSION) + rebuild);
    }
    const std::string version = text_or(entry->canopy_version, "(none)");
    if (version != CANOPY_VERSION) {
        refuse(path, "it was built with Canopy " + version + ", but this canopy is Canopy " +
                         CANOPY_VERSION + rebuild);
    }
    const std::string build = text_or(entry->build, "(none)");
    if (build != detail::plugin_build()) {
        refuse(path, "it was built with " + build + ", but this canopy with " +
                         detail::plugin_build() +
                         "; rebuild it with the compiler and standard library settings of this "
                         "canopy");
    }
    if (entry->layout != detail::plugin_layout()) {
        refuse(path,
               "the Canopy types it was built with are laid out otherwise than this canopy's "
               "(headers of another Canopy build, or other compiler settings)" +
                   rebuild);
    }
    if (entry->register_types == nullptr) refuse(path, "it gives no function to register with");
    try {
        entry->register_types(reg);
    } catch (const std::exception& e) {
        refuse(path, "its node types cannot be registered: " + std::string(e.what()));
    }
    loaded.insert(identity);
}

}  // namespace canopy::cli
