// canopy models: the CLI's node types as an editor's palette (Groot2, behavior3editor).
#include "canopy/views/palette.hpp"
#include "commands.hpp"

namespace canopy::cli {

void add_models_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "models", "Write the node types as an editor's palette: Groot2 or behavior3editor");
    auto format = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    command
        ->add_option("--format", *format,
                     "groot: a Groot2 palette (BehaviorTree.CPP 4 <TreeNodesModel>) of the types "
                     "BehaviorTree.CPP lacks; b3: behavior3editor's node definitions "
                     "(node-config.b3-setting) of every type")
        ->required()
        ->check(CLI::IsMember({"groot", "b3"}));
    command->add_option("-o,--output", *out, "File to write (default: standard output)");
    add_plugin_option(*command);
    command->footer(
        "Trees drawn with the palette load in Canopy; see docs/editing.md. With --plugin: the "
        "program's types and the built-in ones.");
    command->callback([format, out, &exit_code] {
        const file_format as = *format == "groot" ? file_format::btcpp_xml : file_format::behavior3;
        exit_code = write_output(*out, write_palette(cli_registry(), as));
    });
}

}  // namespace canopy::cli
