#pragma once
// What every harness source needs: the format its executable reads (CMake builds each source
// once per format, naming the format's enumerator in CANOPY_FUZZ_FORMAT; see
// fuzz/CMakeLists.txt), and a way to report a broken promise so that libFuzzer keeps the input.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "canopy/formats/format.hpp"

#ifndef CANOPY_FUZZ_FORMAT
#error "build the harnesses through fuzz/CMakeLists.txt, which defines CANOPY_FUZZ_FORMAT"
#endif

namespace canopy::fuzz {

inline file_format harness_format() {
    return file_format::CANOPY_FUZZ_FORMAT;
}

/// Prints a broken promise, if there is one, and aborts: libFuzzer reports an abort as a crash
/// and saves the input.
inline void abort_on(const std::string& problem) {
    if (problem.empty()) return;
    std::fprintf(stderr, "%s\n", problem.c_str());
    std::abort();
}

}  // namespace canopy::fuzz
