// A plugin of a later plugin interface, whose entry has another layout past its first field:
// built, as it would be, against that version's canopy/run/plugin.hpp, here written out.
#include <cstdint>

struct canopy_plugin_entry {
    std::uint32_t interface_version;
    const char* something_else;
};

extern "C" __attribute__((visibility("default"))) const canopy_plugin_entry* canopy_plugin() {
    static const canopy_plugin_entry entry{2, nullptr};  // CANOPY_PLUGIN_INTERFACE_VERSION + 1
    return &entry;
}
