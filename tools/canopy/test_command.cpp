// canopy test: runs scenario files (docs/testing.md, "Scenarios"), each tree in its demo's
// world as canopy run makes it, prints what failed, located, and writes JUnit XML for CI.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

#include "canopy/run/agent.hpp"
#include "canopy/testing/scenario.hpp"
#include "canopy/views/coverage.hpp"
#include "commands.hpp"
#include "demo.hpp"

namespace canopy::cli {
namespace {

struct test_options {
    std::vector<std::string> files;
    std::string junit;
    std::string coverage;
    std::optional<double> min_coverage;
};

// The coverage of every tree the scenarios ran, one recorder per tree file, each scenario's
// counts added in.
class coverage_by_tree {
public:
    observer* observe(const std::string& scenario_tree, const std::shared_ptr<const tree>& t) {
        recorders_.emplace_back(scenario_tree, std::make_unique<coverage_recorder>(t));
        return recorders_.back().second.get();
    }
    // Merges the recorders of one tree file; a file that loaded differently (other rules)
    // stays apart.
    std::vector<const coverage_recorder*> merged() {
        std::vector<const coverage_recorder*> out;
        std::map<std::string, std::vector<coverage_recorder*>> by_file;
        for (auto& [file, recorder] : recorders_) {
            std::vector<coverage_recorder*>& kept = by_file[file];
            bool added = false;
            for (coverage_recorder* k : kept) {
                try {
                    k->add(*recorder);
                    added = true;
                    break;
                } catch (const error&) {
                }
            }
            if (!added) {
                kept.push_back(recorder.get());
                out.push_back(recorder.get());
            }
        }
        return out;
    }

private:
    std::vector<std::pair<std::string, std::unique_ptr<coverage_recorder>>> recorders_;
};

bool report_coverage(const test_options& o, coverage_by_tree& coverage) {
    const std::vector<const coverage_recorder*> trees = coverage.merged();
    coverage_summary total;
    for (const coverage_recorder* c : trees) {
        std::cout << "\n" << c->observed().name() << ":\n";
        print_coverage_summary(std::cout, *c);
        const coverage_summary s = summarize(*c);
        total.outcomes += s.outcomes;
        total.seen += s.seen;
    }
    if (!o.coverage.empty()) {
        std::string text;
        if (trees.size() == 1) {
            text = coverage_json(*trees.front());
        } else {
            text = "{\"trees\": [\n";
            for (std::size_t i = 0; i < trees.size(); ++i)
                text += (i == 0 ? "" : ",\n") + coverage_json(*trees[i]);
            text += "]}\n";
        }
        if (!write_file(o.coverage, text, "coverage")) return false;
    }
    if (o.min_coverage && total.percent() < *o.min_coverage) {
        std::cerr << "canopy: error: coverage " << std::fixed << std::setprecision(1)
                  << total.percent() << "% is below --min-coverage " << *o.min_coverage << "%\n";
        return false;
    }
    return true;
}

int run_tests(const test_options& o) {
    std::vector<scenario_result> results;
    coverage_by_tree coverage;
    const bool covered = !o.coverage.empty() || o.min_coverage.has_value();
    bool unreadable = false;
    for (const std::string& file : o.files) {
        const scenario_read_result read = load_scenario(file);
        print_diagnostics(read.diagnostics);
        if (!read) {
            std::cout << "FAIL  " << file << "  (the scenario file has errors)\n";
            unreadable = true;
            scenario_result refused;
            refused.name = read.scenario.name;
            refused.path = file;
            refused.failures.push_back({0, {}, "the scenario file has errors", {}});
            results.push_back(std::move(refused));
            continue;
        }
        // The demo world the tree's nodes act on, as canopy run makes it, for one agent.
        std::unique_ptr<demo::world> world;
        scenario_hooks hooks;
        hooks.host = [&](const tree& t) {
            const demo::pack* pack = demo_pack_for(t);
            if (pack != nullptr) world = pack->make_world(1, read.scenario.seed);
            return world ? world->host(0) : host_ref();
        };
        hooks.before_tick = [&](agent& a, double dt) {
            if (world) world->before_tick(0, a, dt);
        };
        if (covered) {
            hooks.observe = [&](const std::shared_ptr<const tree>& t) {
                return coverage.observe(read.scenario.tree.lexically_normal().string(), t);
            };
        }
        scenario_result result = run_scenario(read.scenario, cli_registry(), hooks);
        std::cout << (result.passed() ? "pass" : "FAIL") << "  " << file << "  (" << result.ticks
                  << (result.ticks == 1 ? " tick)" : " ticks)") << '\n';
        if (!result.passed()) std::cout << result.report();
        results.push_back(std::move(result));
    }
    const auto failed = static_cast<std::size_t>(std::count_if(
        results.begin(), results.end(), [](const scenario_result& r) { return !r.passed(); }));
    std::cout << (failed == 0 ? "all " + std::to_string(results.size()) + " passed"
                              : std::to_string(failed) + " of " + std::to_string(results.size()) +
                                    " failed")
              << '\n';
    bool ok = failed == 0 && !unreadable;
    if (!o.junit.empty() && !write_file(o.junit, junit_xml(results, "canopy test"), "JUnit XML"))
        ok = false;
    if (covered && !report_coverage(o, coverage)) ok = false;
    return ok ? 0 : 1;
}

}  // namespace

void add_test_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "test", "Run scenario files: a tree, what to feed it at given ticks, what it must do");
    auto o = std::make_shared<test_options>();
    command->add_option("SCENARIO", o->files, "Scenario files (see docs/testing.md)")->required();
    add_plugin_option(*command);
    command->add_option("--junit", o->junit, "Also write the results as JUnit XML to this file");
    command->add_option("--coverage", o->coverage,
                        "Write what every node of each tree returned over all the scenarios, "
                        "as JSON (canopy run --coverage's, one per tree), and print a summary");
    command
        ->add_option("--min-coverage", o->min_coverage,
                     "Fail when fewer than PERCENT of the node outcomes were seen over all the "
                     "scenarios' trees")
        ->check(CLI::Range(0.0, 100.0));
    command->footer("Exit status: 0 when every scenario holds, 1 otherwise.");
    command->callback([o, &exit_code] { exit_code = run_tests(*o); });
}

}  // namespace canopy::cli
