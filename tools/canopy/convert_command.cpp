#include <fstream>
#include <iostream>

#include "canopy/load/load.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/views/convert.hpp"
#include "commands.hpp"

namespace canopy::cli {
namespace {

struct convert_options {
    std::string in;
    std::string out;
    std::string to;  // a format's name; empty: from OUT's extension
    load_options load;
};

// The format to write: --to's, else the one OUT's extension names.
std::optional<file_format> target_format(const convert_options& o) {
    return o.to.empty() ? format_for_path(o.out) : find_format(o.to);
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand("convert", "Write a tree file in another format");
    auto o = std::make_shared<convert_options>();
    command->add_option("IN", o->in, "Tree file to read; - reads standard input")->required();
    command->add_option("OUT", o->out, "File to write (replaced if it exists)")->required();
    command->add_option("--to", o->to,
                        "Format to write, if not OUT's extension's (any case): " + format_names());
    add_reading_options(*command, o->load);
    command->footer(
        "Every tree of IN is checked and written; the written file reads back as the same "
        "trees: structure, types, describes, parameters, blackboard bindings, the keys the "
        "file declares and its subtrees. What OUT's format cannot say is reported, and then "
        "nothing is written: what would be written is read back first, and a tree that would "
        "read back otherwise is refused, naming the first difference. A format of one tree per "
        "file writes each further tree beside "
        "OUT.");
    command->callback([o, &exit_code] {
        if (!o->load.tree.empty()) {
            throw CLI::ValidationError("--tree",
                                       "convert writes every tree of IN; it takes no --tree");
        }
        const std::string in = input_path(o->in, o->load);
        const std::optional<file_format> format = target_format(*o);
        if (!format) {
            std::cerr << (o->to.empty() ? o->out +
                                              ": error: cannot tell the format to write "
                                              "from the extension; give --to"
                                        : "--to: unknown format '" + o->to + "'")
                      << " (formats: " << format_names() << ")\n";
            exit_code = 2;
            return;
        }
        const conversion converted = convert_file(in, o->out, *format, cli_registry(), o->load);
        std::vector<diagnostic> loading;
        std::vector<diagnostic> unsayable;
        for (const diagnostic& d : converted.diagnostics) {
            (d.code == diagnostic_code::not_expressible ? unsayable : loading).push_back(d);
        }
        print_diagnostics(loading);
        for (diagnostic d : unsayable) {
            d.path = input_name(d.path);
            std::cerr << d << " (" << info(*format).name << " cannot say it)\n";
        }
        if (!converted) {
            exit_code = 1;
            return;
        }
        const std::filesystem::path folder = std::filesystem::path(o->out).parent_path();
        exit_code = write_file(o->out, converted.text) ? 0 : 1;
        for (const auto& [name, text] : converted.files) {
            if (!write_file((folder / name).string(), text)) exit_code = 1;
        }
    });
}

}  // namespace canopy::cli
