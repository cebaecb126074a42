#pragma once
// Random trees of the built-in composites and decorators, for the runtime tests that check a
// rule over thousands of shapes. The leaves are the test's own.

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace canopy::testing {

/// A random number from 0 to n - 1.
using random_pick = std::function<int(int n)>;

/// Adds the leaf record `id` under `parent`, choosing with `pick`.
using add_random_leaf = std::function<void(record_set&, int id, int parent, const random_pick&)>;

/// A duration for a random tree's node, in seconds: 0 (which ends at the first tick) to 1.7.
inline double random_seconds(const random_pick& pick) {
    static const double choices[] = {0.0, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 1.0, 1.7};
    return choices[pick(9)];
}

/// A random tree of `size` nodes in preorder, ids 1..size. Shape first: each node hangs from a
/// random earlier one. Then each node with children gets a type that takes that many, among
/// every built-in composite and decorator (reactive ones included, Sequence twice as often),
/// with random parameters and durations (random_seconds), and the keys read are `count` (an
/// integer) and `health` (seconds). Each leaf is `leaf`'s.
inline record_set random_records(std::mt19937& random, int size, const add_random_leaf& leaf) {
    const random_pick pick = [&](int n) {
        return static_cast<int>(random() % static_cast<unsigned>(n));
    };
    auto seconds = [&] { return random_seconds(pick); };
    using add_params = std::function<void(record_set&, int children)>;
    auto none = [](record_set&, int) {};
    struct kind {
        const char* type;
        int fewest_children;
        int most_children;  // 0: any number
        add_params params;
    };
    const std::vector<kind> composites = {
        {"Sequence", 1, 0, none},
        {"Sequence", 1, 0, none},
        {"Selector", 1, 0, none},
        {"ReactiveSequence", 1, 0, none},
        {"ReactiveSelector", 1, 0, none},
        {"RandomSelector", 1, 0, none},
        {"SequenceWithMemory", 1, 0, none},
        {"AsyncSequence", 1, 0, none},
        {"AsyncFallback", 1, 0, none},
        {"PipelineSequence", 1, 0, none},
        {"RoundRobin", 1, 0, [&](record_set& r, int) { r.add_param("wrap_around", pick(2) == 0); }},
        {"Parallel", 1, 0,
         [&](record_set& r, int children) {
             auto threshold = [&] {
                 const std::int64_t t = 1 + pick(children);
                 return pick(2) == 0 ? t : -t;
             };
             r.add_param("success_threshold", threshold());
             r.add_param("failure_threshold", threshold());
         }},
        {"ParallelAll", 1, 0,
         [&](record_set& r, int children) {
             r.add_param("max_failures", std::int64_t{1 + pick(children)});
         }},
        {"IfThenElse", 2, 3, none},
        {"WhileDoElse", 2, 3, none},
        {"TryCatch", 2, 0, none},
        {"RecoveryNode", 2, 2,
         [&](record_set& r, int) { r.add_param("number_of_retries", std::int64_t{pick(3)}); }},
        {"Switch", 2, 0,
         [&](record_set& r, int children) {
             std::string cases;
             for (int k = 0; k + 1 < children; ++k) cases += (k ? ";" : "") + std::to_string(k);
             r.add_param("variable", std::string("count"));
             r.add_param("cases", cases);
         }},
        {"Switch2", 3, 3,
         [&](record_set& r, int) {
             r.add_param("variable", std::string("{count}"));
             r.add_param("case_1", std::string("1"));
             r.add_param("case_2", std::string("2"));
         }},
    };
    const std::vector<kind> decorators = {
        {"Not", 1, 1, none},
        {"RepeatUntilSuccess", 1, 1, none},
        {"RepeatUntilFailure", 1, 1, none},
        {"ForceSuccess", 1, 1, none},
        {"ForceFailure", 1, 1, none},
        {"RunOnce", 1, 1, none},
        {"Repeat", 1, 1,
         [&](record_set& r, int) { r.add_param("count", std::int64_t{pick(5) - 1}); }},
        {"Retry", 1, 1,
         [&](record_set& r, int) { r.add_param("attempts", std::int64_t{pick(5) - 1}); }},
        {"Timeout", 1, 1, [&](record_set& r, int) { r.add_param("seconds", seconds()); }},
        {"Cooldown", 1, 1, [&](record_set& r, int) { r.add_param("seconds", seconds()); }},
        {"Delay", 1, 1, [&](record_set& r, int) { r.add_param("seconds", seconds()); }},
        {"MaxTime", 1, 1, [&](record_set& r, int) { r.add_param("seconds", seconds()); }},
        {"RateController", 1, 1,
         [&](record_set& r, int) { r.add_param("hz", static_cast<double>(1 + pick(20))); }},
        {"Limiter", 1, 1,
         [&](record_set& r, int) { r.add_param("max_loop", std::int64_t{1 + pick(3)}); }},
        {"Precondition", 1, 1,
         [&](record_set& r, int) { r.add_param("if", "count == " + std::to_string(pick(2))); }},
        {"BlackboardCheckInt", 1, 1,
         [&](record_set& r, int) {
             r.add_param("value_A", std::string("{count}"));
             r.add_param("value_B", std::int64_t{pick(2)});
         }},
    };
    std::vector<int> parent(size + 1, 0);
    std::vector<int> children(size + 1, 0);
    for (int id = 2; id <= size; ++id) {
        parent[id] = 1 + pick(id - 1);
        ++children[parent[id]];
    }
    record_set records;
    for (int id = 1; id <= size; ++id) {
        const int n = children[id];
        if (n == 0) {
            leaf(records, id, parent[id], pick);
            continue;
        }
        const std::vector<kind>& kinds = n == 1 && pick(2) == 0 ? decorators : composites;
        std::vector<const kind*> fitting;
        for (const kind& k : kinds) {
            if (n >= k.fewest_children && (k.most_children == 0 || n <= k.most_children))
                fitting.push_back(&k);
        }
        const kind& chosen = *fitting[pick(static_cast<int>(fitting.size()))];
        records.add(id, parent[id], chosen.type);
        chosen.params(records, n);
    }
    return records;
}

}  // namespace canopy::testing
