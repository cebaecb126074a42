// What a program attaches to agents, across a hot reload: agents that follow a tree_handle,
// some of them mid-run, move to a tree of more nodes, then of fewer, then to one declaring its
// blackboard keys in another order. A recorder made for one tree counts only the agents that
// run it; a view that follows an agent starts over on its new tree (docs/hot_reload.md, "What a
// program holds across a reload").
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "canopy/canopy.hpp"
#include "reload_versions.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;

constexpr double tick_dt = 0.1;

// The position of a declared key among the tree's keys.
std::size_t key_position(const tree& t, const std::string& name) {
    for (std::size_t k = 0; k < t.keys().size(); ++k) {
        if (t.keys()[k].name == name) return k;
    }
    FAIL("no key '" << name << "'");
    return 0;
}

// Per node: success, failure, running, skipped.
using node_counts = std::array<std::uint64_t, 4>;

std::vector<node_counts> counts_of(const coverage_recorder& coverage) {
    std::vector<node_counts> counts;
    for (tree::index i = 0; i < coverage.observed().size(); ++i) {
        const node_coverage n = coverage.of(i);
        counts.push_back({n.success, n.failure, n.running, n.skipped});
    }
    return counts;
}

// Tells several observers every event: an agent has one observer.
class fan_out final : public observer {
public:
    explicit fan_out(std::vector<observer*> to) : to_(std::move(to)) {}
    void on_visit(const agent& a, tree::index node) override {
        for (observer* o : to_) o->on_visit(a, node);
    }
    void on_tick(const agent& a, tree::index node, status before, status result) override {
        for (observer* o : to_) o->on_tick(a, node, before, result);
    }
    void on_halt(const agent& a, tree::index node) override {
        for (observer* o : to_) o->on_halt(a, node);
    }

private:
    std::vector<observer*> to_;
};

// `count` agents following `handle`, each observed by `watcher`, agent k ticked k + 1 times:
// on the first tree, the first three are mid-run (their Wait running), the fourth is done.
std::vector<agent> staggered_followers(const tree_handle& handle, std::size_t count,
                                       observer* watcher) {
    std::vector<agent> agents;
    agents.reserve(count);  // the recorders know agents by address: they must not move
    for (std::size_t k = 0; k < count; ++k) {
        agents.emplace_back(handle);
        agents.back().set_observer(watcher);
        for (std::size_t n = 0; n <= k % 4; ++n) agents.back().tick(tick_dt);
    }
    return agents;
}

void tick_all(std::vector<agent>& agents, int times) {
    for (int n = 0; n < times; ++n) {
        for (agent& a : agents) a.tick(tick_dt);
    }
}

// Every event of every tick names a node of a tree of `size` nodes.
bool names_nodes_of(const recorded_trace& trace, std::size_t size) {
    for (const traced_tick& tick : trace.ticks) {
        for (const trace_event& e : tick.events) {
            if (e.node >= size) return false;
        }
    }
    return true;
}

using testing::contains;
using testing::scratch_folder;

void write_file(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    REQUIRE(out.good());
}

}  // namespace

TEST_SUITE("reload handles") {
    TEST_CASE("coverage counts only its tree's agents through a reload to more, fewer, reordered") {
        tree_handle handle(testing::runtime_tree(testing::first_version));
        const std::shared_ptr<const tree> first = handle.current();
        const auto grown = testing::runtime_tree(testing::grown_version);
        const auto shrunk = testing::runtime_tree(testing::shrunk_version);
        const auto reordered = testing::runtime_tree(testing::reordered_version);
        REQUIRE(key_position(*reordered, "label") < key_position(*reordered, "speed"));
        REQUIRE(key_position(*first, "speed") < key_position(*first, "label"));
        coverage_recorder of_first(first);
        coverage_recorder of_grown(grown);  // made before any agent runs its tree
        fan_out both({&of_first, &of_grown});
        std::vector<agent> agents = staggered_followers(handle, 4, &both);
        REQUIRE(agents[0].is_running(2));
        REQUIRE(agents[2].is_running(2));
        REQUIRE_FALSE(agents[3].is_running(tree::root));

        const std::vector<node_counts> before = counts_of(of_first);
        CHECK(before[0] == node_counts{1, 0, 4, 0});  // four runs, one of them done
        CHECK(before[1] == node_counts{4, 0, 0, 0});
        CHECK(before[2] == node_counts{1, 0, 4, 0});
        CHECK(before[3] == node_counts{1, 0, 0, 0});
        CHECK(of_first.other_tree_ticks() == 0);
        CHECK(of_grown.other_tree_ticks() == 10);  // 1 + 2 + 3 + 4 ticks, on the first tree
        CHECK(counts_of(of_grown) == std::vector<node_counts>(grown->size()));

        // More nodes: indexes up to 9, where the first tree has 4.
        handle.publish(grown);
        tick_all(agents, 2);
        for (const agent& a : agents) REQUIRE(&a.tree() == grown.get());
        CHECK(counts_of(of_first) == before);
        CHECK(of_first.other_tree_ticks() == 8);
        const std::vector<node_counts> on_grown = counts_of(of_grown);
        CHECK(on_grown[0] == node_counts{0, 0, 4, 0});
        CHECK(on_grown[1] == node_counts{0, 4, 0, 0});
        CHECK(on_grown[2] == node_counts{0, 0, 4, 0});
        CHECK(on_grown[3] == node_counts{4, 0, 0, 0});
        CHECK(on_grown[4] == node_counts{0, 0, 4, 0});  // the Wait, one run per agent
        for (tree::index i = 5; i < grown->size(); ++i)
            CHECK(on_grown[i] == node_counts{0, 0, 0, 0});  // not reached yet
        CHECK(of_grown.other_tree_ticks() == 10);
        try {
            static_cast<void>(of_first.of(9));  // a node of the grown tree
            FAIL("no error for a node past the observed tree's end");
        } catch (const error& e) {
            CHECK(e.code() == error_code::invalid_argument);
            CHECK(contains(e.what(), "no node 9 in tree 'first' of 4 nodes"));
        }

        // Fewer nodes: their halts (of the grown tree's running nodes) and ticks change no count.
        handle.publish(shrunk);
        tick_all(agents, 2);
        for (const agent& a : agents) REQUIRE(&a.tree() == shrunk.get());
        CHECK(counts_of(of_first) == before);
        CHECK(counts_of(of_grown) == on_grown);
        CHECK(of_first.other_tree_ticks() == 16);
        CHECK(of_grown.other_tree_ticks() == 18);

        // Keys declared in another order.
        handle.publish(reordered);
        tick_all(agents, 2);
        CHECK(counts_of(of_first) == before);
        CHECK(counts_of(of_grown) == on_grown);
        CHECK(of_first.other_tree_ticks() == 24);
        CHECK(of_grown.other_tree_ticks() == 26);

        // Back on the first tree, each agent starts a run afresh, counted again.
        handle.publish(first);
        tick_all(agents, 1);
        const std::vector<node_counts> back = counts_of(of_first);
        CHECK(back[0] == node_counts{1, 0, 8, 0});
        CHECK(back[1] == node_counts{8, 0, 0, 0});
        CHECK(back[2] == node_counts{1, 0, 8, 0});
        CHECK(back[3] == node_counts{1, 0, 0, 0});
        CHECK(of_first.other_tree_ticks() == 24);
        CHECK(of_grown.other_tree_ticks() == 30);
        CHECK(counts_of(of_grown) == on_grown);

        std::ostringstream summary;
        print_coverage_summary(summary, of_first);
        CHECK(contains(summary.str(),
                       "not counted: 24 ticks of agents on another tree (a reload they followed)"));
        coverage_recorder again(first);
        again.add(of_first);
        CHECK(again.other_tree_ticks() == 24);
    }

    TEST_CASE("coverage of agents ticked on several threads leaves out a reloaded tree's ticks") {
        tree_handle handle(testing::runtime_tree(testing::first_version));
        const std::shared_ptr<const tree> first = handle.current();
        coverage_recorder coverage(first);
        std::vector<agent> agents;
        agents.reserve(64);
        for (int i = 0; i < 64; ++i) agents.emplace_back(handle);
        for (agent& a : agents) a.set_observer(&coverage);
        parallel_ticker ticker(4);
        for (int i = 0; i < 2; ++i) ticker.tick(agents, tick_dt);  // every Wait running
        const std::vector<node_counts> before = counts_of(coverage);
        CHECK(before[2] == node_counts{0, 0, 64, 0});

        handle.publish(testing::runtime_tree(testing::grown_version));
        for (int i = 0; i < 3; ++i) ticker.tick(agents, tick_dt);
        handle.publish(testing::runtime_tree(testing::shrunk_version));
        for (int i = 0; i < 2; ++i) ticker.tick(agents, tick_dt);
        CHECK(counts_of(coverage) == before);
        CHECK(coverage.other_tree_ticks() == 64 * 5);

        handle.publish(first);
        ticker.tick(agents, tick_dt);
        CHECK(coverage.of(tree::root).running == 128);
        CHECK(coverage.of(1).success == 128);
        CHECK(coverage.other_tree_ticks() == 64 * 5);
    }

    TEST_CASE("coverage follows a reload of the tree's file by a tree library") {
        scratch_folder folder;
        const fs::path file = folder.path / "pet.json";
        write_file(file, testing::first_version);
        const registry reg = testing::runtime_registry();
        tree_library trees(reg);
        const tree_handle handle = trees.load(file);
        const std::shared_ptr<const tree> first = handle.current();
        coverage_recorder coverage(first);
        std::vector<agent> agents = staggered_followers(handle, 3, &coverage);
        const std::vector<node_counts> before = counts_of(coverage);

        write_file(file, testing::grown_version);
        for (int k = 0; k < 4 && handle.version() == 1; ++k) trees.poll();
        REQUIRE(handle.version() == 2);
        REQUIRE(handle.current()->size() == 10);
        tick_all(agents, 3);
        for (const agent& a : agents) CHECK(a.tree().size() == 10);
        CHECK(counts_of(coverage) == before);
        CHECK(coverage.other_tree_ticks() == 9);
        CHECK(summarize(coverage).outcomes == 8);  // still the first tree's 4 nodes
    }

    TEST_CASE("a trace recorder starts over on each tree its agent moves to after a reload") {
        tree_handle handle(testing::runtime_tree(testing::first_version));
        const std::shared_ptr<const tree> first = handle.current();
        const auto grown = testing::runtime_tree(testing::grown_version);
        const auto shrunk = testing::runtime_tree(testing::shrunk_version);
        const auto reordered = testing::runtime_tree(testing::reordered_version);
        trace_recorder recorder(first, 10);
        std::vector<agent> agents = staggered_followers(handle, 4, nullptr);
        agent& watched = agents[1];  // ticked twice: its Wait runs
        watched.set_observer(&recorder);
        watched.tick(tick_dt);
        REQUIRE(watched.is_running(2));
        REQUIRE(recorder.recording().ticks.size() == 1);
        CHECK(recorder.recording().ticks[0].number == 1);

        using kind = trace_event::kind;
        const trace_event visit_root{kind::visit, status::idle, status::idle, tree::root};

        // More nodes: the old tree's halts are dropped with its ticks.
        handle.publish(grown);
        tick_all(agents, 1);
        recorded_trace trace = recorder.recording();
        CHECK(&recorder.recorded_tree() == grown.get());
        CHECK(trace.tree_size == 10);
        CHECK(trace.tree_name == "grown");
        CHECK(trace.tree_checksum == tree_checksum(*grown));
        REQUIRE(trace.ticks.size() == 1);
        CHECK(trace.ticks[0].number == 2);  // the tick that moved
        REQUIRE_FALSE(trace.ticks[0].events.empty());
        CHECK(trace.ticks[0].events.front() == visit_root);
        const trace_event waits{kind::result, status::idle, status::running, 4};
        CHECK(std::count(trace.ticks[0].events.begin(), trace.ticks[0].events.end(), waits) == 1);
        CHECK(names_nodes_of(trace, grown->size()));
        std::stringstream written;
        recorder.write(written);
        const recorded_trace read = read_trace(written, "grown.trace");
        CHECK_NOTHROW(check_trace_fits(read, *grown, "grown.trace"));
        CHECK_THROWS_AS(check_trace_fits(read, *first, "grown.trace"), trace_error);
        tick_all(agents, 1);
        CHECK(recorder.recording().ticks.size() == 2);

        // Fewer nodes.
        handle.publish(shrunk);
        tick_all(agents, 2);
        trace = recorder.recording();
        CHECK(trace.tree_size == 2);
        CHECK(trace.tree_name == "shrunk");
        REQUIRE(trace.ticks.size() == 2);
        CHECK(trace.ticks[0].number == 4);
        CHECK(trace.ticks[0].events.front() == visit_root);
        CHECK(names_nodes_of(trace, shrunk->size()));
        CHECK_NOTHROW(check_trace_fits(trace, *shrunk, "shrunk.trace"));

        // Keys reordered.
        handle.publish(reordered);
        tick_all(agents, 1);
        trace = recorder.recording();
        CHECK(trace.tree_name == "reordered");
        CHECK(trace.tree_size == 6);
        REQUIRE(trace.ticks.size() == 1);
        CHECK(trace.ticks[0].number == 6);
        CHECK(trace.ticks[0].events.front() == visit_root);
        CHECK(names_nodes_of(trace, reordered->size()));
    }

    TEST_CASE("a trace printer names each node from the tree its agent runs after a reload") {
        tree_handle handle(testing::runtime_tree(testing::first_version));
        std::vector<agent> agents = staggered_followers(handle, 3, nullptr);
        std::ostringstream out;
        trace_printer printer(out);
        agents[2].set_observer(&printer);  // ticked three times: its Wait runs

        handle.publish(testing::runtime_tree(testing::grown_version));
        tick_all(agents, 1);
        const std::string moved = out.str();
        CHECK(contains(moved, "  Wait #3: halted\n"));
        CHECK(contains(moved, "Sequence #1: halted\n"));
        CHECK(contains(moved, "    Wait #14: idle -> running\n"));
        CHECK(moved.find("#3: halted") < moved.find("#14"));

        out.str({});
        handle.publish(testing::runtime_tree(testing::shrunk_version));
        tick_all(agents, 1);
        CHECK(contains(out.str(), "    Wait #14: halted\n"));
        CHECK(contains(out.str(), "  Wait #31: idle -> running\n"));

        out.str({});
        handle.publish(testing::runtime_tree(testing::reordered_version));
        tick_all(agents, 1);
        CHECK(contains(out.str(), "  Wait #31: halted\n"));
        CHECK(contains(out.str(), "    Wait #44: idle -> running\n"));
    }

    TEST_CASE("a scenario whose hook moves its agent to a reloaded tree fails, naming the tick") {
        scratch_folder folder;
        write_file(folder.path / "first.json", testing::first_version);
        scenario s;
        s.name = "moves";
        s.path = (folder.path / "moves.json").string();
        s.tree = folder.path / "first.json";
        s.ticks = 4;
        scenario_step step;
        step.tick = 3;
        step.ran.push_back({"Wait", {}});
        s.steps.push_back(step);
        const auto grown = testing::runtime_tree(testing::grown_version);
        std::unique_ptr<coverage_recorder> coverage;
        scenario_hooks hooks;
        int ticks = 0;
        hooks.before_tick = [&](agent& a, double) {
            if (++ticks == 2) a.move_to(grown);
        };
        hooks.observe = [&](const std::shared_ptr<const tree>& t) {
            coverage = std::make_unique<coverage_recorder>(t);
            return coverage.get();
        };
        const scenario_result result = run_scenario(s, testing::runtime_registry(), hooks);
        REQUIRE(result.failures.size() == 1);
        const scenario_failure& failure = result.failures[0];
        CHECK(failure.tick == 2);
        CHECK(contains(failure.message, "no longer runs the scenario's tree"));
        CHECK(contains(failure.trace, "Wait #14: idle -> running"));
        CHECK(result.ticks == 2);
        REQUIRE(coverage != nullptr);
        CHECK(coverage->other_tree_ticks() == 1);
        CHECK(coverage->of(2).running == 1);  // the first tick's run of the first tree's Wait
    }
}

}  // namespace canopy
