// Load-then-tick, leaves driven by the input's bytes: fuzz::check_tick (fuzz/checks.hpp).

#include <cstddef>
#include <cstdint>

#include "checks.hpp"
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    canopy::fuzz::abort_on(canopy::fuzz::check_tick(data, size, canopy::fuzz::harness_format()));
    return 0;
}
