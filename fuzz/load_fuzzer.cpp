// The whole load, strict and lenient, and the writer: fuzz::check_load (fuzz/checks.hpp).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "checks.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    canopy::fuzz::abort_on(canopy::fuzz::check_load(text, canopy::fuzz::harness_format()));
    return 0;
}
