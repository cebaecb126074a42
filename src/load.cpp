#include "canopy/load.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "canopy/build.hpp"
#include "canopy/error.hpp"
#include "diagnostic_order.hpp"
#include "formats/readers.hpp"

namespace canopy {
namespace {

bool is_blank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Reads a whole file straight into the string that will hold it: one copy from the page
// cache. The size is a hint only; a file that grows or shrinks meanwhile is read as it is.
std::optional<std::string> read_file(const std::filesystem::path& path, std::string& problem) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        problem = "cannot read: it is a directory";
        return std::nullopt;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) {
        problem = std::string("cannot open: ") + std::strerror(errno);
        return std::nullopt;
    }
    std::string text;
    std::uintmax_t expected = std::filesystem::file_size(path, ec);
    text.resize(ec ? 0 : static_cast<std::size_t>(expected) + 1);  // +1 to see the end
    std::size_t size = 0;
    for (;;) {
        if (size == text.size()) text.resize(std::max<std::size_t>(2 * size, 1 << 16));
        std::size_t got = std::fread(text.data() + size, 1, text.size() - size, file.get());
        size += got;
        if (got == 0) break;
    }
    if (std::ferror(file.get()) != 0) {
        problem = std::string("cannot read: ") + std::strerror(errno);
        return std::nullopt;
    }
    text.resize(size);
    return text;
}

load_result failure(const std::string& path, diagnostic_code code, std::string message) {
    load_result result;
    result.diagnostics.push_back({path, {}, std::nullopt, code, std::move(message)});
    return result;
}

}  // namespace

std::optional<file_format> format_for_path(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".json") return file_format::flat_json;
    if (extension == ".xml") return file_format::flat_xml;
    return std::nullopt;
}

read_result read_records(std::string_view text, file_format format, const std::string& path) {
    if (is_blank(text)) {
        read_result result;
        result.complete = false;
        result.diagnostics.push_back({path,
                                      {},
                                      std::nullopt,
                                      diagnostic_code::empty_file,
                                      "the file is empty; a tree needs at least its root node"});
        return result;
    }
    return format == file_format::flat_json ? detail::read_flat_json(text, path)
                                            : detail::read_flat_xml(text, path);
}

namespace {

load_result build_from(read_result read, const registry& reg, const std::string& path) {
    if (!read.complete) {
        detail::sort_by_location(read.diagnostics);
        return {nullptr, std::move(read.diagnostics)};
    }
    load_result built = build_tree(std::move(read.records), reg, path);
    if (read.diagnostics.empty()) return built;
    // A problem the reader found (a misspelled key, say) must not pass silently, so even a
    // tree the builder could make is refused.
    built.tree.reset();
    read.diagnostics.insert(read.diagnostics.end(),
                            std::make_move_iterator(built.diagnostics.begin()),
                            std::make_move_iterator(built.diagnostics.end()));
    detail::sort_by_location(read.diagnostics);
    return {nullptr, std::move(read.diagnostics)};
}

}  // namespace

load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path) {
    return build_from(read_records(text, format, path), reg, path);
}

load_result try_load_file(const std::filesystem::path& path, const registry& reg) {
    const std::string name = path.string();
    std::optional<file_format> format = format_for_path(path);
    if (!format) {
        std::string extension = path.extension().string();
        return failure(name, diagnostic_code::unknown_format,
                       (extension.empty() ? std::string("the file has no extension")
                                          : "unknown file extension '" + extension + "'") +
                           "; expected .json (flat JSON) or .xml (flat XML)");
    }
    std::string problem;
    std::optional<std::string> text = read_file(path, problem);
    if (!text) return failure(name, diagnostic_code::io_error, problem);
    read_result read = read_records(*text, *format, name);
    text.reset();  // the records hold all that is needed; free the bytes before building
    return build_from(std::move(read), reg, name);
}

std::shared_ptr<const tree> load_file(const std::filesystem::path& path, const registry& reg) {
    load_result result = try_load_file(path, reg);
    if (!result) throw load_error(std::move(result.diagnostics));
    return std::move(result.tree);
}

}  // namespace canopy
