// Small BehaviorTree.CPP files of built-ins, loaded by Canopy and ticked by one agent: what a
// tick of scripts, of `_skipIf` preconditions and of plain leaves costs under BehaviorTree.CPP's
// rules (bench/README.md, "BehaviorTree.CPP files, ticked"). Each tree is a Sequence of nine
// leaves:
//   script_conditions  a Script writing two integers, then 8 ScriptCondition `a > 3 && b != 2`
//   skip_ifs           the same Script, then 8 AlwaysSuccess whose `_skipIf="a > 100"` is false
//   leaves             9 AlwaysSuccess
#include <benchmark/benchmark.h>

#include <canopy/load/load.hpp>
#include <canopy/nodes/builtin_nodes.hpp>
#include <canopy/run/agent.hpp>
#include <canopy/run/registry.hpp>
#include <string>

namespace {

std::string sequence_of(const std::string& leaves) {
    return R"(<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>)" + leaves +
           "</Sequence></BehaviorTree></root>";
}

std::string repeated(const std::string& leaf, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) out += leaf;
    return out;
}

const std::string init_script = R"(<Script code="a := 5; b := 1"/>)";

void tick_file(benchmark::State& state, const std::string& xml) {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    canopy::load_result loaded =
        canopy::try_load_text(xml, canopy::file_format::btcpp_xml, reg, "bench.xml");
    if (!loaded) {
        state.SkipWithError("the tree does not load");
        return;
    }
    canopy::agent agent(loaded.tree);
    if (agent.tick(0) != canopy::status::success) {
        state.SkipWithError("the tree does not succeed");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(agent.tick(0));
}

void script_conditions(benchmark::State& state) {
    tick_file(state,
              sequence_of(init_script +
                          repeated(R"(<ScriptCondition code="a > 3 &amp;&amp; b != 2"/>)", 8)));
}

void skip_ifs(benchmark::State& state) {
    tick_file(state,
              sequence_of(init_script + repeated(R"(<AlwaysSuccess _skipIf="a > 100"/>)", 8)));
}

void leaves(benchmark::State& state) {
    tick_file(state, sequence_of(repeated("<AlwaysSuccess/>", 9)));
}

}  // namespace

BENCHMARK(script_conditions);
BENCHMARK(skip_ifs);
BENCHMARK(leaves);
BENCHMARK_MAIN();
