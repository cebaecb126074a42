#pragma once
// Scenarios: a tree, what to feed it at given ticks, and what it must do (docs/testing.md,
// "Scenarios"). `canopy test` runs them; so may a program's own tests:
//
//     const canopy::scenario_read_result read = canopy::load_scenario("tests/reload.json");
//     REQUIRE(read);
//     const canopy::scenario_result result = canopy::run_scenario(read.scenario, my_registry);
//     CHECK_MESSAGE(result.passed(), result.report());

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/source_location.hpp"
#include "canopy/core/status.hpp"
#include "canopy/load/load.hpp"
#include "canopy/run/host.hpp"

namespace canopy {

class observer;

/// A blackboard key and a value, as a scenario gives or expects it.
struct scenario_value {
    std::string key;
    dynamic_value value;
    source_location where;
};

/// A node a scenario names: `#ID` (its id in the file, subtrees renumbered as `canopy print`
/// shows them), else its name (`name`, describe) or its type as the file writes it; a name
/// or type names every node that has it.
struct scenario_node {
    std::string ref;
    source_location where;
};

/// What to do before one tick and what must hold after it.
struct scenario_step {
    std::uint64_t tick = 0;  ///< from 1
    source_location where;
    std::vector<scenario_value> set;      ///< written to the blackboard before the tick
    std::vector<std::string> events;      ///< posted to the agent before the tick, in order
    std::optional<status> expect_status;  ///< the root's status after the tick
    std::vector<scenario_value> expect_blackboard;
    std::vector<scenario_node> ran;      ///< nodes ticked in this tick
    std::vector<scenario_node> not_ran;  ///< nodes not ticked in this tick
};

/// One scenario file, read.
struct scenario {
    std::string name;            ///< its "name", else the file's stem
    std::string path;            ///< the scenario file, for messages
    std::filesystem::path tree;  ///< the tree file, resolved from the scenario's folder
    load_options load;           ///< `tree_name`, `lenient`, `stub`, `substitute` applied
    double dt = 0.1;
    std::uint64_t seed = 1;
    std::uint64_t ticks = 0;                 ///< ticks to run: "ticks", else the last step's tick
    std::vector<scenario_value> blackboard;  ///< written before the first tick
    std::vector<scenario_step> steps;        ///< in tick order
    std::vector<scenario_node> ran;          ///< nodes ticked at least once over the run
    std::vector<scenario_node> never_ran;    ///< nodes never ticked over the run
    source_location where;
};

/// A scenario file read, or the problems that kept it from being read, located.
struct scenario_read_result {
    canopy::scenario scenario;
    std::vector<diagnostic> diagnostics;
    explicit operator bool() const noexcept { return !has_errors(diagnostics); }
};

/// Reads a scenario from JSON text; `path` names it in messages, and relative paths in it
/// (`tree`, `substitute`) are resolved from its folder.
scenario_read_result read_scenario(std::string_view json_text, const std::string& path);
/// Reads a scenario file.
scenario_read_result load_scenario(const std::filesystem::path& path);

/// How a program runs its tree in a scenario: the host its agent gets, and what moves its
/// world on before each tick (the demos' worlds, a game's). Both optional.
struct scenario_hooks {
    std::function<host_ref(const tree&)> host;
    /// May feed the agent, not move it: an agent moved to another tree (agent::move_to) fails
    /// the scenario after that tick, since its steps name the loaded tree's nodes.
    std::function<void(agent&, double dt)> before_tick;
    /// An observer the agent's events also go to (a coverage_recorder), for the tree the
    /// scenario loaded; null: none.
    std::function<observer*(const std::shared_ptr<const tree>&)> observe;
};

/// One thing that did not hold, located in the scenario, with the trace of the tick it was
/// found at.
struct scenario_failure {
    std::uint64_t tick = 0;  ///< 0: before any tick (the tree did not load) or over the run
    source_location where;
    std::string message;  ///< "expected status success, got running"
    std::string trace;    ///< the nodes that tick visited, as `canopy run --trace` prints them
};

/// What running a scenario gave.
struct scenario_result {
    std::string name;
    std::string path;
    std::uint64_t ticks = 0;  ///< ticks run
    double seconds = 0;       ///< wall time it took
    std::vector<diagnostic> load_problems;
    std::vector<scenario_failure> failures;
    bool passed() const noexcept { return failures.empty(); }
    /// The failures as a person reads them: `PATH:LINE:COL: tick K: MESSAGE` and the trace.
    std::string report() const;
};

/// Loads the scenario's tree with `reg`, runs one agent for its ticks and checks each step.
/// A tree that does not load, or throws as it ticks, is a failure, not an exception.
scenario_result run_scenario(const scenario& s, const registry& reg,
                             const scenario_hooks& hooks = {});

/// The results as JUnit XML (one <testsuite> of one <testcase> per scenario), which CI
/// servers show.
std::string junit_xml(const std::vector<scenario_result>& results, const std::string& suite);

}  // namespace canopy
