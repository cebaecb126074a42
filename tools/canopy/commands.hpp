#pragma once
// Each subcommand lives in its own file and registers itself on the CLI11 app with one of
// these. A subcommand's callback stores its exit code: 0 success, 1 invalid input.

#include <CLI/CLI.hpp>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "canopy/load/load.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::cli {

/// The registry the CLI loads with: the built-in nodes and every demo node pack, so that
/// each tree in data/ loads and runs.
const registry& cli_registry();

/// --from FORMAT: read the file as a format named in the format table.
inline void add_from_option(CLI::App& command, load_options& options) {
    std::string names;
    for (const format_info& row : formats()) {
        names += (names.empty() ? "'" : ", '") + std::string(row.name) + "'";
    }
    command.add_option_function<std::string>(
        "--from",
        [&options](const std::string& name) {
            for (const format_info& row : formats()) {
                if (row.name == name) {
                    options.format = row.id;
                    return;
                }
            }
            throw CLI::ValidationError("--from", "unknown format '" + name + "'");
        },
        "Read the file as this format, whatever its extension and content say: " + names);
}

/// --tree NAME and, where `lenient` is offered, --lenient.
inline void add_tree_options(CLI::App& command, load_options& options, bool lenient) {
    command.add_option("--tree", options.tree,
                       "The tree to use, by name, where the file holds several (default: its "
                       "main tree)");
    add_from_option(command, options);
    if (lenient) {
        command.add_flag("--lenient", options.lenient,
                         "Take node types the program does not know from the file's node models "
                         "or from their shape (see docs/formats.md)");
    }
}

/// Writes a command's text to `path`, or to standard output when `path` is empty; the exit
/// code: 0, or 1 with a message naming the file when it cannot be written.
inline int write_output(const std::string& path, const std::string& text) {
    if (path.empty()) {
        std::cout << text;
        std::cout.flush();
        return std::cout ? 0 : 1;
    }
    std::ofstream written(path, std::ios::binary);
    written << text;
    written.close();
    if (!written) {
        std::cerr << path << ": error: cannot write the file\n";
        return 1;
    }
    return 0;
}

/// --dt: a time step, a finite number of seconds, 0 or more (CLI11's ranges let "nan" through).
inline const CLI::Validator time_step(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0) {
            return "expected a number of seconds, 0 or more, not '" + text + "'";
        }
        return {};
    },
    "SECONDS");

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

}  // namespace canopy::cli
