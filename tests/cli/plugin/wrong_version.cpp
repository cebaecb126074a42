// A plugin built against another Canopy: the loader must refuse it before calling it.
#include "canopy/run/plugin.hpp"

namespace {
void never_called(canopy::registry&) {
    throw canopy::error(canopy::error_code::load, "a plugin of another version was called");
}
}  // namespace

extern "C" CANOPY_PLUGIN_EXPORT const canopy_plugin_entry* canopy_plugin() {
    static const canopy_plugin_entry entry{
        CANOPY_PLUGIN_INTERFACE_VERSION, "0.0.1",         canopy::detail::plugin_build(),
        canopy::detail::plugin_layout(), "wrong version", never_called};
    return &entry;
}
