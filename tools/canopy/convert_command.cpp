#include <fstream>
#include <iostream>

#include "canopy/load/load.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/views/write.hpp"
#include "commands.hpp"

namespace canopy::cli {
namespace {

struct convert_options {
    std::string in;
    std::string out;
    std::string to;     // a format's name; empty: from OUT's extension
    load_options load;  // --lenient
};

bool write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) std::cerr << path.string() << ": error: cannot write the file\n";
    return static_cast<bool>(out);
}

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
    add_from_option(*command, o->load);
    command->add_flag("--lenient", o->load.lenient,
                      "Take node types the program does not know from the file's node models "
                      "or from their shape (see docs/formats.md)");
    command->footer(
        "Every tree of IN is checked and written; the written file reads back as the same "
        "trees: structure, types, describes, parameters, blackboard bindings, the keys the "
        "file declares and its subtrees. What OUT's format cannot say is reported, and then "
        "nothing is written. A format of one tree per file writes each further tree beside "
        "OUT.");
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
        document_load_result loaded = try_load_document(o->in, cli_registry(), o->load);
        for (const diagnostic& d : loaded.diagnostics) std::cerr << d << '\n';
        if (!loaded) {
            exit_code = 1;
            return;
        }
        const write_result written = info(*format).write(loaded.document);
        for (diagnostic d : written.problems) {
            d.path = o->in;
            std::cerr << d << " (" << info(*format).name << " cannot say it)\n";
        }
        if (!written.problems.empty()) {
            exit_code = 1;
            return;
        }
        const std::filesystem::path folder = std::filesystem::path(o->out).parent_path();
        exit_code = write_file(o->out, written.text) ? 0 : 1;
        for (const auto& [name, text] : written.files) {
            if (!write_file(folder / name, text)) exit_code = 1;
        }
    });
}

}  // namespace canopy::cli
