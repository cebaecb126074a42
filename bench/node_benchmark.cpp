// What one node visit costs, node type by node type (bench/README.md, "Node costs").
//
// Each benchmark ticks 1,000 agents that share one tree, once per iteration, and reports the
// time per node visit: the iteration's time over the visits all agents made (counted by an
// observer on agent 0 over the warm-up ticks; the leaves here behave the same for every
// agent). The trees are 16 copies of the node under test, over AlwaysSuccess (or
// AlwaysFailure) leaves, below a root that ticks every child on every tick whatever they
// return, so every tick visits all 16; `leaves/*` compare a built-in leaf with leaves made
// from a lambda and from a std::function, and with a lambda that reads two ports. The figure
// is per visit of any node of the tree, the root's and the leaves' included, so a node's own
// cost shows as the difference from `Sequence`, which does least. A leaf case's params go to
// its leaves.
#include <benchmark/benchmark.h>

#include <canopy/canopy.hpp>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr std::size_t agent_count = 1000;
constexpr int warm_up_ticks = 64;
constexpr double dt = 0.01;

// The root: ticks every child on every tick, so that no result of one copy hides the others.
class tick_all final : public canopy::node {
public:
    canopy::status tick(canopy::context& ctx) const override {
        canopy::status result = canopy::status::success;
        for (canopy::tree::index child : ctx.children()) {
            if (ctx.tick(child) == canopy::status::running) result = canopy::status::running;
        }
        return result;
    }
};

canopy::registry make_registry() {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    reg.add<tick_all>("TickAll", std::nullopt, canopy::arity::composite);
    reg.add_action("LambdaSuccess", [](canopy::context&) { return canopy::status::success; });
    reg.add_action("FunctionSuccess",
                   std::function<canopy::status(canopy::context&)>(
                       [](canopy::context&) { return canopy::status::success; }));
    // A lambda taking two ports: an int (a literal or the key `count`) and a double default.
    reg.add_action(
        "LambdaPorts",
        [](canopy::context&, int n, double limit) {
            return n < limit ? canopy::status::success : canopy::status::failure;
        },
        canopy::input<int>("n"), canopy::input<double>("limit", 10.0));
    reg.add_key("count", canopy::param_type::integer);
    // a > 3 holds and b != 2 must be tested too: the script's whole expression runs.
    reg.add_key("a", canopy::param_type::integer, std::int64_t{5});
    reg.add_key("b", canopy::param_type::integer, std::int64_t{1});
    return reg;
}

const canopy::registry& the_registry() {
    static const canopy::registry reg = make_registry();
    return reg;
}

struct case_tree {
    const char* name;
    const char* type;
    const char* params;  // a JSON object, or ""
    int children;        // leaves under each copy of the node; 0: the node is the leaf
    const char* leaf = "AlwaysSuccess";
};

std::string tree_text(const case_tree& c) {
    std::string text = R"({"nodes": [{"id": 1, "type": "TickAll"})";
    int id = 2;
    for (int copy = 0; copy < 16; ++copy) {
        const int node = id++;
        const char* type = c.children == 0 ? c.leaf : c.type;
        text +=
            R"(, {"id": )" + std::to_string(node) + R"(, "parentId": 1, "type": ")" + type + "\"";
        if (*c.params != '\0') text += std::string(R"(, "params": )") + c.params;
        text += "}";
        for (int k = 0; k < c.children; ++k) {
            text += R"(, {"id": )" + std::to_string(id++) + R"(, "parentId": )" +
                    std::to_string(node) + R"(, "type": ")" + c.leaf + "\"}";
        }
    }
    return text + "]}";
}

struct visit_counter final : canopy::observer {
    void on_tick(const canopy::agent&, canopy::tree::index, canopy::status,
                 canopy::status) override {
        ++visits;
    }
    void on_halt(const canopy::agent&, canopy::tree::index) override {}
    long visits = 0;
};

void tick_tree(benchmark::State& state, const case_tree& c) {
    canopy::load_result loaded =
        canopy::try_load_text(tree_text(c), canopy::file_format::flat_json, the_registry(), c.name);
    if (!loaded) {
        state.SkipWithError(
            ("does not load: " + canopy::to_string(loaded.diagnostics.front())).c_str());
        return;
    }
    std::vector<canopy::agent> agents;
    agents.reserve(agent_count);
    for (std::size_t i = 0; i < agent_count; ++i) agents.emplace_back(loaded.tree, nullptr, i);
    visit_counter counter;
    agents.front().set_observer(&counter);
    for (int t = 0; t < warm_up_ticks; ++t) {
        for (canopy::agent& a : agents) a.tick(dt);
    }
    agents.front().set_observer(nullptr);
    const double visits_per_tick = static_cast<double>(counter.visits) / warm_up_ticks;
    for (auto _ : state) {
        for (canopy::agent& a : agents) benchmark::DoNotOptimize(a.tick(dt));
    }
    using benchmark::Counter;
    state.counters["time/visit"] = Counter(visits_per_tick * agent_count,
                                           Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.counters["visits/tick"] = visits_per_tick;
}

const std::vector<case_tree>& cases() {
    static const std::vector<case_tree> all = {
        {"leaves/builtin", "", "", 0, "AlwaysSuccess"},
        {"leaves/lambda", "", "", 0, "LambdaSuccess"},
        {"leaves/std_function", "", "", 0, "FunctionSuccess"},
        {"leaves/lambda_ports", "", R"({"n": 3})", 0, "LambdaPorts"},
        {"leaves/lambda_ports_key", "", R"({"n": "{count}"})", 0, "LambdaPorts"},
        // A script condition against the built-in condition leaf (bench/README.md).
        {"leaves/CheckBlackboard", "", R"({"key": "a", "op": ">", "value": 3})", 0,
         "CheckBlackboard"},
        {"leaves/ScriptCondition", "", R"({"code": "a > 3 && b != 2"})", 0, "ScriptCondition"},
        {"leaves/ScriptCondition_true", "", R"({"code": "true"})", 0, "ScriptCondition"},
        {"leaves/ScriptCondition_one", "", R"({"code": "a > 3"})", 0, "ScriptCondition"},
        // A pre-condition on a node against the node without (bench/README.md, "Conditions"):
        // `_skipIf` that does not hold, so the node still ticks.
        {"conditions/leaf_skipIf", "", R"({"_skipIf": "a > 100"})", 0, "AlwaysSuccess"},
        {"conditions/Sequence_skipIf", "Sequence", R"({"_skipIf": "a > 100"})", 2},
        {"conditions/leaf_onSuccess", "", R"({"_onSuccess": "b := 2"})", 0, "AlwaysSuccess"},
        {"Sequence", "Sequence", "", 2},
        {"Selector", "Selector", "", 2, "AlwaysFailure"},
        {"ReactiveSequence", "ReactiveSequence", "", 2},
        {"ReactiveSelector", "ReactiveSelector", "", 2, "AlwaysFailure"},
        {"SequenceWithMemory", "SequenceWithMemory", "", 2},
        {"Parallel", "Parallel", "", 2},
        {"ParallelAll", "ParallelAll", "", 2},
        {"RandomSelector", "RandomSelector", "", 2, "AlwaysFailure"},
        {"IfThenElse", "IfThenElse", "", 2},
        {"WhileDoElse", "WhileDoElse", "", 2},
        {"Switch2", "Switch2", R"({"variable": "count", "case_1": "1", "case_2": "2"})", 3},
        {"PipelineSequence", "PipelineSequence", "", 2},
        {"RoundRobin", "RoundRobin", "", 2},
        {"RecoveryNode", "RecoveryNode", "", 2},
        {"Not", "Not", "", 1},
        {"ForceSuccess", "ForceSuccess", "", 1},
        {"Repeat", "Repeat", R"({"count": 3})", 1},
        {"Retry", "Retry", R"({"attempts": 3})", 1, "AlwaysFailure"},
        {"RepeatUntilFailure", "RepeatUntilFailure", "", 1},
        {"Timeout", "Timeout", R"({"seconds": 1})", 1},
        {"Cooldown", "Cooldown", R"({"seconds": 0.05})", 1},
        {"Delay", "Delay", R"({"seconds": 0.02})", 1},
        {"RateController", "RateController", R"({"hz": 20})", 1},
        {"RunOnce", "RunOnce", "", 1},
        {"Precondition", "Precondition", R"({"if": "count == 0"})", 1},
        {"Limiter", "Limiter", R"({"max_loop": 1000000000})", 1},
        {"MaxTime", "MaxTime", R"({"seconds": 1})", 1},
        // The behavior3 family (docs/behavior3.md) next to Canopy's node of the same name:
        // behavior3's Repeat runs all its iterations in one tick, so it visits more per tick.
        {"behavior3/Repeat", "behavior3.Repeat", R"({"count": 3})", 1},
        {"behavior3/RetryUntilSuccess", "behavior3.RetryUntilSuccess", R"({"count": 3})", 1,
         "AlwaysFailure"},
        {"behavior3/Timeout", "behavior3.Timeout", R"({"time": 1})", 1},
        {"behavior3/Parallel", "behavior3.Parallel", "", 2},
        {"behavior3/Once", "behavior3.Once", "", 1},
        {"behavior3/AlwaysRunning", "behavior3.AlwaysRunning", "", 1},
        {"behavior3/Watchdog", "behavior3.Watchdog", "", 3},
        {"leaves/Wait", "", R"({"seconds": 0.05})", 0, "Wait"},
        {"behavior3/Wait", "", R"({"time": 0.05})", 0, "behavior3.Wait"},
    };
    return all;
}

}  // namespace

int main(int argc, char** argv) {
    for (const case_tree& c : cases()) {
        benchmark::RegisterBenchmark(c.name, [&c](benchmark::State& state) {
            tick_tree(state, c);
        })->Unit(benchmark::kMicrosecond);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
