#include <iostream>

#include "canopy/load/load.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/views/convert.hpp"
#include "canopy/views/print.hpp"
#include "commands.hpp"

namespace canopy::cli {

void add_print_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand("print", "Print a tree's structure, one node per line");
    auto file = std::make_shared<std::string>();
    auto options = std::make_shared<load_options>();
    command->add_option("FILE", *file, "Tree file (see docs/formats.md); - reads standard input")
        ->required();
    auto verbose = std::make_shared<bool>(false);
    add_reading_options(*command, *options);
    add_substitute_option(*command, *options);  // --verbose shows what replaces what
    command->add_flag("--verbose", *verbose,
                      "Show each node's editor metadata (a file's _collapsed, _description, ...) "
                      "after it, and the tree's on a first line");
    auto structure = std::make_shared<bool>(false);
    command
        ->add_flag("--structure", *structure,
                   "Print in Canopy's words: the registered types, the conditions and no "
                   "other parameter, as every format that says the tree prints it")
        ->excludes("--verbose");
    auto meaning = std::make_shared<bool>(false);
    command
        ->add_flag("--meaning", *meaning,
                   "Print what `canopy convert` compares (canopy::meaning_text): the tree in "
                   "Canopy's words with every parameter, its defaults included, and its keys")
        ->excludes("--verbose")
        ->excludes("--structure");
    command->footer(
        "Each line: Type \"describe\" #id name=value..., in the file's words, indented two "
        "spaces per level.");
    command->callback([file, options, verbose, structure, meaning, &exit_code] {
        load_result loaded = load_tree(*file, *options);
        print_diagnostics(loaded.diagnostics);
        if (!loaded) {
            exit_code = 1;
            return;
        }
        if (*meaning) {
            std::cout << meaning_text(*loaded.tree);
        } else if (*structure) {
            std::cout << to_canopy_text(*loaded.tree);
        } else {
            print(*loaded.tree, std::cout, *verbose);
        }
        std::cout.flush();
        exit_code = std::cout ? 0 : 1;
    });
}

}  // namespace canopy::cli
