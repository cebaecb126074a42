#include <iostream>

#include "canopy/load.hpp"
#include "canopy/tree.hpp"
#include "commands.hpp"

namespace canopy::cli {

void add_validate_command(CLI::App& app, int& exit_code) {
    auto* command =
        app.add_subcommand("validate", "Check tree files and report every problem in each");
    auto files = std::make_shared<std::vector<std::string>>();
    command->add_option("FILE", *files, "Tree files (.json or .xml)")->required();
    command->footer(
        "Prints 'FILE: ok (N nodes)' for each valid file and path:line:col: error: ... "
        "on stderr for each problem; exits 1 if any file is invalid.");
    command->callback([files, &exit_code] {
        exit_code = 0;
        for (const std::string& file : *files) {
            load_result loaded = try_load_file(file, cli_registry());
            for (const diagnostic& d : loaded.diagnostics) std::cerr << d << '\n';
            if (loaded) {
                std::size_t nodes = loaded.tree->size();
                std::cout << file << ": ok (" << nodes << (nodes == 1 ? " node)\n" : " nodes)\n");
            } else {
                exit_code = 1;
            }
        }
    });
}

}  // namespace canopy::cli
