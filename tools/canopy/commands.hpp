#pragma once
// Each subcommand lives in its own file and registers itself on the CLI11 app with one of
// these. A subcommand's callback stores its exit code: 0 success, 1 invalid input.

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/core/error.hpp"
#include "canopy/load/load.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/tree.hpp"

namespace canopy::demo {
struct pack;
}

namespace canopy::cli {

/// The registry the CLI loads with: the built-in nodes and every demo node pack, so that
/// each tree in data/ loads and runs; with --plugin, the built-in nodes and the plugins'
/// types instead of the demos'.
const registry& cli_registry();
/// The same registry, for the options that add to it before any file is read (--enum).
registry& cli_registry_to_extend();
/// Loads a node plugin (--plugin LIB) into the registry; before cli_registry() is first read.
/// @warning throws canopy::error when the plugin cannot be loaded, naming why.
void add_plugin(const std::string& path);
/// Whether a plugin was loaded: the demos' nodes and worlds are then not the CLI's.
bool uses_plugins();
/// The demo whose world a tree's agents live in (demo::pack_for), or null: always null with
/// --plugin, whose trees' agents have no host.
const demo::pack* demo_pack_for(const tree& t);

/// --plugin LIB, repeatable: the program's node types, from a shared library that defines
/// CANOPY_PLUGIN (canopy/run/plugin.hpp), for every command that reads trees or lists types.
void add_plugin_option(CLI::App& command);

/// 'flat JSON', 'flat XML', ...: the names --from and --to take, for messages.
std::string format_names();

/// The format a name names, in any case ("flat json"), if one does.
std::optional<file_format> find_format(const std::string& name);

/// The reading options every command that reads a tree file takes, as one group:
/// --plugin, --tree, --from, --lenient, --models, --register, --warnings-as-errors and --enum.
void add_reading_options(CLI::App& command, load_options& options);

/// --stub STATUS (load_options::stub, which implies --lenient), for the commands that tick.
void add_stub_option(CLI::App& command, load_options& options);
/// --substitute FILE (load_options::substitutions): BehaviorTree.CPP's substitution rules,
/// read as the option is parsed; rules with errors print them and fail the command (exit 1).
void add_substitute_option(CLI::App& command, load_options& options);
/// Why agents cannot run tree `t`, said for someone at a shell: a node type without behaviour
/// here (read by --lenient or --models), which --stub or --substitute gives a stand-in; else "".
/// (The library's error says what a program does about it: register the type.)
std::string why_not_runnable(const tree& t);
/// What a shell user reads when agents of `t` cannot be made: why_not_runnable(), else the
/// error's own text.
std::string cannot_run_text(const error& e, const tree& t);

/// Per key of `t` (slot order), whether it is the tree's: one the file declares or that a
/// parameter or script of the tree names, and not a key of the program's (the CLI registry's,
/// the demo's `health`) that the tree never names, which every agent has all the same.
std::vector<bool> keys_of_the_tree(const tree& t);

/// FILE as the loader reads it: "-" is standard input, which only --from can tell the format
/// of (a usage error without it). Read so, the files it names by relative paths are looked
/// for beside it, in /dev: load_tree() reads one tree better.
std::string input_path(const std::string& file, const load_options& options);

/// Loads the tree FILE names, as try_load_file() does; "-" reads standard input as text, so
/// that the files it names by relative paths are looked for from the working directory.
load_result load_tree(const std::string& file, const load_options& options);

/// How diagnostics and messages name FILE: standard input as "<stdin>".
std::string input_name(const std::string& file);

/// Prints a load's diagnostics on stderr, standard input named as input_name() names it, and
/// where a node type is unknown, where to find the known ones.
void print_diagnostics(const std::vector<diagnostic>& diagnostics);

/// Writes `text` to `path`; says why on stderr ("PATH: error: cannot write the WHAT: ...")
/// and returns false if that fails, at opening, writing or closing.
bool write_file(const std::string& path, const std::string& text, const std::string& what = "file");

/// Writes a command's text to `path`, or to standard output when `path` is empty; the exit
/// code: 0, or 1 when it cannot be written.
int write_output(const std::string& path, const std::string& text);

/// A number as its shortest text that reads back the same: 0.1, 1e+308.
std::string number_text(double value);

/// A whole number in [minimum, maximum], its bounds said as whole numbers.
CLI::Validator whole_number(std::uint64_t minimum, std::uint64_t maximum, std::string name);

inline constexpr std::uint64_t unbounded = std::numeric_limits<std::uint64_t>::max();

/// The longest time step an agent takes (agent::tick): a year, in seconds.
inline constexpr double longest_time_step = 365.0 * 24 * 3600;

/// --dt: a time step, a finite number of seconds from 0 to a year (CLI11's ranges let "nan"
/// through).
CLI::Validator time_step();

/// Progress of long work on stderr, when stderr is a terminal and the work lasts: never in a
/// pipe or a file, so that logs and tests stay clean. The line is erased when it is done.
/// The clock is read every `stride` updates, so that a quick step costs next to nothing.
class progress {
public:
    progress(std::string what, std::uint64_t total, std::uint64_t stride = 1);
    ~progress();
    progress(const progress&) = delete;
    progress& operator=(const progress&) = delete;
    void update(std::uint64_t done) {
        if (shown_ && done % stride_ == 0) show(done);
    }

private:
    void show(std::uint64_t done);
    std::string what_;
    std::uint64_t total_;
    std::uint64_t stride_;
    bool shown_;
    bool drawn_ = false;
    std::int64_t start_ns_;
    std::int64_t last_ns_ = 0;
};

/// Set by SIGINT or SIGTERM once stop_on_signals() has run: `--watch` runs until then.
inline volatile std::sig_atomic_t stop_signal = 0;

/// Makes SIGINT (Ctrl-C) and SIGTERM ask a watching command to stop, print what it prints at
/// the end, and exit, rather than die where it stands.
inline void stop_on_signals() {
    std::signal(SIGINT, [](int) { stop_signal = 1; });
    std::signal(SIGTERM, [](int) { stop_signal = 1; });
}

inline bool stop_requested() {
    return stop_signal != 0;
}

void add_print_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);
void add_types_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_convert_command(CLI::App& app, int& exit_code);
void add_dot_command(CLI::App& app, int& exit_code);
void add_schema_command(CLI::App& app, int& exit_code);
void add_models_command(CLI::App& app, int& exit_code);
void add_html_command(CLI::App& app, int& exit_code);
void add_test_command(CLI::App& app, int& exit_code);

}  // namespace canopy::cli
