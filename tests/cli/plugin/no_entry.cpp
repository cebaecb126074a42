// A shared library that is no Canopy plugin: it has no canopy_plugin entry point.
extern "C" __attribute__((visibility("default"))) int canopy_register_nodes() {
    return 0;
}
