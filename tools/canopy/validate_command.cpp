#include <iostream>

#include "canopy/load.hpp"
#include "canopy/tree.hpp"
#include "commands.hpp"

namespace canopy::cli {

void add_validate_command(CLI::App& app, int& exit_code) {
    auto* command =
        app.add_subcommand("validate", "Check tree files and report every problem in each");
    auto files = std::make_shared<std::vector<std::string>>();
    auto options = std::make_shared<load_options>();
    command->add_option("FILE", *files, "Tree files (see docs/formats.md)")->required();
    add_from_option(*command, *options);
    command->add_flag("--lenient", options->lenient,
                      "Take node types the program does not know from the file's node models "
                      "or from their shape (see docs/formats.md)");
    command->footer(
        "Checks every tree of each file, used or not. Prints 'FILE: ok (N nodes)' for each "
        "valid file (with the trees' names and sizes where it holds several) and "
        "path:line:col: error: ... on stderr for each problem; exits 1 if any file is invalid.");
    command->callback([files, options, &exit_code] {
        exit_code = 0;
        for (const std::string& file : *files) {
            file_load_result loaded = try_load_every_tree(file, cli_registry(), *options);
            for (const diagnostic& d : loaded.diagnostics) std::cerr << d << '\n';
            if (!loaded) {
                exit_code = 1;
                continue;
            }
            auto nodes = [](std::size_t n) {
                return std::to_string(n) + (n == 1 ? " node" : " nodes");
            };
            std::cout << file << ": ok (";
            if (loaded.trees.size() == 1) {
                std::cout << nodes(loaded.trees[0].second->size());
            } else {
                std::cout << loaded.trees.size() << " trees: ";
                for (std::size_t t = 0; t < loaded.trees.size(); ++t) {
                    std::cout << (t == 0 ? "" : ", ") << loaded.trees[t].first << " "
                              << nodes(loaded.trees[t].second->size());
                }
            }
            std::cout << ")\n";
        }
    });
}

}  // namespace canopy::cli
