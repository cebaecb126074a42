// canopy: load, check, print, run and convert behavior tree files.
// Exit codes: 0 success, 1 invalid input, 2 wrong usage.
#include <csignal>
#include <exception>
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
    // A closed pipe (`canopy print big.json | head`) must end in an error code, not a signal.
    std::signal(SIGPIPE, SIG_IGN);
    try {
        CLI::App app{"Load, check, print and run data-driven behavior trees.", "canopy"};
        app.require_subcommand(1);
        app.set_version_flag("--version", "canopy 0.1.0");
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
        try {
            app.parse(argc, argv);
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
