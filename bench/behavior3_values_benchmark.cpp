// behavior3's arrays and objects (docs/behavior3.md, "Values: arrays and objects"): one agent
// tick of a tree that reads numbers out of json variables (Index, GetField, `obj.f`, `list[i]`)
// next to a tree of the same shape over number variables only.
#include <benchmark/benchmark.h>

#include <canopy/canopy.hpp>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

std::shared_ptr<const canopy::tree> load(const std::string& root) {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    canopy::register_behavior3_nodes(reg);
    canopy::load_result loaded = canopy::try_load_text(
        R"({"name": "t", "root": )" + root + "}", canopy::file_format::behavior3, reg, "t.json");
    if (!loaded) throw std::runtime_error("the benchmark's tree does not load");
    return loaded.tree;
}

void tick(benchmark::State& state, const std::string& root) {
    canopy::agent agent(load(root));
    for (auto _ : state) benchmark::DoNotOptimize(agent.tick(0.1));
}

// Five nodes each: two values made, two read, one expression over them.
const char* const numbers = R"({"id": 1, "name": "Sequence", "children": [
    {"id": 2, "name": "Let", "args": {"value": 3}, "output": ["n"]},
    {"id": 3, "name": "Let", "args": {"value": 30}, "output": ["hp"]},
    {"id": 4, "name": "Calculate", "args": {"value": "n + 1"}, "output": ["a"]},
    {"id": 5, "name": "Calculate", "args": {"value": "hp / 10"}, "output": ["b"]},
    {"id": 6, "name": "Check", "args": {"value": "a + n > b && hp > 2"}}]})";
const char* const arrays = R"({"id": 1, "name": "Sequence", "children": [
    {"id": 2, "name": "Let", "args": {"value": [1, 2, 3, 4]}, "output": ["list"]},
    {"id": 3, "name": "Let", "args": {"value": {"hp": 30, "pos": {"x": 2}}}, "output": ["o"]},
    {"id": 4, "name": "Index", "args": {"index": 2}, "input": ["list"], "output": ["a"]},
    {"id": 5, "name": "GetField", "args": {"field": "hp"}, "input": ["o"], "output": ["b"]},
    {"id": 6, "name": "Check", "args": {"value": "list[1] + a > b && b > 2"}}]})";

}  // namespace

BENCHMARK_CAPTURE(tick, numbers, numbers);
BENCHMARK_CAPTURE(tick, arrays_and_objects, arrays);
BENCHMARK_MAIN();
