#include <fstream>
#include <iostream>

#include "canopy/load.hpp"
#include "canopy/tree.hpp"
#include "canopy/write.hpp"
#include "commands.hpp"

namespace canopy::cli {
namespace {

struct convert_options {
    std::string in;
    std::string out;
    std::string to;  // a format's name; empty: from OUT's extension
};

std::string format_names() {
    std::string names;
    for (const format_info& row : formats()) {
        names += (names.empty() ? "'" : ", '") + std::string(row.name) + "'";
    }
    return names;
}

// The format to write: --to's, else the one OUT's extension names.
std::optional<file_format> target_format(const convert_options& o) {
    if (o.to.empty()) return format_for_path(o.out);
    for (const format_info& row : formats()) {
        if (row.name == o.to) return row.id;
    }
    return std::nullopt;
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand("convert", "Write a tree file in another format");
    auto o = std::make_shared<convert_options>();
    command->add_option("IN", o->in, "Tree file to read")->required();
    command->add_option("OUT", o->out, "File to write (replaced if it exists)")->required();
    command->add_option("--to", o->to,
                        "Format to write, if not OUT's extension's: " + format_names());
    command->footer(
        "The written file reads back as the same tree: structure, types, describes,"
        " parameters, blackboard bindings and the keys the file declares.");
    command->callback([o, &exit_code] {
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
        load_result loaded = try_load_file(o->in, cli_registry());
        for (const diagnostic& d : loaded.diagnostics) std::cerr << d << '\n';
        if (!loaded) {
            exit_code = 1;
            return;
        }
        const std::string text = write_text(*loaded.tree, *format);
        std::ofstream out(o->out, std::ios::binary);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.close();
        if (!out) {
            std::cerr << o->out << ": error: cannot write the file\n";
            exit_code = 1;
            return;
        }
        exit_code = 0;
    });
}

}  // namespace canopy::cli
