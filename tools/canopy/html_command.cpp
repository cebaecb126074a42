// canopy html: a tree as a self-contained HTML page, with a replay of agent 0's ticks when it
// runs them (--ticks) or reads them from a recorded trace (--trace).
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/load/load.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/views/coverage.hpp"
#include "canopy/views/html.hpp"
#include "canopy/views/trace_recorder.hpp"
#include "commands.hpp"
#include "demo.hpp"

namespace canopy::cli {
namespace {

struct html_command_options {
    std::string file;
    std::string output;
    std::string trace;        // a recorded trace to replay
    std::string write_trace;  // where to save the trace of --ticks
    std::uint64_t ticks = 0;
    std::size_t keep = 1000;
    std::size_t agents = 1;
    double dt = 0.1;
    std::uint64_t seed = 1;
    bool heat_map = false;  // colour the tree by the outcomes its ticks gave
    load_options load;
};

// Ticks the agents in their demo's world, as canopy run does, recording agent 0's last ticks.
// Returns false, having said why, if the tree cannot run.
bool record_run(const html_command_options& o, const std::shared_ptr<const tree>& t,
                recorded_trace& trace, coverage_recorder* coverage) {
    try {
        const demo::pack* pack = demo_pack_for(*t);
        std::unique_ptr<demo::world> world;
        if (pack != nullptr) world = pack->make_world(o.agents, o.seed);
        std::vector<agent> agents;
        agents.reserve(o.agents);
        for (std::size_t i = 0; i < o.agents; ++i) {
            agents.emplace_back(t, world ? world->host(i) : nullptr, o.seed + i);
        }
        trace_recorder recorder(t, o.keep);
        // Agent 0's events go to its trace recorder and to the coverage every agent shares.
        agents.front().set_observer(&recorder);
        agents.front().add_observer(coverage);
        for (std::size_t i = 1; coverage != nullptr && i < agents.size(); ++i)
            agents[i].set_observer(coverage);
        progress ticking("ticking", o.ticks);
        for (std::uint64_t k = 0; k < o.ticks; ++k) {
            ticking.update(k);
            for (std::size_t i = 0; i < agents.size(); ++i) {
                if (world) world->before_tick(i, agents[i], o.dt);
                agents[i].tick(o.dt);
            }
        }
        trace = recorder.recording();
        return true;
    } catch (const error& e) {
        std::cerr << input_name(o.file)
                  << ": error: cannot run this tree: " << cannot_run_text(e, *t) << '\n';
        return false;
    }
}

int make_page(const html_command_options& o) {
    load_result loaded = load_tree(o.file, o.load);
    print_diagnostics(loaded.diagnostics);
    if (!loaded) return 1;
    const std::shared_ptr<const tree> t = loaded.tree;

    recorded_trace trace;
    std::optional<coverage_recorder> coverage;
    if (o.heat_map) coverage.emplace(t);
    bool replay = false;
    if (!o.trace.empty()) {
        std::ifstream in(o.trace, std::ios::binary);
        if (!in) {
            std::cerr << o.trace << ": error: cannot open the trace\n";
            return 1;
        }
        try {
            trace = read_trace(in, o.trace);
            check_trace_fits(trace, *t, o.trace);
        } catch (const trace_error& e) {
            std::cerr << e.what() << '\n';
            return 1;
        }
        replay = true;
    } else if (o.ticks > 0) {
        if (!record_run(o, t, trace, coverage ? &*coverage : nullptr)) return 1;
        replay = true;
        if (!o.write_trace.empty()) {
            std::ostringstream text;
            write_trace(trace, text);
            if (!write_file(o.write_trace, text.str(), "trace")) return 1;
        }
    }

    html_options options;
    options.path = input_name(o.file);
    options.replay = replay ? &trace : nullptr;
    options.coverage = coverage ? &*coverage : nullptr;
    options.coverage_ticks = o.ticks;
    return write_file(o.output, to_html(*t, options), "page") ? 0 : 1;
}

}  // namespace

void add_html_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "html", "Write a tree as a self-contained HTML page, with a replay of agent 0's ticks");
    auto o = std::make_shared<html_command_options>();
    command->add_option("FILE", o->file, "Tree file (see docs/formats.md); - reads standard input")
        ->required();
    command->add_option("-o,--output", o->output, "The page to write")->required();
    add_reading_options(*command, o->load);
    add_stub_option(*command, o->load);
    add_substitute_option(*command, o->load);
    auto* ticks = command
                      ->add_option("--ticks", o->ticks,
                                   "Tick agents of the tree this many times in their demo's world "
                                   "(as canopy run does) and replay agent 0's ticks")
                      ->check(whole_number(1, 100000000, "1 TO 100000000"));
    command
        ->add_option("--keep", o->keep,
                     "With --ticks: replay only the last KEEP ticks (the recorder's bound)")
        ->capture_default_str()
        ->check(whole_number(1, 1000000, "1 TO 1000000"))
        ->needs(ticks);
    command->add_option("--agents", o->agents, "With --ticks: how many agents run the tree")
        ->capture_default_str()
        ->check(whole_number(1, 1000000, "1 TO 1000000"))
        ->needs(ticks);
    command->add_option("--dt", o->dt, "With --ticks: the time step of each tick, in seconds")
        ->capture_default_str()
        ->check(time_step())
        ->needs(ticks);
    command
        ->add_option("--seed", o->seed, "With --ticks: seeds agent i and its world with SEED + i")
        ->capture_default_str()
        ->check(whole_number(0, unbounded, "NONNEGATIVE"))
        ->needs(ticks);
    command
        ->add_option("--write-trace", o->write_trace,
                     "With --ticks: also save the recorded trace to this file")
        ->needs(ticks);
    command
        ->add_flag("--heat-map", o->heat_map,
                   "With --ticks: colour the tree by the outcomes its nodes gave over every "
                   "agent's ticks (the page's Coverage button; canopy run --coverage's counts)")
        ->needs(ticks);
    command
        ->add_option("--trace", o->trace,
                     "Replay a trace recorded on this tree (trace_recorder; docs/viewer.md)")
        ->excludes(ticks);
    command->footer(
        "The page loads nothing from the network: open it from disk. Example: canopy html "
        "data/hornet.json --ticks 40 -o hornet.html");
    command->callback([o, &exit_code] { exit_code = make_page(*o); });
}

}  // namespace canopy::cli
