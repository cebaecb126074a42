// canopy run: ticks agents of a tree, each in its own copy of its demo's world, prints agent
// 0's status every tick, and sums up.
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <new>
#include <stdexcept>
#include <vector>

#include "canopy/agent.hpp"
#include "canopy/error.hpp"
#include "canopy/load.hpp"
#include "canopy/parallel_ticker.hpp"
#include "canopy/trace_printer.hpp"
#include "canopy/tree.hpp"
#include "commands.hpp"
#include "demo.hpp"

namespace canopy::cli {
namespace {

struct run_options {
    std::string file;
    std::uint64_t ticks = 10;
    std::size_t agents = 1;
    double dt = 0.1;
    std::uint64_t seed = 1;
    bool trace = false;
    unsigned threads = 1;
    load_options load;  // --tree
};

// Counts agent 0's node ticks and passes every event on to the trace printer, if there is
// one. Only agent 0 is observed: an observer on every agent would cost each node tick a
// virtual call and skew the time the summary reports.
class visit_counter final : public observer {
public:
    explicit visit_counter(observer* next) : next_(next) {}
    void on_visit(const agent& a, tree::index node) override {
        if (next_ != nullptr) next_->on_visit(a, node);
    }
    void on_tick(const agent& a, tree::index node, status before, status result) override {
        ++visits_;
        if (next_ != nullptr) next_->on_tick(a, node, before, result);
    }
    void on_halt(const agent& a, tree::index node) override {
        if (next_ != nullptr) next_->on_halt(a, node);
    }
    std::uint64_t visits() const noexcept { return visits_; }

private:
    observer* next_;
    std::uint64_t visits_ = 0;
};

// A whole number in [minimum, maximum]. (CLI11's ranges check doubles and print their bounds
// as 300-digit numbers.)
CLI::Validator whole_number(std::uint64_t minimum, std::uint64_t maximum, std::string name) {
    return {[minimum, maximum](std::string& text) -> std::string {
                std::uint64_t value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, problem] = std::from_chars(text.data(), end, value);
                if (problem == std::errc() && stop == end && value >= minimum && value <= maximum) {
                    return {};
                }
                std::string wanted = "a whole number, " + std::to_string(minimum) + " or more";
                if (maximum != std::numeric_limits<std::uint64_t>::max()) {
                    wanted = "a whole number from " + std::to_string(minimum) + " to " +
                             std::to_string(maximum);
                }
                return "expected " + wanted + ", not '" + text + "'";
            },
            std::move(name)};
}

const std::uint64_t unbounded = std::numeric_limits<std::uint64_t>::max();

// A time step: a finite number of seconds, 0 or more (CLI11's ranges let "nan" through).
const CLI::Validator time_step(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0) {
            return "expected a number of seconds, 0 or more, not '" + text + "'";
        }
        return {};
    },
    "SECONDS");

void print_summary(const run_options& o, const tree& t, const demo::pack* pack,
                   const demo::world* world, std::uint64_t visits,
                   std::chrono::steady_clock::duration ticking) {
    const double ms = std::chrono::duration<double, std::milli>(ticking).count();
    const double agent_ticks = static_cast<double>(o.agents) * static_cast<double>(o.ticks);
    std::cout << "agents: " << o.agents << '\n'
              << "ticks: " << o.ticks << '\n'
              << "node visits: " << visits << " by agent 0"
              << (o.agents > 1 ? " (the others are not observed)\n" : "\n") << std::fixed
              << std::setprecision(3) << "time: " << ms << " ms ticking (" << std::setprecision(1)
              << ms * 1e6 / agent_ticks << " ns per agent tick)\n"
              << "bytes per agent: " << sizeof(agent) + t.state_bytes() << " (agent "
              << sizeof(agent) << " + state block " << t.state_bytes() << ")";
    if (world != nullptr) {
        std::cout << " + host " << world->host_bytes() << " (" << pack->name << " world)\n"
                  << "agent 0's world: " << world->describe(0);
    }
    std::cout << '\n';
}

int run(const run_options& o) {
    load_result loaded = try_load_file(o.file, cli_registry(), o.load);
    for (const diagnostic& d : loaded.diagnostics) std::cerr << d << '\n';
    if (!loaded) return 1;
    const std::shared_ptr<const tree>& t = loaded.tree;

    std::unique_ptr<demo::world> world;
    const demo::pack* pack = nullptr;
    std::vector<agent> agents;
    try {
        pack = demo::pack_for(*t);
        if (pack != nullptr) world = pack->make_world(o.agents, o.seed);
        agents.reserve(o.agents);
        for (std::size_t i = 0; i < o.agents; ++i) {
            agents.emplace_back(t, world ? world->host(i) : nullptr, o.seed + i);
        }
    } catch (const error& e) {
        std::cerr << o.file << ": error: cannot run this tree: " << e.what() << '\n';
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "canopy: error: not enough memory for " << o.agents << " agents\n";
        return 1;
    } catch (const std::length_error&) {
        std::cerr << "canopy: error: not enough memory for " << o.agents << " agents\n";
        return 1;
    }

    trace_printer printer(std::cout);
    visit_counter counter(o.trace ? &printer : nullptr);
    agents.front().set_observer(&counter);
    parallel_ticker ticker(o.threads);
    std::chrono::steady_clock::duration ticking{};
    for (std::uint64_t k = 1; k <= o.ticks; ++k) {
        if (world) {
            for (std::size_t i = 0; i < agents.size(); ++i) world->before_tick(i, agents[i], o.dt);
            if (o.trace) std::cout << "world: " << world->describe(0) << '\n';
        }
        const auto start = std::chrono::steady_clock::now();
        ticker.tick(agents, o.dt);
        ticking += std::chrono::steady_clock::now() - start;
        std::cout << "tick " << k << ": " << to_string(agents.front().last_status(tree::root))
                  << '\n';
    }
    print_summary(o, *t, pack, world.get(), counter.visits(), ticking);
    std::cout.flush();
    return std::cout ? 0 : 1;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "run", "Tick agents of a tree in their demo's world and print agent 0's status each tick");
    auto o = std::make_shared<run_options>();
    command->add_option("FILE", o->file, "Tree file (see docs/formats.md)")->required();
    add_tree_options(*command, o->load, false);
    command->add_option("--ticks", o->ticks, "How many times to tick each agent")
        ->capture_default_str()
        ->check(whole_number(1, unbounded, "POSITIVE"));
    command->add_option("--agents", o->agents, "How many agents run the tree")
        ->capture_default_str()
        ->check(whole_number(1, unbounded, "POSITIVE"));
    command->add_option("--dt", o->dt, "The time step of each tick, in seconds")
        ->capture_default_str()
        ->check(time_step);
    command
        ->add_option("--seed", o->seed,
                     "Seeds agent i's generator and world with SEED + i: same seed, same run")
        ->capture_default_str()
        ->check(whole_number(0, unbounded, "NONNEGATIVE"));
    command->add_flag("--trace", o->trace,
                      "Print each node event of agent 0, and its world before each tick");
    command->add_option("--threads", o->threads, "Threads that tick the agents; 0: one per core")
        ->capture_default_str()
        ->check(whole_number(0, 1024, "0 TO 1024"));
    command->footer(
        "Prints 'tick K: success|failure|running' for agent 0 after each tick, then a summary: "
        "agents, ticks, agent 0's node visits, the time spent ticking, and the bytes each "
        "agent holds.");
    command->callback([o, &exit_code] { exit_code = run(*o); });
}

}  // namespace canopy::cli
