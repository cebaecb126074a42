// canopy: load, check, print, run and convert behavior tree files.
// Exit codes: 0 success, 1 invalid input, 2 wrong usage.
#include <algorithm>
#include <csignal>
#include <exception>
#include <iostream>
#include <string_view>

#include "canopy/core/version.hpp"
#include "commands.hpp"

namespace {

// The fewest insertions, deletions and substitutions that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + substitution});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The candidate a mistyped word most likely meant, or "" if none is close enough to guess.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
    const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
    std::string best;
    std::size_t best_distance = allowed + 1;
    for (const std::string& candidate : candidates) {
        const std::size_t distance = edit_distance(word, candidate);
        if (distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

int usage_error(const std::string& message) {
    std::cerr << message << "\nRun with --help for more information.\n";
    return 2;
}

// The first word that is not an option names the command: one the app does not have is
// refused with the nearest name, before CLI11 would say only that a command is required.
std::optional<int> check_command_name(CLI::App& app, int argc, char** argv) {
    std::vector<std::string> names;
    for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
        names.push_back(command->get_name());
    }
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        if (word.empty() || word[0] == '-') continue;
        if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
        const std::string guess = nearest(word, names);
        std::string list;
        for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
        return usage_error(
            "unknown command '" + word + "' " +
            (guess.empty() ? "(commands: " + list + ")" : "(did you mean '" + guess + "'?)"));
    }
    return std::nullopt;
}

// The long and short names of a command's options, those of its option groups included.
void option_names(CLI::App& command, std::vector<std::string>& names) {
    for (const CLI::Option* option : command.get_options()) {
        for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
        for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    }
    for (CLI::App* group : command.get_subcommands([](CLI::App*) { return true; })) {
        if (group->get_name().empty() || !group->get_group().empty()) option_names(*group, names);
    }
}

// An unknown option, with the nearest the command has; nothing if no option is unknown.
std::optional<int> suggest_option(CLI::App& app) {
    std::vector<CLI::App*> commands = app.get_subcommands();
    commands.push_back(&app);
    for (CLI::App* command : commands) {
        for (const std::string& word : command->remaining()) {
            if (word.size() < 2 || word[0] != '-') continue;
            const std::string option = word.substr(0, word.find('='));
            std::vector<std::string> names;
            option_names(*command, names);
            const std::string guess = nearest(option, names);
            return usage_error("unknown option '" + option + "'" +
                               (guess.empty() ? "" : " (did you mean '" + guess + "'?)"));
        }
    }
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
    // A closed pipe (`canopy print big.json | head`) must end in an error code, not a signal.
    std::signal(SIGPIPE, SIG_IGN);
    try {
        CLI::App app{"Load, check, print and run data-driven behavior trees.", "canopy"};
        app.require_subcommand(1);
        app.set_version_flag("--version", "canopy " CANOPY_VERSION);
        int exit_code = 0;
        canopy::cli::add_print_command(app, exit_code);
        canopy::cli::add_validate_command(app, exit_code);
        canopy::cli::add_types_command(app, exit_code);
        canopy::cli::add_run_command(app, exit_code);
        canopy::cli::add_convert_command(app, exit_code);
        canopy::cli::add_dot_command(app, exit_code);
        canopy::cli::add_schema_command(app, exit_code);
        canopy::cli::add_models_command(app, exit_code);
        canopy::cli::add_html_command(app, exit_code);
        canopy::cli::add_test_command(app, exit_code);
        if (std::optional<int> refused = check_command_name(app, argc, argv)) return *refused;
        try {
            app.parse(argc, argv);
        } catch (const CLI::ExtrasError& e) {
            if (std::optional<int> refused = suggest_option(app)) return *refused;
            return app.exit(e) == 0 ? 0 : 2;
        } catch (const CLI::ParseError& e) {
            int code = app.exit(e);
            return code == 0 ? 0 : 2;  // --help and --version succeed; anything else is usage
        }
        return exit_code;
    } catch (const std::exception& e) {
        std::cerr << "canopy: error: " << e.what() << '\n';
        return 1;
    }
}
