// A plugin of a later plugin interface, whose entry has another layout past its first field.
#include <cstdint>

#include "canopy/run/plugin.hpp"

namespace {
struct later_entry {
    std::uint32_t interface_version;
    const char* something_else;
};
}  // namespace

extern "C" CANOPY_PLUGIN_EXPORT const later_entry* canopy_plugin() {
    static const later_entry entry{CANOPY_PLUGIN_INTERFACE_VERSION + 1, nullptr};
    return &entry;
}
