// The scenario reader (docs/testing.md, "Scenarios"): the input is a scenario file. Promises
// checked: reading never crashes, leaks, hangs or throws; every problem is located in the file;
// a scenario it accepts names a tree, runs some ticks, and has its steps in tick order.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "canopy/testing/scenario.hpp"

namespace {

[[noreturn]] void broken(const std::string& promise) {
    std::fprintf(stderr, "scenario fuzzer: %s\n", promise.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const canopy::scenario_read_result read = canopy::read_scenario(text, "fuzz/s.json");
    for (const canopy::diagnostic& d : read.diagnostics) {
        // A substitution rules file the scenario names is another file, located there.
        if (d.code != canopy::diagnostic_code::io_error && d.where.line == 0)
            broken("an unlocated problem: " + d.message);
    }
    if (!read) return 0;
    const canopy::scenario& s = read.scenario;
    if (s.tree.empty() || s.ticks == 0) broken("accepted a scenario without a tree or ticks");
    std::uint64_t previous = 0;
    for (const canopy::scenario_step& step : s.steps) {
        if (step.tick <= previous || step.tick > s.ticks)
            broken("accepted steps out of tick order, or past the ticks it runs");
        previous = step.tick;
    }
    return 0;
}
