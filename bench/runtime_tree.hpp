#pragma once
// The runtime benchmark's tree (bench/README.md, "Runtime"): a generated 50-node tree of
// built-in nodes over the trivial leaves of bench/runtime_leaves.hpp, registered for Canopy.
// Shared by canopy_bench_runtime and canopy_bench_world.

#include <algorithm>
#include <canopy/canopy.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime_leaves.hpp"

namespace canopy_bench {

/// The runtime benchmark's tree: the seed its --find-seed chose, and its size.
inline constexpr std::uint64_t tree_seed = 166;
inline constexpr std::size_t tree_nodes = 50;

inline std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// `count` hosts, each with its own generator state.
inline std::vector<bench_host> make_hosts(std::size_t count) {
    std::vector<bench_host> hosts(count);
    std::uint64_t state = 0x405'7000'0000ULL;
    for (bench_host& h : hosts) h.random = splitmix(state) | 1;
    return hosts;
}

/// The built-in nodes and the four trivial leaves.
inline canopy::registry make_registry() {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    // Leaves taking the host by type: the agent checks its host's type once, when made, and
    // the leaves read it without a check per visit, as the baseline's do.
    reg.add_condition(
        "Ready", [](bench_host& h, canopy::context&) { return leaf::ready(h); }, 100);
    reg.add_condition(
        "Chance", [](bench_host& h, canopy::context&) { return leaf::chance(h); }, 101);
    reg.add_action(
        "Work", [](bench_host& h, canopy::context&) { return leaf::work(h); }, 102);
    reg.add_action(
        "Step", [](bench_host& h, canopy::context&) { return leaf::step(h); }, 103);
    return reg;
}

/// Writes a flat JSON tree of exactly `count` nodes, records in preorder, ids 1..count.
///
/// A subtree of budget 1 is a leaf: Ready 30%, Chance 20%, Work 25%, Step 15%,
/// AlwaysSuccess 5%, AlwaysFailure 5%. Budget 2 is a decorator over a leaf; a larger one is a
/// decorator (20%) or a composite of 2-5 children among which the rest of the budget is cut
/// at random points. Decorators: Not 35%, ForceSuccess 25%, ForceFailure 10%, Repeat
/// {count: 2} 10%, Retry {attempts: 2} 10%, RepeatUntilSuccess 10%. Composites: Sequence 35%,
/// Selector 35%, ReactiveSequence 8%, ReactiveSelector 7%, Parallel 15% (AND or OR).
class tree_writer {
public:
    explicit tree_writer(std::uint64_t seed) : random_(seed) {}

    std::string write(std::size_t count) {
        out_ = "{\n  \"name\": \"runtime-" + std::to_string(count) + "\",\n  \"nodes\": [\n";
        subtree(0, count);
        out_.resize(out_.size() - 2);  // the last ",\n"
        out_ += "\n  ]\n}\n";
        return out_;
    }
    /// The same tree's records alone, each line ending in ",\n", ids from `first_id`, the
    /// root's parent `parent`: a subtree of a larger tree.
    std::string write_records(std::size_t count, std::int64_t first_id, std::int64_t parent) {
        out_.clear();
        next_id_ = first_id;
        subtree(parent, count);
        return out_;
    }

private:
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(splitmix(random_) % n); }

    template <std::size_t N>
    const char* pick(const std::pair<const char*, unsigned> (&weighted)[N]) {
        std::size_t roll = below(100);
        for (const auto& [name, weight] : weighted) {
            if (roll < weight) return name;
            roll -= weight;
        }
        return weighted[N - 1].first;
    }

    void record(std::int64_t id, std::int64_t parent, const std::string& type,
                const std::string& params = "") {
        out_ += R"(    {"id": )" + std::to_string(id) + R"(, "parentId": )" +
                std::to_string(parent) + R"(, "type": ")" + type + '"';
        if (!params.empty()) out_ += R"(, "params": {)" + params + "}";
        out_ += "},\n";
    }

    void subtree(std::int64_t parent, std::size_t budget) {
        static constexpr std::pair<const char*, unsigned> leaves[] = {
            {"Ready", 30}, {"Chance", 20},       {"Work", 25},
            {"Step", 15},  {"AlwaysSuccess", 5}, {"AlwaysFailure", 5}};
        static constexpr std::pair<const char*, unsigned> decorators[] = {
            {"Not", 35},    {"ForceSuccess", 25}, {"ForceFailure", 10},
            {"Repeat", 10}, {"Retry", 10},        {"RepeatUntilSuccess", 10}};
        static constexpr std::pair<const char*, unsigned> composites[] = {{"Sequence", 35},
                                                                          {"Selector", 35},
                                                                          {"ReactiveSequence", 8},
                                                                          {"ReactiveSelector", 7},
                                                                          {"Parallel", 15}};

        const std::int64_t id = next_id_++;
        if (budget == 1) {
            record(id, parent, pick(leaves));
            return;
        }
        if (budget == 2 || below(100) < 20) {
            const std::string type = pick(decorators);
            std::string params;
            if (type == "Repeat") params = R"("count": 2)";
            if (type == "Retry") params = R"("attempts": 2)";
            record(id, parent, type, params);
            subtree(id, budget - 1);
            return;
        }
        const std::string type = pick(composites);
        std::string params;
        if (type == "Parallel" && below(2) == 0) {
            params = R"("success_threshold": 1, "failure_threshold": -1)";  // OR; default AND
        }
        record(id, parent, type, params);
        // Cut the rest of the budget at k - 1 distinct random points.
        const std::size_t rest = budget - 1;
        const std::size_t k = 2 + below(std::min<std::size_t>(rest, 5) - 1);
        std::vector<std::size_t> cuts;
        while (cuts.size() + 1 < k) {
            const std::size_t cut = 1 + below(rest - 1);
            if (std::find(cuts.begin(), cuts.end(), cut) == cuts.end()) cuts.push_back(cut);
        }
        std::sort(cuts.begin(), cuts.end());
        std::size_t previous = 0;
        cuts.push_back(rest);
        for (std::size_t cut : cuts) {
            subtree(id, cut - previous);
            previous = cut;
        }
    }

    std::uint64_t random_;
    std::int64_t next_id_ = 1;
    std::string out_;
};

}  // namespace canopy_bench
