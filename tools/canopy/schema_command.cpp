// canopy schema: the JSON Schema of flat JSON for the CLI's node types.
#include "canopy/views/schema.hpp"
#include "commands.hpp"

namespace canopy::cli {

void add_schema_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "schema",
        "Write the JSON Schema (draft 2020-12) of flat JSON tree files for the node types");
    auto out = std::make_shared<std::string>();
    command->add_option("-o,--output", *out, "File to write (default: standard output)");
    add_plugin_option(*command);
    command->footer(
        "A tree file that names the schema in \"$schema\" gets completion and checking in "
        "editors that read JSON Schema, VS Code among them.");
    command->callback(
        [out, &exit_code] { exit_code = write_output(*out, json_schema(cli_registry())); });
}

}  // namespace canopy::cli
