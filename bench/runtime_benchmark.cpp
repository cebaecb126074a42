// How fast agents tick a shared 50-node tree, next to a copy-per-agent baseline built the way
// seeds 000 and 004 build trees (every agent owns heap-allocated node objects), in one run.
// Also: agent creation time and bytes, allocations and clock reads while ticking, and 1M agents
// on 1 and 2 threads with canopy::parallel_ticker. See "Runtime" in bench/README.md.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <malloc.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <canopy/canopy.hpp>
#include <canopy/run/parallel_ticker.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "copy_per_agent.hpp"
#include "runtime_leaves.hpp"
#include "runtime_tree.hpp"

// ---- probes: every operator new, and every clock read, while a window is open ------------

namespace probe {

std::atomic<bool> counting{false};
std::atomic<std::uint64_t> allocations{0};
std::atomic<std::uint64_t> allocated_bytes{0};
std::atomic<std::uint64_t> clock_reads{0};

void note_allocation(std::size_t size) noexcept {
    if (counting.load(std::memory_order_relaxed)) {
        allocations.fetch_add(1, std::memory_order_relaxed);
        allocated_bytes.fetch_add(size, std::memory_order_relaxed);
    }
}

struct window_result {
    std::uint64_t allocations = 0;
    std::uint64_t bytes = 0;
    std::uint64_t clock_reads = 0;
};

/// Runs f with the probes counting, and returns what they saw.
template <typename F>
window_result count(F&& f) {
    allocations = 0;
    allocated_bytes = 0;
    clock_reads = 0;
    counting = true;
    f();
    counting = false;
    return {allocations.load(), allocated_bytes.load(), clock_reads.load()};
}

void* allocate(std::size_t size) {
    note_allocation(size);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}

void* allocate_aligned(std::size_t size, std::align_val_t align) {
    note_allocation(size);
    void* p = nullptr;
    const std::size_t a = std::max(static_cast<std::size_t>(align), sizeof(void*));
    if (posix_memalign(&p, a, size == 0 ? 1 : size) == 0) return p;
    throw std::bad_alloc();
}

}  // namespace probe

// Counting replacements of the global allocation functions; everything else is malloc/free,
// as libstdc++'s own versions do, so allocation costs what it costs without the probe.
void* operator new(std::size_t size) {
    return probe::allocate(size);
}
void* operator new[](std::size_t size) {
    return probe::allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
    probe::note_allocation(size);
    return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
    probe::note_allocation(size);
    return std::malloc(size == 0 ? 1 : size);
}
void* operator new(std::size_t size, std::align_val_t align) {
    return probe::allocate_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
    return probe::allocate_aligned(size, align);
}
void* operator new(std::size_t size, std::align_val_t align,
                   const std::nothrow_t& /*tag*/) noexcept {
    try {
        return probe::allocate_aligned(size, align);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, std::align_val_t align,
                     const std::nothrow_t& /*tag*/) noexcept {
    try {
        return probe::allocate_aligned(size, align);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t /*size*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t /*size*/) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t& /*tag*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t& /*tag*/) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t /*align*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t /*align*/) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t /*size*/, std::align_val_t /*align*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t /*size*/, std::align_val_t /*align*/) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t /*align*/, const std::nothrow_t& /*tag*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t /*align*/,
                       const std::nothrow_t& /*tag*/) noexcept {
    std::free(p);
}

// The clock probe: this program's definitions of the C library's clock functions come first
// in symbol lookup, for the static Canopy library as for libstdc++'s std::chrono; each counts
// and forwards to the C library's own. main() checks that a steady_clock::now() is seen.
extern "C" {
int clock_gettime(clockid_t id, struct timespec* ts) noexcept {
    using function = int (*)(clockid_t, struct timespec*);
    static const auto real = reinterpret_cast<function>(dlsym(RTLD_NEXT, "clock_gettime"));
    if (probe::counting.load(std::memory_order_relaxed)) probe::clock_reads.fetch_add(1);
    return real(id, ts);
}
int gettimeofday(struct timeval* tv, void* tz) noexcept {
    using function = int (*)(struct timeval*, void*);
    static const auto real = reinterpret_cast<function>(dlsym(RTLD_NEXT, "gettimeofday"));
    if (probe::counting.load(std::memory_order_relaxed)) probe::clock_reads.fetch_add(1);
    return real(tv, tz);
}
time_t time(time_t* out) noexcept {
    using function = time_t (*)(time_t*);
    static const auto real = reinterpret_cast<function>(dlsym(RTLD_NEXT, "time"));
    if (probe::counting.load(std::memory_order_relaxed)) probe::clock_reads.fetch_add(1);
    return real(out);
}
}

namespace {

using canopy_bench::bench_host;
using canopy_bench::make_hosts;
using canopy_bench::make_registry;
using canopy_bench::tree_nodes;
using canopy_bench::tree_seed;
using canopy_bench::tree_writer;
namespace copy_per_agent = canopy_bench::copy_per_agent;

constexpr double dt = 1.0 / 60;
constexpr std::size_t warm_up_ticks = 10;  // every population is ticked this often when made
constexpr std::size_t visit_sample_agents = 1'000;
constexpr std::size_t visit_sample_ticks = 200;

// ---- the copy-per-agent baseline: bench/copy_per_agent.hpp ---------------------------------

// ---- shared state: the tree, and populations made once and kept for every repetition ----

struct setup {
    std::string json;
    canopy::registry registry;
    std::shared_ptr<const canopy::tree> tree;
    std::unique_ptr<copy_per_agent::plan> plan;
    double visits_per_tick = 0;  // mean node visits per agent tick, counted once
};
setup* the_setup = nullptr;

struct canopy_population {
    std::vector<bench_host> hosts;
    std::vector<canopy::agent> agents;
};

struct baseline_population {
    std::vector<bench_host> hosts;
    std::vector<copy_per_agent::BehaviorTree> agents;
};

std::unique_ptr<canopy_population> make_canopy(std::size_t count) {
    auto p = std::make_unique<canopy_population>();
    p->hosts = make_hosts(count);
    p->agents.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        p->agents.emplace_back(the_setup->tree, &p->hosts[i], i);
    }
    return p;
}

std::unique_ptr<baseline_population> make_baseline(std::size_t count) {
    auto p = std::make_unique<baseline_population>();
    p->hosts = make_hosts(count);
    p->agents.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        p->agents.push_back(the_setup->plan->make(&p->hosts[i]));
    return p;
}

unsigned tick_all(std::vector<canopy::agent>& agents, std::size_t begin, std::size_t end) {
    unsigned sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += static_cast<unsigned>(agents[i].tick(dt));
    return sum;
}

unsigned tick_all(std::vector<copy_per_agent::BehaviorTree>& agents, std::size_t begin,
                  std::size_t end) {
    unsigned sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += static_cast<unsigned>(agents[i].Tick());
    return sum;
}

template <typename Population>
Population& cached(std::size_t count, std::unique_ptr<Population> (*make)(std::size_t)) {
    static std::map<std::size_t, std::unique_ptr<Population>> populations;
    auto& p = populations[count];
    if (!p) {
        p = make(count);
        for (std::size_t t = 0; t < warm_up_ticks; ++t) tick_all(p->agents, 0, count);
    }
    return *p;
}

// ---- benchmarks ---------------------------------------------------------------------------

void set_tick_counters(benchmark::State& state, std::size_t agents) {
    const auto n = static_cast<double>(agents);
    const double visits = n * the_setup->visits_per_tick;
    using benchmark::Counter;
    // Seconds per unit; the console shows them with an SI prefix ("3.1n" is 3.1 ns).
    state.counters["time/agent"] =
        Counter(n, Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.counters["time/visit"] =
        Counter(visits, Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.counters["agents/s"] = Counter(n, Counter::kIsIterationInvariantRate);
}

// (a) Every agent of a population of N, sharing one tree, ticked once per iteration.
void canopy_tick(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    canopy_population& p = cached<canopy_population>(n, make_canopy);
    for (auto _ : state) benchmark::DoNotOptimize(tick_all(p.agents, 0, n));
    set_tick_counters(state, n);
}

// (b) The same with every agent owning its own copy of the tree.
void baseline_tick(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    baseline_population& p = cached<baseline_population>(n, make_baseline);
    for (auto _ : state) benchmark::DoNotOptimize(tick_all(p.agents, 0, n));
    set_tick_counters(state, n);
}

/// Allocations and bytes per agent while making `count` agents, and the heap's own growth
/// (chunk headers and rounding included: mallinfo2's in-use bytes), per agent.
struct creation_cost {
    double allocations = 0;
    double bytes = 0;
    double heap_bytes = 0;
};

template <typename Make>
creation_cost measure_creation(std::size_t count, Make make) {
    creation_cost cost;
    auto heap = [] {
        const struct mallinfo2 info = mallinfo2();
        return info.uordblks + info.hblkhd;  // small chunks in use, and mmapped ones
    };
    const std::size_t heap_before = heap();
    probe::window_result seen;
    {
        decltype(make()) made;
        seen = probe::count([&] { made = make(); });
        cost.heap_bytes = static_cast<double>(heap() - heap_before);
    }
    const auto n = static_cast<double>(count);
    cost.allocations = static_cast<double>(seen.allocations) / n;
    cost.bytes = static_cast<double>(seen.bytes) / n;
    cost.heap_bytes /= n;
    return cost;
}

void set_creation_counters(benchmark::State& state, std::size_t n, const creation_cost& cost) {
    using benchmark::Counter;
    state.counters["time/agent"] =
        Counter(static_cast<double>(n), Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.counters["allocs/agent"] = cost.allocations;
    state.counters["bytes/agent"] = cost.bytes;
    state.counters["heap/agent"] = cost.heap_bytes;
}

// (c) Making N agents (hosts made beforehand); freeing them is not timed.
void canopy_create(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<bench_host> hosts = make_hosts(n);
    auto make = [&] {
        std::vector<canopy::agent> agents;
        agents.reserve(n);
        for (std::size_t i = 0; i < n; ++i) agents.emplace_back(the_setup->tree, &hosts[i], i);
        return agents;
    };
    for (auto _ : state) {
        auto agents = make();
        benchmark::DoNotOptimize(agents.data());
        state.PauseTiming();
        { auto freed = std::move(agents); }
        state.ResumeTiming();
    }
    // The agents' vector counts as one allocation for all; per agent it is sizeof(agent).
    set_creation_counters(state, n, measure_creation(n, make));
}

void baseline_create(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<bench_host> hosts = make_hosts(n);
    auto make = [&] {
        std::vector<copy_per_agent::BehaviorTree> agents;
        agents.reserve(n);
        for (std::size_t i = 0; i < n; ++i) agents.push_back(the_setup->plan->make(&hosts[i]));
        return agents;
    };
    for (auto _ : state) {
        auto agents = make();
        benchmark::DoNotOptimize(agents.data());
        state.PauseTiming();
        { auto freed = std::move(agents); }
        state.ResumeTiming();
    }
    set_creation_counters(state, n, measure_creation(n, make));
}

// (d) 1M agents ticked once per iteration by canopy::parallel_ticker on T threads (the calling
// one included; the ticker's workers live as long as it does). Besides wall time, the
// process's CPU time is summed (idle workers wait on a condition variable and use none):
// "cpu/agent" is CPU time per agent tick (the same for 1 and 2 threads when the threads do
// not slow each other), "cores" the CPU time obtained per second of wall time (2.0 when both
// cores are ours for the whole tick).
double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void canopy_tick_threads(benchmark::State& state) {
    const std::size_t n = 1'000'000;
    canopy_population& p = cached<canopy_population>(n, make_canopy);
    canopy::parallel_ticker ticker(static_cast<unsigned>(state.range(0)));
    double cpu_total = 0;
    double wall_total = 0;
    for (auto _ : state) {
        const auto wall_start = std::chrono::steady_clock::now();
        const double cpu_start = process_cpu_seconds();
        ticker.tick(p.agents, dt);
        cpu_total += process_cpu_seconds() - cpu_start;
        wall_total +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    }
    set_tick_counters(state, n);
    const double ticks = static_cast<double>(state.iterations()) * static_cast<double>(n);
    state.counters["cpu/agent"] = cpu_total / ticks;
    state.counters["cores"] = cpu_total / wall_total;
}

// (e) Snapshots of a population (docs/snapshots.md): 1M agents of the tree saved into one
// snapshot, and restored from it, per iteration; beside them the floor, each agent's state
// block copied into one buffer (what streaming their bytes through memory once costs).
// "bytes/agent" is the snapshot's size per agent; "state/agent" the state it holds (the
// block and the clock, tick count and generator).
constexpr std::size_t snapshot_agents = 1'000'000;

void set_snapshot_counters(benchmark::State& state, double bytes_per_agent) {
    using benchmark::Counter;
    state.counters["time/agent"] = Counter(static_cast<double>(snapshot_agents),
                                           Counter::kIsIterationInvariantRate | Counter::kInvert);
    state.counters["bytes/agent"] = bytes_per_agent;
    state.counters["state/agent"] =
        static_cast<double>(the_setup->tree->state_bytes() + 3 * sizeof(std::uint64_t));
}

void canopy_save_agents(benchmark::State& state) {
    canopy_population& p = cached<canopy_population>(snapshot_agents, make_canopy);
    std::string bytes;  // reused, as a program saving every few seconds would
    for (auto _ : state) {
        canopy::save_agents(p.agents.data(), p.agents.size(), bytes);
        benchmark::DoNotOptimize(bytes.data());
    }
    set_snapshot_counters(state, static_cast<double>(bytes.size()) / snapshot_agents);
}

void canopy_restore_agents(benchmark::State& state) {
    canopy_population& p = cached<canopy_population>(snapshot_agents, make_canopy);
    const std::string bytes = canopy::save_agents(p.agents.data(), p.agents.size());
    for (auto _ : state) {
        canopy::restore_agents(p.agents.data(), p.agents.size(), bytes);
        benchmark::ClobberMemory();
    }
    set_snapshot_counters(state, static_cast<double>(bytes.size()) / snapshot_agents);
}

void stream_state_blocks(benchmark::State& state) {
    canopy_population& p = cached<canopy_population>(snapshot_agents, make_canopy);
    const std::size_t block = the_setup->tree->state_bytes();
    std::string buffer(block * snapshot_agents, '\0');
    for (auto _ : state) {
        char* out = buffer.data();
        for (const canopy::agent& a : p.agents) {
            std::memcpy(out, a.status_bytes(), block);
            out += block;
        }
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    set_snapshot_counters(state, static_cast<double>(block));
}

// ---- checks made once, outside timing -----------------------------------------------------

/// Counts every node visit (every agent::tick_node) and which nodes were ever visited.
class visit_observer final : public canopy::observer {
public:
    explicit visit_observer(std::size_t nodes) : visited(nodes, 0) {}
    void on_tick(const canopy::agent& /*a*/, canopy::tree::index node, canopy::status /*before*/,
                 canopy::status /*result*/) override {
        ++visits;
        ++visited[node];
    }
    void on_halt(const canopy::agent& /*a*/, canopy::tree::index /*node*/) override {}
    std::uint64_t visits = 0;
    std::vector<std::uint64_t> visited;
};

struct sample {
    std::uint64_t visits = 0;
    std::uint64_t min_visits = ~0ULL;
    std::uint64_t max_visits = 0;
    std::uint64_t root[4] = {};     // root results by status
    std::uint64_t host_hash = 0;    // the hosts' state after the sample: leaf calls agree
    std::size_t nodes_visited = 0;  // nodes visited at least once
};

std::uint64_t hash_hosts(const std::vector<bench_host>& hosts) {
    std::uint64_t h = 0;
    for (const bench_host& x : hosts) h = (h ^ x.random ^ (x.steps << 32)) * 0x100000001b3ULL;
    return h;
}

sample sample_canopy() {
    auto p = make_canopy(visit_sample_agents);
    for (std::size_t t = 0; t < warm_up_ticks; ++t) tick_all(p->agents, 0, p->agents.size());
    visit_observer counter(the_setup->tree->size());
    sample s;
    for (std::size_t t = 0; t < visit_sample_ticks; ++t) {
        for (canopy::agent& a : p->agents) {
            const std::uint64_t before = counter.visits;
            a.set_observer(&counter);
            ++s.root[static_cast<int>(a.tick(dt))];
            a.set_observer(nullptr);
            s.min_visits = std::min(s.min_visits, counter.visits - before);
            s.max_visits = std::max(s.max_visits, counter.visits - before);
        }
    }
    s.visits = counter.visits;
    s.host_hash = hash_hosts(p->hosts);
    for (std::uint64_t v : counter.visited) s.nodes_visited += v != 0 ? 1 : 0;
    return s;
}

sample sample_baseline() {
    auto p = make_baseline(visit_sample_agents);
    for (std::size_t t = 0; t < warm_up_ticks; ++t) tick_all(p->agents, 0, p->agents.size());
    std::uint64_t visits = 0;
    sample s;
    for (std::size_t t = 0; t < visit_sample_ticks; ++t) {
        for (copy_per_agent::BehaviorTree& a : p->agents) {
            const std::uint64_t before = visits;
            copy_per_agent::visit_counter = &visits;
            ++s.root[static_cast<int>(a.Tick())];
            copy_per_agent::visit_counter = nullptr;
            s.min_visits = std::min(s.min_visits, visits - before);
            s.max_visits = std::max(s.max_visits, visits - before);
        }
    }
    s.visits = visits;
    s.host_hash = hash_hosts(p->hosts);
    return s;
}

/// Allocations and clock reads during 100 ticks of 1,000 agents (made and warmed first).
template <typename Make>
probe::window_result while_ticking(Make make) {
    auto p = make(1'000);
    tick_all(p->agents, 0, p->agents.size());
    return probe::count([&] {
        for (int t = 0; t < 100; ++t) tick_all(p->agents, 0, p->agents.size());
    });
}

std::string shape_summary(const canopy::tree& t) {
    std::map<std::string, int> types;
    std::size_t max_depth = 0;
    double depth_sum = 0;
    std::size_t leaves = 0;
    for (canopy::tree::index i = 0; i < t.size(); ++i) {
        ++types[std::string(t.type_name(i))];
        max_depth = std::max(max_depth, t.depth(i));
        depth_sum += static_cast<double>(t.depth(i));
        leaves += t.child_count(i) == 0 ? 1 : 0;
    }
    std::ostringstream out;
    out << t.size() << " nodes, " << leaves << " leaves, depth max " << max_depth << " mean "
        << depth_sum / static_cast<double>(t.size()) << ":";
    for (const auto& [name, n] : types) out << ' ' << name << ' ' << n;
    return out.str();
}

}  // namespace

int main(int argc, char** argv) {
    bool print_tree = false;
    bool find_seed = false;
    std::uint64_t seed = tree_seed;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--print-tree") print_tree = true;
        if (arg == "--find-seed") find_seed = true;
        if (arg.substr(0, 12) == "--tree-seed=") seed = std::stoull(std::string(arg.substr(12)));
    }
    benchmark::Initialize(&argc, argv);
    for (int i = 1; i < argc; ++i) {  // ours, not Google Benchmark's
        const std::string_view arg = argv[i];
        if (arg == "--print-tree" || arg == "--find-seed" || arg.substr(0, 12) == "--tree-seed=") {
            std::copy(argv + i + 1, argv + argc, argv + i);
            --argc;
            --i;
        }
    }
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    setup s{tree_writer(seed).write(tree_nodes), make_registry(), nullptr, nullptr, 0};
    the_setup = &s;
    canopy::load_result loaded =
        canopy::try_load_text(s.json, canopy::file_format::flat_json, s.registry, "runtime.json");
    if (!loaded) {
        for (const auto& d : loaded.diagnostics) std::cerr << canopy::to_string(d) << '\n';
        return EXIT_FAILURE;
    }
    s.tree = loaded.tree;
    s.plan = std::make_unique<copy_per_agent::plan>(*s.tree);
    if (find_seed) {
        for (std::uint64_t candidate = 1;; ++candidate) {
            const std::string json = tree_writer(candidate).write(tree_nodes);
            s.tree = canopy::try_load_text(json, canopy::file_format::flat_json, s.registry).tree;
            const sample c = sample_canopy();
            const std::uint64_t least = visit_sample_agents * visit_sample_ticks / 100;
            std::cout << "seed " << candidate << ": " << c.nodes_visited << " nodes visited, root "
                      << c.root[1] << "/" << c.root[2] << "/" << c.root[3] << "\n";
            if (c.nodes_visited == tree_nodes && c.root[1] >= least && c.root[2] >= least &&
                c.root[3] >= least) {
                return EXIT_SUCCESS;
            }
        }
    }
    if (print_tree) {
        std::cout << s.json << '\n' << canopy::to_text(*s.tree) << shape_summary(*s.tree) << '\n';
        return EXIT_SUCCESS;
    }

    // The baseline must visit the same nodes and call the same leaves as Canopy, tick by tick.
    const sample c = sample_canopy();
    const sample b = sample_baseline();
    const auto ticks = static_cast<double>(visit_sample_agents * visit_sample_ticks);
    s.visits_per_tick = static_cast<double>(c.visits) / ticks;
    if (b.visits != c.visits || b.host_hash != c.host_hash ||
        !std::equal(std::begin(c.root), std::end(c.root), std::begin(b.root))) {
        std::cerr << "error: the baseline does not follow Canopy: " << b.visits << " visits, not "
                  << c.visits << (b.host_hash != c.host_hash ? ", other leaf calls" : "") << '\n';
        return EXIT_FAILURE;
    }

    // Allocation and clock probes; first show that the clock probe sees a clock read.
    const probe::window_result clock_check =
        probe::count([] { benchmark::DoNotOptimize(std::chrono::steady_clock::now()); });
    const probe::window_result canopy_ticking = while_ticking(make_canopy);
    const probe::window_result baseline_ticking = while_ticking(make_baseline);

    std::ostringstream visits;
    visits << s.visits_per_tick << " mean (min " << c.min_visits << ", max " << c.max_visits
           << "; counted by an observer over " << visit_sample_ticks << " ticks of "
           << visit_sample_agents << " agents after " << warm_up_ticks
           << "); root results: " << c.root[1] << " success, " << c.root[2] << " failure, "
           << c.root[3] << " running; nodes ever visited " << c.nodes_visited << "/"
           << s.tree->size() << "; the baseline's visits and leaf calls are identical";
    std::ostringstream probes;
    probes << "canopy " << canopy_ticking.allocations << " allocations, "
           << canopy_ticking.clock_reads << " clock reads; baseline "
           << baseline_ticking.allocations << " allocations, " << baseline_ticking.clock_reads
           << " clock reads (clock probe self-test: " << clock_check.clock_reads
           << " read for one steady_clock::now())";
    std::ostringstream sizes;
    sizes << "sizeof(canopy::agent) " << sizeof(canopy::agent) << " + state block "
          << s.tree->state_bytes() << "; sizeof(copy_per_agent::BehaviorTree) "
          << sizeof(copy_per_agent::BehaviorTree);
    benchmark::AddCustomContext("tree",
                                "seed " + std::to_string(seed) + ", " + shape_summary(*s.tree));
    benchmark::AddCustomContext("visits/tick", visits.str());
    benchmark::AddCustomContext("100 ticks of 1000 agents", probes.str());
    benchmark::AddCustomContext("agent bytes", sizes.str());
    if (canopy_ticking.allocations != 0 || canopy_ticking.clock_reads != 0) {
        std::cerr << "warning: Canopy allocated or read a clock while ticking: " << probes.str()
                  << '\n';
    }

    // Wall time throughout: it is what a game's frame waits, and what threads shorten.
    for (std::int64_t n : {1, 1'000, 10'000, 100'000, 1'000'000}) {
        const auto unit = n >= 100'000 ? benchmark::kMillisecond : benchmark::kMicrosecond;
        benchmark::RegisterBenchmark("BM_canopy_tick", canopy_tick)
            ->Arg(n)
            ->Unit(unit)
            ->UseRealTime();
        benchmark::RegisterBenchmark("BM_copy_per_agent_tick", baseline_tick)
            ->Arg(n)
            ->Unit(unit)
            ->UseRealTime();
    }
    for (std::int64_t n : {1'000, 100'000}) {
        const auto unit = n >= 100'000 ? benchmark::kMillisecond : benchmark::kMicrosecond;
        benchmark::RegisterBenchmark("BM_canopy_create", canopy_create)
            ->Arg(n)
            ->Unit(unit)
            ->UseRealTime();
        benchmark::RegisterBenchmark("BM_copy_per_agent_create", baseline_create)
            ->Arg(n)
            ->Unit(unit)
            ->UseRealTime();
    }
    benchmark::RegisterBenchmark("BM_canopy_tick_threads/1000000", canopy_tick_threads)
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(2)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();

    for (const auto& [name, run] :
         {std::pair{"BM_canopy_save_agents/1000000", &canopy_save_agents},
          std::pair{"BM_canopy_restore_agents/1000000", &canopy_restore_agents},
          std::pair{"BM_stream_state_blocks/1000000", &stream_state_blocks}}) {
        benchmark::RegisterBenchmark(name, run)->Unit(benchmark::kMillisecond)->UseRealTime();
    }

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
