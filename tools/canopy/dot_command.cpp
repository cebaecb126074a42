// canopy dot: a tree as a Graphviz DOT graph, for `dot -Tsvg`.
#include <fstream>
#include <iostream>

#include "canopy/load/load.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/views/dot.hpp"
#include "commands.hpp"

namespace canopy::cli {

void add_dot_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand("dot", "Write a tree as a Graphviz DOT graph");
    auto file = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto options = std::make_shared<load_options>();
    command->add_option("FILE", *file, "Tree file (see docs/formats.md)")->required();
    command->add_option("-o,--output", *out, "File to write (default: standard output)");
    add_tree_options(*command, *options, true);
    command->footer(
        "Draw it with Graphviz: canopy dot data/hornet.json | dot -Tsvg -o hornet.svg. "
        "Composites are boxes, decorators hexagons, leaves rounded boxes; each subtree's "
        "nodes sit in a dashed cluster named after its tree.");
    command->callback([file, out, options, &exit_code] {
        load_result loaded = try_load_file(*file, cli_registry(), *options);
        for (const diagnostic& d : loaded.diagnostics) std::cerr << d << '\n';
        if (!loaded) {
            exit_code = 1;
            return;
        }
        const std::string graph = to_dot(*loaded.tree);
        if (out->empty()) {
            std::cout << graph;
            std::cout.flush();
            exit_code = std::cout ? 0 : 1;
            return;
        }
        std::ofstream written(*out, std::ios::binary);
        written << graph;
        written.close();
        if (!written) std::cerr << *out << ": error: cannot write the file\n";
        exit_code = written ? 0 : 1;
    });
}

}  // namespace canopy::cli
