// Conversion to every format, read back: fuzz::check_convert (fuzz/checks.hpp).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "checks.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    canopy::fuzz::abort_on(canopy::fuzz::check_convert(text, canopy::fuzz::harness_format()));
    return 0;
}
