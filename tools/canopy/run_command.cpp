// canopy run: ticks agents of a tree, each in its own copy of its demo's world, prints agent
// 0's status every tick, and sums up. With --watch, the tree follows its file as it is saved;
// with --groot2, Groot2 attaches to agent 0, and with --serve a browser shows agent 0 and the
// whole population (docs/monitoring.md).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/error.hpp"
#include "canopy/load/load.hpp"
#include "canopy/reload/tree_library.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/event.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/parallel_ticker.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/views/coverage.hpp"
#include "canopy/views/snapshot_json.hpp"
#include "canopy/views/trace_printer.hpp"
#if CANOPY_HAS_GROOT2
#include "canopy/monitor/groot2_server.hpp"
#endif
#if CANOPY_HAS_LIVE
#include "canopy/monitor/live_view.hpp"
#endif
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
    bool watch = false;  // follow the file as it is saved, at real-time pace unless `fast`
    bool fast = false;
    bool blackboard = false;              // print agent 0's main blackboard after each tick
    std::optional<unsigned> groot2_port;  // Groot2 attaches to agent 0 on this port
    std::optional<unsigned> serve_port;   // the live view in the browser, on this port
    double rate = 10;                     // ticks a second while a live view is attached
    std::vector<std::string> events;      // "TICK:NAME[:VALUES]": posted before that tick
    std::vector<std::string> sets;        // "KEY=VALUE": written before the first tick
    std::string coverage;                 // the file coverage JSON goes to; empty: none
    std::optional<double> min_coverage;   // percent of node outcomes a run must see
    std::string save_state;               // agent 0's snapshot goes there after the last tick
    std::string resume;                   // agent 0 starts from that snapshot
    load_options load;
};

// Writes a --set's VALUE into a key, as a program would: a JSON literal (an integer, a
// number, true or false, a "string") as that value, a name --enum registered as its
// integer (the program's enum value), other text as a string; a key of a
// registered type reads the text with its from_text (a `json` key: JSON, else a string).
// @warning throws canopy::error (or the type's own exception) for a value the key refuses.
void set_value(blackboard board, std::uint32_t slot, const std::string& text) {
    const blackboard_key& key = board.keys()[slot];
    const char* first = text.data();
    const char* last = first + text.size();
    if (key.custom != nullptr && key.custom->takes_plain == nullptr) {
        if (key.custom->is<dynamic_value>()) {
            dynamic_value value;
            try {
                value = dynamic_value::from_json(text);
            } catch (const error&) {
                value = dynamic_value(text);
            }
            return board.set_object(slot, type_id_of<dynamic_value>(), &value);
        }
        const std::shared_ptr<const void> object = key.custom->from_text(text);
        return board.set_object(slot, key.custom->cpp_type, object.get());
    }
    std::int64_t integer = 0;
    if (auto [end, e] = std::from_chars(first, last, integer); e == std::errc() && end == last)
        return board.set(slot, integer);
    double number = 0;
    if (auto [end, e] = std::from_chars(first, last, number);
        e == std::errc() && end == last && std::isfinite(number)) {
        // A whole number into an integer key, as a program's 3.0 goes into an int entry.
        constexpr double limit = 9223372036854775808.0;  // 2^63
        if (key.type == param_type::integer && number >= -limit && number < limit &&
            std::trunc(number) == number)
            return board.set(slot, static_cast<std::int64_t>(number));
        return board.set(slot, number);
    }
    if (text == "true" || text == "false") return board.set(slot, text == "true");
    if (const auto value = cli_registry().find_enum(text)) return board.set(slot, *value);
    if (!text.empty() && text.front() == '"') {
        const dynamic_value quoted = dynamic_value::from_json(text);
        if (!quoted.is_string()) throw error(error_code::invalid_argument, "not a JSON string");
        return board.set(slot, std::string_view(quoted.string()));
    }
    board.set(slot, std::string_view(text));
}

// Says what is wrong with a --set that is not KEY=VALUE.
std::string check_set(const std::string& text) {
    const std::size_t equals = text.find('=');
    if (equals == 0 || equals == std::string::npos)
        return "'" + text + "' is not KEY=VALUE (a blackboard key, '=', and its value)";
    return {};
}

// Applies the --sets to every agent; false, after saying why, when one cannot be applied.
bool apply_sets(const std::vector<std::string>& sets, std::vector<agent>& agents,
                const std::string& file) {
    for (const std::string& text : sets) {
        const std::size_t equals = text.find('=');
        const std::string name = text.substr(0, equals);
        const std::string value = text.substr(equals + 1);
        for (agent& a : agents) {
            const std::uint32_t slot = a.blackboard().find(name);
            try {
                if (slot == blackboard::npos)
                    throw error(error_code::blackboard,
                                "the tree has no blackboard key '" + name + "'");
                set_value(a.blackboard(), slot, value);
            } catch (const std::exception& e) {
                std::cerr << input_name(file) << ": error: --set " << text << ": " << e.what()
                          << '\n';
                return false;
            }
        }
    }
    return true;
}

// An --event: the tick it is posted before, its name, and the JSON array after the name, if
// any, as the event's target and arguments.
struct scheduled_event {
    std::uint64_t tick = 0;
    std::string name;
    event_values values;
};

// Reads TICK:NAME or TICK:NAME:[TARGET, ARGUMENT...]; says what is wrong with anything else.
std::variant<scheduled_event, std::string> parse_event(const std::string& text) {
    const std::string usage =
        "'" + text +
        "' is not TICK:NAME or TICK:NAME:[TARGET, ARGUMENTS...] (a tick from 1, a "
        "colon, an event name, and a JSON array)";
    const std::size_t colon = text.find(':');
    const bool digits = colon != 0 && colon != std::string::npos && colon <= 18 &&
                        text.find_first_not_of("0123456789") == colon && text[0] != '0';
    if (!digits) return usage;
    scheduled_event e;
    e.tick = std::stoull(text.substr(0, colon));
    const std::size_t values = text.find(":[", colon + 1);
    e.name = text.substr(colon + 1, values == std::string::npos ? values : values - colon - 1);
    if (e.name.empty()) return usage;
    if (agent_event::is_own(e.name)) {
        return "'" + e.name +
               "' is one of the agent's own events; yours do not start with "
               "'canopy:'";
    }
    if (values == std::string::npos) return e;
    try {
        const dynamic_value posted =
            dynamic_value::from_json(std::string_view(text).substr(values + 1));
        const dynamic_value::array_type& elements = *posted.array();
        if (!elements.empty()) {
            e.values.target = elements.front();
            e.values.arguments.assign(elements.begin() + 1, elements.end());
        }
    } catch (const error& failure) {
        return "'" + text + "': the values after the name are not a JSON array: " + failure.what();
    }
    return e;
}

// Counts agent 0's node ticks, beside its other observers (the trace printer, the coverage
// all agents share). Only agent 0 is counted: an observer on every agent would cost each node
// tick a virtual call and skew the time the summary reports.
class visit_counter final : public observer {
public:
    void on_tick(const agent& /*a*/, tree::index /*node*/, status /*before*/,
                 status /*result*/) override {
        ++visits_;
    }
    void on_halt(const agent& /*a*/, tree::index /*node*/) override {}
    std::uint64_t visits() const noexcept { return visits_; }

private:
    std::uint64_t visits_ = 0;
};

// --coverage and --min-coverage, after the run: the JSON to its file, the summary to stdout;
// false when the file cannot be written or the run saw too little.
bool report_coverage(const run_options& o, const coverage_recorder& coverage) {
    print_coverage_summary(std::cout, coverage);
    if (!o.coverage.empty()) {
        std::ofstream out(o.coverage, std::ios::binary);
        out << coverage_json(coverage);
        out.close();
        if (!out) {
            std::cerr << "canopy: error: cannot write the coverage to '" << o.coverage << "'\n";
            return false;
        }
    }
    const double percent = summarize(coverage).percent();
    if (o.min_coverage && percent < *o.min_coverage) {
        std::cerr << input_name(o.file) << ": error: coverage " << std::fixed
                  << std::setprecision(1) << percent << "% is below --min-coverage "
                  << *o.min_coverage << "%\n";
        return false;
    }
    return true;
}

// A value as `--blackboard` prints it: integers as integers, reals in their shortest
// round-trip form, strings in single quotes, booleans as true or false, a program's types
// through their text conversion.
std::string value_text(const canopy::blackboard& board, std::uint32_t slot, bool javascript) {
    if (board.type(slot) == param_type::string) return "'" + board.text(slot) + "'";
    // A behavior3 tree's number variable prints as its `json` variables do: NaN and the
    // infinities as null, as JSON.stringify writes them.
    if (javascript && board.type(slot) == param_type::number)
        return canopy::dynamic_value(board.get<double>(slot)).to_json();
    return board.text(slot);
}

// Whether a key is private to one use of a subtree (`Tree#N/key`, docs/formats.md), not a
// key of the main tree's blackboard.
bool is_subtree_key(std::string_view name) {
    for (std::size_t hash = name.find('#'); hash != std::string_view::npos;
         hash = name.find('#', hash + 1)) {
        std::size_t digits = hash + 1;
        while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') ++digits;
        if (digits > hash + 1 && digits < name.size() && name[digits] == '/') return true;
    }
    return false;
}

// `  bb NAME=VALUE` for each key of the main tree's blackboard that holds a value (not one
// unset, nor one of a BehaviorTree.CPP file that nothing wrote yet), sorted by name.
void print_blackboard(agent& a) {
    const canopy::blackboard board = a.blackboard();
    const bool javascript = a.tree().layout().interrupts_on_error;  // runtime_rules::behavior3
    // The program's keys the tree never names are not printed (the demo's health in the pet
    // tree); worked out once per tree.
    static std::uint64_t known_tree = 0;
    static std::vector<bool> ours;
    if (ours.empty() || known_tree != a.tree().fingerprint()) {
        known_tree = a.tree().fingerprint();
        ours = keys_of_the_tree(a.tree());
    }
    std::vector<std::pair<std::string_view, std::uint32_t>> keys;
    for (std::uint32_t slot = 0; slot < board.keys().size(); ++slot) {
        const std::string& name = board.keys()[slot].name;
        if (!is_subtree_key(name) && board.is_set(slot) && slot < ours.size() && ours[slot])
            keys.emplace_back(name, slot);
    }
    std::sort(keys.begin(), keys.end());
    for (const auto& [name, slot] : keys) {
        std::cout << "  bb " << name << '=' << value_text(board, slot, javascript) << '\n';
    }
}

void print_summary(const run_options& o, std::uint64_t ticks, const tree& t, const demo::pack* pack,
                   const demo::world* world, std::uint64_t visits,
                   std::chrono::steady_clock::duration ticking) {
    const double ms = std::chrono::duration<double, std::milli>(ticking).count();
    const double agent_ticks = static_cast<double>(o.agents) * static_cast<double>(ticks);
    std::cout << "agents: " << o.agents << '\n'
              << "ticks: " << ticks << '\n'
              << "node visits: " << visits << " by agent 0"
              << (o.agents > 1 ? " (the others are not observed)\n" : "\n") << std::fixed
              << std::setprecision(3) << "time: " << ms << " ms ticking (" << std::setprecision(1);
    if (agent_ticks > 0) {
        std::cout << ms * 1e6 / agent_ticks << " ns per agent tick)\n";
    } else {
        std::cout << "no ticks)\n";
    }
    std::cout << "bytes per agent: " << sizeof(agent) + t.state_bytes() << " (agent "
              << sizeof(agent) << " + state block " << t.state_bytes() << ")";
    if (world != nullptr) {
        std::cout << " + host " << world->host_bytes() << " (" << pack->name << " world)\n"
                  << "agent 0's world: " << world->describe(0);
    }
    std::cout << '\n';
}

// --save-state: agent 0's snapshot in its JSON form (docs/snapshots.md), with its demo world
// beside it as "demo" and "host" (the host's bytes), which a resumed run needs to go on alike.
bool save_state(const run_options& o, const agent& a, const demo::pack* pack,
                const demo::world* world) {
    nlohmann::ordered_json state;
    try {
        state = nlohmann::ordered_json::parse(snapshot_to_json(a.save()));
    } catch (const error& e) {
        std::cerr << o.save_state << ": error: cannot save agent 0: " << e.what() << '\n';
        return false;
    }
    if (world != nullptr) {
        state["demo"] = pack->name;
        const std::string host = world->save(0);
        state["host"] = std::vector<std::uint8_t>(host.begin(), host.end());
    }
    std::ofstream out(o.save_state, std::ios::binary);
    out << state.dump(1) << '\n';
    if (!out.flush()) {
        std::cerr << o.save_state << ": error: cannot write the snapshot\n";
        return false;
    }
    return true;
}

// --resume: agent 0 (and its demo world) as a snapshot says, in its JSON form with the world
// that save_state writes, or in bytes (agent::save) when the tree needs no demo world.
bool resume(const run_options& o, agent& a, const demo::pack* pack, demo::world* world) {
    const file_read_result file = read_file(o.resume);
    if (!file) {
        std::cerr << o.resume << ": error: cannot read the snapshot: " << file.problem << '\n';
        return false;
    }
    const std::string& text = *file.text;
    const auto fail = [&](const std::string& why) {
        std::cerr << o.resume << ": error: " << why << '\n';
        return false;
    };
    try {
        const std::size_t first = text.find_first_not_of(" \t\r\n");
        const bool json_form = first != std::string::npos && text[first] == '{';
        a.restore(json_form ? snapshot_from_json(text) : text);
        if (world != nullptr) {
            const nlohmann::json state = json_form ? nlohmann::json::parse(text) : nlohmann::json();
            if (!state.contains("host") || state.value("demo", "") != pack->name)
                return fail("the snapshot holds no " + std::string(pack->name) +
                            " demo world, which this tree's agents live in");
            std::string host;
            for (const nlohmann::json& byte : state["host"]) {
                if (!byte.is_number_unsigned() || byte.get<std::uint64_t>() > 255)
                    return fail("the snapshot's demo world is not a list of bytes");
                host += static_cast<char>(byte.get<std::uint64_t>());
            }
            if (!state["host"].is_array() || !world->restore(0, host))
                return fail("the snapshot's demo world is not a " + std::string(pack->name) +
                            " one");
        }
    } catch (const error& e) {
        return fail(e.what());
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("the snapshot's demo world: ") + e.what());
    }
    return true;
}

std::string agents_text(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " agent" : " agents");
}

// With --watch: the library that reloads the file, and what it has to say, printed on stderr
// between ticks. A reload is reported after the tick that moved the agents to it.
class reload_reporter {
public:
    explicit reload_reporter(tree_library& trees) {
        trees.on_event([this](const reload_event& e) { report(e); });
    }

    // Says how many agents run the new tree, once they have ticked since it came.
    void after_tick(const std::vector<agent>& agents, const tree_handle& handle) {
        if (!pending_) return;
        const std::shared_ptr<const tree> now = handle.current();
        std::size_t moved = 0;
        for (const agent& a : agents) moved += a.shared_tree() == now ? 1 : 0;
        print_reloaded(moved);
    }
    // The run ends: a reload no agent ticked yet.
    void finish() {
        if (pending_) print_reloaded(0);
    }

private:
    void report(const reload_event& e) {
        const std::string name = e.path.string();
        const std::string nodes = std::to_string(e.nodes) + (e.nodes == 1 ? " node" : " nodes");
        switch (e.outcome) {
            case reload_outcome::reloaded:
                if (pending_) print_reloaded(0);
                pending_ = e;
                return;
            case reload_outcome::kept_previous:
                print_diagnostics(e.diagnostics);
                if (!e.refusal.empty())
                    std::cerr << name << ": error: cannot run the new tree: " << e.refusal << '\n';
                std::cerr << name << ": kept the previous tree (" << nodes
                          << "); fix the file to reload\n";
                return;
            case reload_outcome::deleted:
                std::cerr << name << ": deleted; kept the previous tree (" << nodes
                          << ") until the file is back\n";
                return;
        }
    }
    void print_reloaded(std::size_t moved) {
        const reload_event& e = *pending_;
        std::cerr << e.path.string() << ": reloaded (" << e.nodes
                  << (e.nodes == 1 ? " node" : " nodes") << ") in " << std::fixed
                  << std::setprecision(1)
                  << std::chrono::duration<double, std::milli>(e.load_time).count() << " ms; "
                  << agents_text(moved) << " moved to it\n";
        std::cerr.unsetf(std::ios::floatfield);
        pending_.reset();
    }

    std::optional<reload_event> pending_;
};

// The demo a tree's agents live in, or why it cannot run. Once the first tree has chosen the
// demo, a reloaded tree must use the same one (or built-in nodes only): the agents' hosts
// stay those of the first.
class demo_check {
public:
    std::string operator()(const tree& t) {
        if (std::string why = why_not_runnable(t); !why.empty()) return refuse(why);
        const demo::pack* uses = nullptr;
        try {
            uses = demo_pack_for(t);
        } catch (const error& e) {
            return refuse(e.what());
        }
        if (!chosen_) {
            chosen_ = true;
            pack_ = uses;
            return {};
        }
        if (uses == nullptr || uses == pack_) return {};
        return refuse("the tree now uses the " + std::string(uses->name) +
                      " demo's node types, but its agents live in " +
                      (pack_ != nullptr ? "the " + std::string(pack_->name) + " demo's world"
                                        : "no demo's world") +
                      "; run it anew to change demos");
    }
    const demo::pack* pack() const noexcept { return pack_; }
    const std::string& refusal() const noexcept { return refusal_; }

private:
    std::string refuse(std::string why) {
        refusal_ = why;
        return why;
    }
    bool chosen_ = false;
    const demo::pack* pack_ = nullptr;
    std::string refusal_;
};

int run(const run_options& o) {
    std::vector<scheduled_event> events;  // each checked by the option's validator
    for (const std::string& text : o.events)
        events.push_back(std::get<scheduled_event>(parse_event(text)));
    // Without --watch the tree is loaded once; with it, a library reloads it, checking that
    // each new version fits the demo world the agents were made in.
    auto check = std::make_shared<demo_check>();
    // The keys --set writes are the program's: in a BehaviorTree.CPP file one that a script
    // creates, or that only text ports name, then takes the program's value of any type.
    load_options load = o.load;
    for (const std::string& text : o.sets)
        load.program_keys.push_back(text.substr(0, text.find('=')));
    tree_library_options library_options;
    library_options.load = load;
    library_options.accept = [check](const tree& t) { return (*check)(t); };
    tree_library trees(cli_registry(), library_options);
    tree_handle handle;
    std::shared_ptr<const tree> t;
    if (o.watch) {
        try {
            handle = trees.load(o.file);
        } catch (const load_error& e) {
            print_diagnostics(e.diagnostics());
            return 1;
        } catch (const error&) {
            std::cerr << o.file << ": error: cannot run this tree: " << check->refusal() << '\n';
            return 1;
        }
        t = handle.current();
    } else {
        load_result loaded = load_tree(o.file, load);
        print_diagnostics(loaded.diagnostics);
        if (!loaded) return 1;
        t = loaded.tree;
    }

    std::unique_ptr<demo::world> world;
    const demo::pack* pack = nullptr;
    std::vector<agent> agents;
    try {
        pack = demo_pack_for(*t);
        if (pack != nullptr) world = pack->make_world(o.agents, o.seed);
        agents.reserve(o.agents);
        progress making("making agents", o.agents, 1024);
        for (std::size_t i = 0; i < o.agents; ++i) {
            making.update(i);
            const host_ref host = world ? world->host(i) : host_ref();
            if (o.watch) {
                agents.emplace_back(handle, host, o.seed + i);
            } else {
                agents.emplace_back(t, host, o.seed + i);
            }
        }
    } catch (const error& e) {
        std::cerr << input_name(o.file)
                  << ": error: cannot run this tree: " << cannot_run_text(e, *t) << '\n';
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "canopy: error: not enough memory for " << o.agents << " agents\n";
        return 1;
    } catch (const std::length_error&) {
        std::cerr << "canopy: error: not enough memory for " << o.agents << " agents\n";
        return 1;
    }

    if (!apply_sets(o.sets, agents, o.file)) return 1;
    // A resumed run goes on from the snapshot's tick: its --set values are in the snapshot.
    if (!o.resume.empty() && !resume(o, agents.front(), pack, world.get())) return 1;
    const std::uint64_t first_tick = agents.front().ticks();

    trace_printer printer(std::cout);
    const bool covered = !o.coverage.empty() || o.min_coverage.has_value();
    std::optional<coverage_recorder> coverage;
    if (covered) coverage.emplace(t);
    visit_counter counter;
    agents.front().set_observer(&counter);
    if (o.trace) agents.front().add_observer(&printer);
    if (coverage) agents.front().add_observer(&*coverage);
    for (std::size_t i = 1; coverage && i < agents.size(); ++i) agents[i].set_observer(&*coverage);
#if CANOPY_HAS_GROOT2
    std::unique_ptr<groot2_server> groot2;
    if (o.groot2_port) {
        groot2_options options;
        options.port = *o.groot2_port;
        try {
            groot2 = std::make_unique<groot2_server>(options);
        } catch (const error& e) {
            std::cerr << "canopy: error: " << e.what() << '\n';
            return 1;
        }
        groot2->watch(&agents.front());
        std::cerr << "groot2: attach Groot2 to " << options.address << ", port " << options.port
                  << " (notifications on " << options.port + 1 << "); it sees agent 0\n";
    }
#endif
#if CANOPY_HAS_LIVE
    std::unique_ptr<live_view> browser;
    if (o.serve_port) {
        live_options options;
        options.port = *o.serve_port;
        options.title = input_name(o.file);
        try {
            browser = std::make_unique<live_view>(options);
        } catch (const error& e) {
            std::cerr << "canopy: error: " << e.what() << '\n';
            return 1;
        }
        browser->watch(&agents.front());
        browser->watch_population(agents.data(), agents.size());
        std::cerr << "live view: open " << browser->url() << " in a browser; it shows agent 0 and "
                  << agents.size() << (agents.size() == 1 ? " agent" : " agents") << '\n';
    }
#endif
    // A live view watches the ticks as they come: a tick every 1/rate seconds.
    const bool live = o.groot2_port.has_value() || o.serve_port.has_value();
    parallel_ticker ticker(o.threads);
    std::chrono::steady_clock::duration ticking{};

    using clock = std::chrono::steady_clock;
    reload_reporter reporter(trees);
    if (o.watch || live) stop_on_signals();
    const auto interval = library_options.poll_interval;
    const auto step = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(live ? 1.0 / o.rate : o.dt));
    auto next_tick = clock::now();
    auto next_poll = next_tick + interval;
    std::uint64_t k = first_tick;
    while (o.ticks == 0 || k < first_tick + o.ticks) {
        if (o.watch || live) {
            // Wait for the tick's time (real-time pace unless --fast), polling the file every
            // interval and looking for a stop request at least every 50 ms meanwhile.
            for (;;) {
                const auto now = clock::now();
                if (o.watch && now >= next_poll) {
                    trees.poll();
                    next_poll = now + interval;
                }
                if (o.fast || now >= next_tick || stop_requested()) break;
                std::this_thread::sleep_until(
                    std::min({next_tick, next_poll, now + std::chrono::milliseconds(50)}));
            }
            if (stop_requested()) break;
            // A run that falls behind (a slow tick, a long load) goes on from now rather than
            // ticking in a burst to catch up.
            next_tick = std::max(next_tick + step, clock::now());
        }
        ++k;
        if (world) {
            for (std::size_t i = 0; i < agents.size(); ++i) world->before_tick(i, agents[i], o.dt);
            if (o.trace) std::cout << "world: " << world->describe(0) << '\n';
        }
#if CANOPY_HAS_GROOT2
        if (groot2) groot2->update();
#endif
        for (const scheduled_event& event : events) {
            if (event.tick == k) post_event(agents, event.name, event.values);
        }
        const auto start = clock::now();
        ticker.tick(agents, o.dt);
        ticking += clock::now() - start;
        if (const std::string& why = agents.front().interruption(); !why.empty()) {
            // behavior3-ts reports the error and interrupts the tree; so does this run.
            std::cout << "tick " << k << ": interrupted\n";
            std::cerr << input_name(o.file) << ": tick " << k << ": interrupted: " << why << '\n';
        } else {
            std::cout << "tick " << k << ": " << to_string(agents.front().last_status(tree::root))
                      << '\n';
        }
#if CANOPY_HAS_LIVE
        if (browser) browser->update(k);
#endif
        if (o.blackboard) print_blackboard(agents.front());
        if (o.watch) {
            std::cout.flush();  // the ticks and the reload lines on stderr, in their order
            reporter.after_tick(agents, handle);
        }
    }
#if CANOPY_HAS_LIVE
    // With --serve, the ticks done, the page keeps showing their end until Ctrl-C.
    if (browser && !stop_requested()) {
        std::cout.flush();
        std::cerr << "live view: " << k << " ticks done; serving their end until Ctrl-C\n";
        while (!stop_requested()) {
            browser->update(k);
#if CANOPY_HAS_GROOT2
            if (groot2) groot2->update();
#endif
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    browser.reset();
#endif
    reporter.finish();
#if CANOPY_HAS_GROOT2
    groot2.reset();  // on this thread, which ticked agent 0: lets a held tick go first
#endif
    print_summary(o, k - first_tick, agents.front().tree(), pack, world.get(), counter.visits(),
                  ticking);
    const bool enough = !coverage || report_coverage(o, *coverage);
    if (!o.save_state.empty() && !save_state(o, agents.front(), pack, world.get())) return 1;
    std::cout.flush();
    return std::cout && enough ? 0 : 1;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "run", "Tick agents of a tree in their demo's world and print agent 0's status each tick");
    auto o = std::make_shared<run_options>();
    command->add_option("FILE", o->file, "Tree file (see docs/formats.md); - reads standard input")
        ->required();
    add_reading_options(*command, o->load);
    add_stub_option(*command, o->load);
    add_substitute_option(*command, o->load);
    command
        ->add_option("--ticks", o->ticks,
                     "How many times to tick each agent; with --watch, 0 (the default there) "
                     "ticks until Ctrl-C or SIGTERM")
        ->capture_default_str()
        ->check(whole_number(0, unbounded, "NONNEGATIVE"));
    command->add_option("--agents", o->agents, "How many agents run the tree")
        ->capture_default_str()
        ->check(whole_number(1, unbounded, "POSITIVE"));
    command->add_option("--dt", o->dt, "The time step of each tick, in seconds")
        ->capture_default_str()
        ->check(time_step());
    command
        ->add_option("--seed", o->seed,
                     "Seeds agent i's generator and world with SEED + i: same seed, same run")
        ->capture_default_str()
        ->check(whole_number(0, unbounded, "NONNEGATIVE"));
    command->add_flag("--trace", o->trace,
                      "Print each node event of agent 0, and its world before each tick");
    command->add_flag("--blackboard", o->blackboard,
                      "After each tick, print agent 0's main-tree blackboard as '  bb NAME=VALUE' "
                      "lines sorted by name, for each key that holds a value");
    command->add_option("--save-state", o->save_state,
                        "After the last tick, write agent 0's snapshot (its JSON form, with its "
                        "demo world) to FILE; see docs/snapshots.md");
    command
        ->add_option("--resume", o->resume,
                     "Start agent 0 from a snapshot --save-state wrote (or agent::save's bytes): "
                     "the tick numbering, the clock, the statuses and the blackboard go on "
                     "from it")
        ->check(CLI::ExistingFile);
    command->add_option("--threads", o->threads, "Threads that tick the agents; 0: one per core")
        ->capture_default_str()
        ->check(whole_number(0, 1024, "0 TO 1024"));
    command
        ->add_option("--event", o->events,
                     "TICK:NAME posts the event NAME to every agent just before tick TICK (1 is "
                     "the first), for behavior3's WaitForEvent and Listen; TICK:NAME:[T, A...] "
                     "posts it with the target T and the arguments A (JSON values); may be "
                     "repeated")
        ->check(CLI::Validator(
            [](const std::string& text) -> std::string {
                const auto parsed = parse_event(text);
                const std::string* problem = std::get_if<std::string>(&parsed);
                return problem != nullptr ? *problem : std::string();
            },
            "TICK:NAME[:VALUES]"));
    command
        ->add_option("--set", o->sets,
                     "KEY=VALUE writes VALUE into blackboard key KEY of every agent before the "
                     "first tick, as a program would: a JSON literal (42, 0.5, true, \"text\") as "
                     "that value, a name --enum gives as its integer, other text as a string, and "
                     "text in a key of a registered type "
                     "as that type reads it; may be repeated")
        ->check(CLI::Validator(check_set, "KEY=VALUE"));
    auto* watch = command->add_flag(
        "--watch", o->watch,
        "Tick at real-time pace (a tick every --dt seconds) and reload the tree whenever its "
        "file, or a file it uses, is saved; a version that does not load is reported and the "
        "previous tree runs on (see docs/hot_reload.md)");
    command->add_flag("--fast", o->fast, "With --watch: tick as fast as possible, not in real time")
        ->needs(watch);
    command
        ->add_option("--groot2", o->groot2_port,
                     "Let Groot2 attach to agent 0 (ZeroMQ on PORT and PORT+1, loopback only; "
                     "see docs/monitoring.md), ticking --rate times a second; with it, --ticks 0 "
                     "ticks until Ctrl-C or SIGTERM")
        ->expected(0, 1)
        ->default_str("1667")
        ->check(whole_number(1, 65534, "PORT"));
    command
        ->add_option("--serve", o->serve_port,
                     "Serve the live view in the browser on PORT (127.0.0.1 only; 0 picks a free "
                     "port; see docs/monitoring.md): agent 0 as it ticks and the whole population, "
                     "ticking --rate times a second; after --ticks N it serves their end until "
                     "Ctrl-C, and --ticks 0 ticks until Ctrl-C or SIGTERM")
        ->expected(0, 1)
        ->default_str("1669")
        ->check(whole_number(0, 65535, "PORT"));
    command
        ->add_option("--rate", o->rate,
                     "With --groot2 or --serve: ticks a second (each still advances time by --dt)")
        ->capture_default_str()
        ->check(CLI::Range(0.001, 1000.0));
    auto* coverage =
        command->add_option("--coverage", o->coverage,
                            "Write, for every node, how often its status over all agents became "
                            "success, failure, running and skipped (as BehaviorTree.CPP's "
                            "TreeObserver counts), as JSON to FILE, and print which nodes never "
                            "ticked and which outcomes were never seen (docs/testing.md)");
    auto* min_coverage =
        command
            ->add_option("--min-coverage", o->min_coverage,
                         "Exit 1 when fewer than PERCENT of the node outcomes (success and "
                         "failure of each node) were seen; prints the coverage summary")
            ->check(CLI::Range(0.0, 100.0));
    coverage->excludes(watch);
    min_coverage->excludes(watch);
    command->footer(
        "Prints 'tick K: success|failure|running' for agent 0 after each tick, then a summary: "
        "agents, ticks, agent 0's node visits, the time spent ticking, and the bytes each "
        "agent holds. With --watch, reloads and the problems of versions that do not load go to "
        "stderr between the ticks.");
    command->callback([o, command, &exit_code] {
        if (o->watch && command->count("--ticks") == 0) o->ticks = 0;
        if (o->watch && o->file == "-") {
            throw CLI::ValidationError("--watch", "standard input ('-') cannot be watched");
        }
        if (command->count("--rate") != 0 && !o->groot2_port && !o->serve_port) {
            throw CLI::ValidationError("--rate", "paces a live view: give --groot2 or --serve too");
        }
#if !CANOPY_HAS_GROOT2
        if (o->groot2_port) {
            throw CLI::ValidationError("--groot2",
                                       "this canopy was built without ZeroMQ (canopy::groot2)");
        }
#endif
#if !CANOPY_HAS_LIVE
        if (o->serve_port) {
            throw CLI::ValidationError("--serve",
                                       "this canopy was built without cpp-httplib (canopy::live)");
        }
#endif
        if (o->ticks == 0 && !o->watch && !o->groot2_port && !o->serve_port) {
            throw CLI::ValidationError("--ticks", "expected a whole number, 1 or more, not '0'");
        }
        exit_code = run(*o);
    });
}

}  // namespace canopy::cli
