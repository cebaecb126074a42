#pragma once
/// Canopy's version, as the project's CMakeLists.txt says it (a configure step checks that the
/// two agree): what `canopy --version` prints and what a node plugin records it was built with.

#define CANOPY_VERSION_MAJOR 0
#define CANOPY_VERSION_MINOR 1
#define CANOPY_VERSION_PATCH 0
#define CANOPY_VERSION "0.1.0"
