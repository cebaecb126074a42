// Agents that sleep (bench/README.md, "Agents that sleep"): 1M agents of one tree ticked frame
// by frame in a canopy::world, where an agent that waits costs nothing until its wait ends,
// next to the same agents ticked every frame.
//
// The tree: the runtime benchmark's 50-node tree (bench/runtime_tree.hpp) as the agent's
// thinking, then a rest of `rest` seconds (a Wait, each agent's own length), round and round,
// after a first wait of `phase` seconds that spreads the agents' cycles from the start:
//
//   Sequence
//     RunOnce { Wait {seconds: "{phase}"} }
//     ForceSuccess { <the runtime benchmark's tree> }
//     Wait {seconds: "{rest}"}
//
// The mean rest is set from the thinking's mean length so that about 1% of the agents are
// awake in a frame (the run prints both, and each benchmark the share it saw). Beside the Wait,
// the same tree whose rest does not say when it ends (RestUnsaid: Wait without
// context::running_until), whose agents all stay awake.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <canopy/canopy.hpp>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "runtime_leaves.hpp"
#include "runtime_tree.hpp"

namespace {

using canopy_bench::bench_host;

constexpr double dt = 1.0 / 60;
constexpr std::size_t population_size = 1'000'000;
constexpr double awake_share = 0.01;
constexpr std::size_t warm_up_frames = 120;

// Wait's behaviour, without saying when it ends: agents resting in it stay awake.
class rest_unsaid final : public canopy::stateful_node<std::int64_t> {
public:
    void enter(canopy::context& ctx) const override { state(ctx) = ctx.time_ns(); }
    canopy::status tick(canopy::context& ctx) const override {
        const std::int64_t end = state(ctx) + static_cast<std::int64_t>(seconds_.get(ctx) * 1e9);
        return ctx.time_ns() >= end ? canopy::status::success : canopy::status::running;
    }

private:
    canopy::input<double> seconds_{"seconds"};
};

struct setup {
    canopy::registry registry;
    std::shared_ptr<const canopy::tree> resting;  // the rest is a Wait
    std::shared_ptr<const canopy::tree> unsaid;   // the rest is a RestUnsaid
    double think_frames = 0;                      // mean frames of one run of the thinking
    double rest_seconds = 0;                      // the mean rest
};
setup* the_setup = nullptr;

std::shared_ptr<const canopy::tree> load(const std::string& json, const canopy::registry& reg) {
    canopy::load_result r = canopy::try_load_text(json, canopy::file_format::flat_json, reg);
    if (!r) {
        for (const auto& d : r.diagnostics) std::cerr << canopy::to_string(d) << '\n';
        std::exit(EXIT_FAILURE);
    }
    return r.tree;
}

std::string resting_tree(const std::string& rest_type) {
    const auto last = static_cast<std::int64_t>(5 + canopy_bench::tree_nodes);
    std::string json = "{\n  \"name\": \"rest\",\n  \"nodes\": [\n";
    json += "    {\"id\": 1, \"parentId\": 0, \"type\": \"Sequence\"},\n";
    json += "    {\"id\": 2, \"parentId\": 1, \"type\": \"RunOnce\"},\n";
    json += "    {\"id\": 3, \"parentId\": 2, \"type\": \"" + rest_type +
            "\", \"params\": {\"seconds\": \"{phase}\"}},\n";
    json += "    {\"id\": 4, \"parentId\": 1, \"type\": \"ForceSuccess\"},\n";
    json += canopy_bench::tree_writer(canopy_bench::tree_seed)
                .write_records(canopy_bench::tree_nodes, 5, 4);
    json += "    {\"id\": " + std::to_string(last) + ", \"parentId\": 1, \"type\": \"" + rest_type +
            "\", \"params\": {\"seconds\": \"{rest}\"}}\n  ]\n}\n";
    return json;
}

// The mean number of frames one run of the thinking takes: 1,000 agents of the runtime
// benchmark's tree alone, 300 frames.
double mean_think_frames(const canopy::registry& reg) {
    auto think = load(
        canopy_bench::tree_writer(canopy_bench::tree_seed).write(canopy_bench::tree_nodes), reg);
    std::vector<bench_host> hosts = canopy_bench::make_hosts(1'000);
    std::vector<canopy::agent> sample;
    for (std::size_t i = 0; i < hosts.size(); ++i) sample.emplace_back(think, &hosts[i], i);
    std::uint64_t ticks = 0;
    std::uint64_t finished = 0;
    for (int frame = 0; frame < 300; ++frame) {
        for (canopy::agent& a : sample) {
            ++ticks;
            finished += a.tick(dt) != canopy::status::running ? 1 : 0;
        }
    }
    return static_cast<double>(ticks) / static_cast<double>(finished);
}

// Each agent's own rest and first wait, the same for every population.
std::vector<canopy::agent> make_agents(const std::shared_ptr<const canopy::tree>& tree,
                                       std::vector<bench_host>& hosts) {
    std::vector<canopy::agent> made;
    made.reserve(hosts.size());
    std::uint64_t state = 0x2e57;
    auto uniform = [&] {
        return static_cast<double>(canopy_bench::splitmix(state) >> 11) * 0x1.0p-53;
    };
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        canopy::agent& a = made.emplace_back(tree, &hosts[i], i);
        const double rest = the_setup->rest_seconds * (0.5 + uniform());
        a.blackboard().set("rest", rest);
        a.blackboard().set("phase",
                           (the_setup->rest_seconds + the_setup->think_frames * dt) * uniform());
    }
    return made;
}

struct population {
    std::vector<bench_host> hosts;
    std::vector<canopy::agent> agents;  // ticked every frame, or empty
    canopy::world world;                // or the agents in a world
};

enum class kind { world_resting, world_unsaid, agents_resting, agents_unsaid };

population& cached(kind k) {
    static std::map<kind, std::unique_ptr<population>> made;
    auto& p = made[k];
    if (p) return *p;
    p = std::make_unique<population>();
    p->hosts = canopy_bench::make_hosts(population_size);
    const bool unsaid = k == kind::world_unsaid || k == kind::agents_unsaid;
    std::vector<canopy::agent> agents =
        make_agents(unsaid ? the_setup->unsaid : the_setup->resting, p->hosts);
    if (k == kind::world_resting || k == kind::world_unsaid) {
        for (canopy::agent& a : agents) p->world.add(std::move(a));
        for (std::size_t f = 0; f < warm_up_frames; ++f) p->world.tick(dt);
    } else {
        p->agents = std::move(agents);
        for (std::size_t f = 0; f < warm_up_frames; ++f) {
            for (canopy::agent& a : p->agents) a.tick(dt);
        }
    }
    return *p;
}

void set_counters(benchmark::State& state, double ticked) {
    using benchmark::Counter;
    const double frames = static_cast<double>(state.iterations());
    state.counters["ticked/frame"] = ticked / frames;
    state.counters["awake%"] = 100.0 * ticked / frames / static_cast<double>(population_size);
    state.counters["time/agent"] = Counter(static_cast<double>(population_size),
                                           Counter::kIsIterationInvariantRate | Counter::kInvert);
}

// One frame of the world: the awake agents and the sleepers whose rest ends are ticked.
void world_tick(benchmark::State& state, kind k) {
    population& p = cached(k);
    double ticked = 0;
    for (auto _ : state) {
        p.world.tick(dt);
        ticked += static_cast<double>(p.world.ticked().size());
    }
    set_counters(state, ticked);
}

// One frame of the same agents without a world: every agent ticked.
void agents_tick(benchmark::State& state, kind k) {
    population& p = cached(k);
    for (auto _ : state) {
        unsigned sum = 0;
        for (canopy::agent& a : p.agents) sum += static_cast<unsigned>(a.tick(dt));
        benchmark::DoNotOptimize(sum);
    }
    set_counters(state, static_cast<double>(state.iterations() * population_size));
}

// The world's agents and agents ticked every frame go through the same statuses, keys and
// clocks: 2,000 of each, 600 frames, checked at every frame.
bool world_follows_every_frame() {
    const std::size_t n = 2'000;
    std::vector<bench_host> world_hosts = canopy_bench::make_hosts(n);
    std::vector<bench_host> every_frame_hosts = canopy_bench::make_hosts(n);
    std::vector<canopy::agent> every_frame = make_agents(the_setup->resting, every_frame_hosts);
    canopy::world w;
    for (canopy::agent& a : make_agents(the_setup->resting, world_hosts)) w.add(std::move(a));
    const std::size_t bytes = the_setup->resting->size();
    for (int frame = 0; frame < 600; ++frame) {
        w.tick(dt);
        for (canopy::agent& a : every_frame) a.tick(dt);
        for (std::size_t i = 0; i < n; ++i) {
            const canopy::agent& a = w.at(i);
            const canopy::agent& b = every_frame[i];
            if (a.time_ns() != b.time_ns() || a.ticks() != b.ticks() ||
                !std::equal(a.status_bytes(), a.status_bytes() + bytes, b.status_bytes()) ||
                world_hosts[i].random != every_frame_hosts[i].random ||
                world_hosts[i].steps != every_frame_hosts[i].steps) {
                std::cerr << "error: at frame " << frame << ", agent " << i
                          << " of the world differs from the one ticked every frame\n";
                return false;
            }
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    setup s;
    s.registry = canopy_bench::make_registry();
    s.registry.add<rest_unsaid>("RestUnsaid");
    s.registry.add_key("rest", canopy::param_type::number);
    s.registry.add_key("phase", canopy::param_type::number);
    s.resting = load(resting_tree("Wait"), s.registry);
    s.unsaid = load(resting_tree("RestUnsaid"), s.registry);
    s.think_frames = mean_think_frames(s.registry);
    // A cycle of `think` frames awake and `rest` asleep is awake think / (think + rest) of
    // its frames.
    s.rest_seconds = s.think_frames * (1 / awake_share - 1) * dt;
    the_setup = &s;
    if (!world_follows_every_frame()) return EXIT_FAILURE;

    std::ostringstream context;
    context << s.resting->size() << " nodes; thinking " << s.think_frames
            << " frames on average, then a rest of " << s.rest_seconds
            << " s on average (each agent's own, from 0.5 to 1.5 times that), at " << 1 / dt
            << " frames a second; 2,000 agents of a world and ticked every frame compared over "
               "600 frames: the same";
    benchmark::AddCustomContext("tree", context.str());

    const std::pair<const char*, kind> runs[] = {
        {"BM_world_tick/resting/1000000", kind::world_resting},
        {"BM_world_tick/unsaid/1000000", kind::world_unsaid},
        {"BM_agents_tick/resting/1000000", kind::agents_resting},
        {"BM_agents_tick/unsaid/1000000", kind::agents_unsaid},
    };
    for (const auto& [name, k] : runs) {
        const bool in_world = k == kind::world_resting || k == kind::world_unsaid;
        benchmark::RegisterBenchmark(name, in_world ? world_tick : agents_tick, k)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
