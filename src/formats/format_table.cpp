// The one list of the formats Canopy reads and writes: adding a format is a reader, a writer
// and a row here.
#include <algorithm>
#include <cctype>

#include "canopy/format.hpp"
#include "diagnostic_sink.hpp"
#include "readers.hpp"

namespace canopy {
namespace {

std::string_view skip_space(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    return first == std::string_view::npos ? std::string_view() : text.substr(first);
}

bool looks_like_json(std::string_view text) {
    const std::string_view start = skip_space(text);
    return !start.empty() && (start.front() == '{' || start.front() == '[');
}

bool looks_like_xml(std::string_view text) {
    const std::string_view start = skip_space(text);
    return !start.empty() && start.front() == '<';
}

std::string lower_extension(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension;
}

bool lists(const format_info& row, std::string_view extension) {
    return std::find(row.extensions.begin(), row.extensions.end(), extension) !=
           row.extensions.end();
}

}  // namespace

const std::vector<format_info>& formats() {
    static const std::vector<format_info> table = {
        {file_format::flat_json,
         "flat JSON",
         {".json"},
         looks_like_json,
         detail::read_flat_json,
         detail::write_flat_json},
        {file_format::flat_xml,
         "flat XML",
         {".xml"},
         looks_like_xml,
         detail::read_flat_xml,
         detail::write_flat_xml},
    };
    return table;
}

const format_info& info(file_format format) {
    for (const format_info& row : formats()) {
        if (row.id == format) return row;
    }
    return formats().front();  // every enumerator has a row; see formats()
}

std::optional<file_format> format_for_path(const std::filesystem::path& path) {
    const std::string extension = lower_extension(path);
    for (const format_info& row : formats()) {
        if (lists(row, extension)) return row.id;
    }
    return std::nullopt;
}

std::optional<file_format> detect_format(const std::filesystem::path& path, std::string_view text) {
    const std::string extension = lower_extension(path);
    for (const format_info& row : formats()) {
        if (lists(row, extension) && row.claims(text)) return row.id;
    }
    return format_for_path(path);
}

read_result read_records(std::string_view text, file_format format, const std::string& path) {
    if (skip_space(text).empty()) {
        read_result result;
        result.complete = false;
        detail::diagnostic_sink(path, result.diagnostics)
            .report_file(diagnostic_code::empty_file,
                         "the file is empty; a tree needs at least its root node");
        return result;
    }
    return info(format).read(text, path);
}

}  // namespace canopy
