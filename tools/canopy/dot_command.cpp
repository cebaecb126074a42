// canopy dot: a tree as a Graphviz DOT graph, for `dot -Tsvg`.
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
    command->add_option("FILE", *file, "Tree file (see docs/formats.md); - reads standard input")
        ->required();
    command->add_option("-o,--output", *out, "File to write (default: standard output)");
    add_reading_options(*command, *options);
    command->footer(
        "Draw it with Graphviz: canopy dot data/hornet.json | dot -Tsvg -o hornet.svg. "
        "Composites are boxes, decorators hexagons, leaves rounded boxes; each subtree's "
        "nodes sit in a dashed cluster named after its tree.");
    command->callback([file, out, options, &exit_code] {
        load_result loaded = load_tree(*file, *options);
        print_diagnostics(loaded.diagnostics);
        if (!loaded) {
            exit_code = 1;
            return;
        }
        exit_code = write_output(*out, to_dot(*loaded.tree));
    });
}

}  // namespace canopy::cli
