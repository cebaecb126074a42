// One tree of BehaviorTree.CPP node classes, written against BehaviorTree.CPP 4's API only:
// built against canopy::btcpp (canopy_bench_btcpp_api) and, by scripts/btcpp_api_bench.sh,
// against BehaviorTree.CPP itself, so that one run gives both. Built in Canopy, it times the
// same tree of native Canopy nodes beside them (bench/README.md, "BehaviorTree.CPP's API").
//
// Per tree: a tick (tickExactlyOnce), making it (createTreeFromText: read, build, make the
// node objects), and the heap it holds once made (bytes/tree, counted by this program's
// operator new over 200 trees alive at once).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"

#ifdef CANOPY_NATIVE_BESIDE
#include "canopy/load/load.hpp"
#include "canopy/nodes/builtin_nodes.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/registry.hpp"
#endif

// ---- live heap bytes, for bytes/tree ----

namespace {
std::atomic<long long> live_bytes{0};
}  // namespace

// GCC sees the free() below inlined where the pointer came from operator new: this file's own
// operator new, which is malloc's.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
    void* p = std::malloc(size == 0 ? 1 : size);
    if (p == nullptr) throw std::bad_alloc();
    live_bytes.fetch_add(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
    return p;
}
void operator delete(void* p) noexcept {
    if (p == nullptr) return;
    live_bytes.fetch_sub(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
    std::free(p);
}
void operator delete(void* p, std::size_t /*size*/) noexcept {
    operator delete(p);
}
void* operator new(std::size_t size, std::align_val_t align) {
    void* p = std::aligned_alloc(
        static_cast<std::size_t>(align),
        (size + static_cast<std::size_t>(align) - 1) & ~(static_cast<std::size_t>(align) - 1));
    if (p == nullptr) throw std::bad_alloc();
    live_bytes.fetch_add(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
    return p;
}
void operator delete(void* p, std::align_val_t /*align*/) noexcept {
    operator delete(p);
}
void operator delete(void* p, std::size_t /*size*/, std::align_val_t /*align*/) noexcept {
    operator delete(p);
}

namespace {

// A condition and an action with ports, as a project's node classes are written.
class IsReady : public BT::ConditionNode {
public:
    IsReady(const std::string& name, const BT::NodeConfig& config)
        : BT::ConditionNode(name, config) {}
    static BT::PortsList providedPorts() { return {BT::InputPort<int>("value")}; }
    BT::NodeStatus tick() override {
        const auto value = getInput<int>("value");
        return value && *value >= 0 ? BT::NodeStatus::SUCCESS : BT::NodeStatus::FAILURE;
    }
};

class Step : public BT::SyncActionNode {
public:
    Step(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() {
        return {BT::InputPort<int>("in"), BT::OutputPort<int>("out")};
    }
    BT::NodeStatus tick() override {
        const int in = getInput<int>("in").value();
        setOutput("out", (in + 1) % 1000);
        return BT::NodeStatus::SUCCESS;
    }
};

// 51 nodes: a Sequence of ten Sequences of a condition, two actions and AlwaysSuccess.
std::string tree_xml() {
    std::string xml = R"(<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>)";
    for (int i = 0; i < 10; ++i) {
        xml += R"(<Sequence><IsReady value="{v}"/><Step in="{v}" out="{v}"/>)"
               R"(<Step in="{v}" out="{v}"/><AlwaysSuccess/></Sequence>)";
    }
    xml += "</Sequence></BehaviorTree></root>";
    return xml;
}

void register_nodes(BT::BehaviorTreeFactory& factory) {
    factory.registerNodeType<IsReady>("IsReady");
    factory.registerNodeType<Step>("Step");
}

BT::Tree made_tree(BT::BehaviorTreeFactory& factory, const std::string& xml) {
    auto board = BT::Blackboard::create();
    board->set("v", 0);
    return factory.createTreeFromText(xml, board);
}

void BM_api_tick(benchmark::State& state) {
    BT::BehaviorTreeFactory factory;
    register_nodes(factory);
    const std::string xml = tree_xml();
    BT::Tree tree = made_tree(factory, xml);
    if (tree.tickExactlyOnce() != BT::NodeStatus::SUCCESS) {
        state.SkipWithError("the tree does not succeed");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(tree.tickExactlyOnce());
    state.counters["nodes/s"] = benchmark::Counter(51.0 * static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}
BENCHMARK(BM_api_tick);

void BM_api_create(benchmark::State& state) {
    BT::BehaviorTreeFactory factory;
    register_nodes(factory);
    const std::string xml = tree_xml();
    for (auto _ : state) {
        BT::Tree tree = made_tree(factory, xml);
        benchmark::DoNotOptimize(tree.rootNode());
    }
}
BENCHMARK(BM_api_create);

// The same with a new factory each time: registering the nodes, then reading the XML afresh.
void BM_api_create_fresh(benchmark::State& state) {
    const std::string xml = tree_xml();
    for (auto _ : state) {
        BT::BehaviorTreeFactory factory;
        register_nodes(factory);
        BT::Tree tree = made_tree(factory, xml);
        benchmark::DoNotOptimize(tree.rootNode());
    }
}
BENCHMARK(BM_api_create_fresh);

void BM_api_memory(benchmark::State& state) {
    BT::BehaviorTreeFactory factory;
    register_nodes(factory);
    const std::string xml = tree_xml();
    constexpr int count = 200;
    double per_tree = 0;
    const BT::Tree first = made_tree(factory, xml);  // what the factory keeps is not counted
    for (auto _ : state) {
        const long long before = live_bytes.load();
        std::vector<BT::Tree> trees;
        trees.reserve(count);
        const long long reserved = live_bytes.load() - before;
        for (int i = 0; i < count; ++i) trees.push_back(made_tree(factory, xml));
        per_tree = static_cast<double>(live_bytes.load() - before - reserved) / count;
    }
    state.counters["bytes/tree"] = per_tree;
}
BENCHMARK(BM_api_memory)->Iterations(3);

#ifdef CANOPY_NATIVE_BESIDE
// The same tree of native Canopy nodes: ports declared once, read and written through the
// agent's blackboard slots, no object per agent.
class native_is_ready final : public canopy::node {
public:
    explicit native_is_ready(const canopy::param_list& params) : value_(params, "value") {}
    static std::vector<canopy::param_spec> parameters() {
        return {canopy::param_spec::required("value", canopy::param_type::integer)};
    }
    canopy::status tick(canopy::context& ctx) const override {
        return value_.get(ctx) >= 0 ? canopy::status::success : canopy::status::failure;
    }

private:
    canopy::input<std::int64_t> value_;
};

class native_step final : public canopy::node {
public:
    explicit native_step(const canopy::param_list& params)
        : in_(params, "in"), out_(params, "out") {}
    static std::vector<canopy::param_spec> parameters() {
        return {canopy::param_spec::required("in", canopy::param_type::integer),
                canopy::param_spec::output_port("out", canopy::param_type::integer)};
    }
    canopy::status tick(canopy::context& ctx) const override {
        out_.set(ctx, (in_.get(ctx) + 1) % 1000);
        return canopy::status::success;
    }

private:
    canopy::input<std::int64_t> in_;
    canopy::output<std::int64_t> out_;
};

canopy::registry native_registry() {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    reg.add<native_is_ready>("IsReady");
    reg.add<native_step>("Step");
    return reg;
}

std::shared_ptr<const canopy::tree> native_tree(const canopy::registry& reg,
                                                const std::string& xml) {
    canopy::load_result loaded =
        canopy::try_load_text(xml, canopy::file_format::btcpp_xml, reg, "bench.xml");
    if (!loaded) throw std::runtime_error("the native tree does not load");
    return loaded.tree;
}

void BM_native_tick(benchmark::State& state) {
    const canopy::registry reg = native_registry();
    canopy::agent agent(native_tree(reg, tree_xml()));
    agent.blackboard().set("v", std::int64_t{0});
    if (agent.tick(0) != canopy::status::success) {
        state.SkipWithError("the tree does not succeed");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(agent.tick(0));
    state.counters["nodes/s"] = benchmark::Counter(51.0 * static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}
BENCHMARK(BM_native_tick);

// Making a tree and its agent, as createTreeFromText makes both.
void BM_native_create(benchmark::State& state) {
    const canopy::registry reg = native_registry();
    const std::string xml = tree_xml();
    for (auto _ : state) {
        canopy::agent agent(native_tree(reg, xml));
        benchmark::DoNotOptimize(agent.status_bytes());
    }
}
BENCHMARK(BM_native_create);

// An agent more of one shared tree: what each further instance costs.
void BM_native_memory(benchmark::State& state) {
    const canopy::registry reg = native_registry();
    const auto tree = native_tree(reg, tree_xml());
    constexpr int count = 200;
    double per_agent = 0;
    for (auto _ : state) {
        const long long before = live_bytes.load();
        std::vector<canopy::agent> agents;
        agents.reserve(count);
        const long long reserved = live_bytes.load() - before;
        for (int i = 0; i < count; ++i) agents.emplace_back(tree);
        per_agent = static_cast<double>(live_bytes.load() - before - reserved) / count;
    }
    state.counters["bytes/tree"] = per_agent;
}
BENCHMARK(BM_native_memory)->Iterations(3);
#endif

}  // namespace

BENCHMARK_MAIN();
