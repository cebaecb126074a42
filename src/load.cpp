#include "canopy/load.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "canopy/build.hpp"
#include "canopy/error.hpp"
#include "diagnostic_sink.hpp"

namespace canopy {
namespace {

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
    detail::diagnostic_sink(path, result.diagnostics).report_file(code, std::move(message));
    return result;
}

}  // namespace

namespace {

load_result build_from(read_result read, const registry& reg, const std::string& path) {
    if (!read.complete) {
        detail::diagnostic_sink::sort(read.diagnostics);
        return {nullptr, std::move(read.diagnostics)};
    }
    load_result built = build_tree(std::move(read.document.trees.front()), reg, path);
    if (read.diagnostics.empty()) return built;
    // A problem the reader found (a misspelled key, say) must not pass silently, so even a
    // tree the builder could make is refused.
    built.tree.reset();
    read.diagnostics.insert(read.diagnostics.end(),
                            std::make_move_iterator(built.diagnostics.begin()),
                            std::make_move_iterator(built.diagnostics.end()));
    detail::diagnostic_sink::sort(read.diagnostics);
    return {nullptr, std::move(read.diagnostics)};
}

}  // namespace

load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path) {
    return build_from(read_records(text, format, path), reg, path);
}

load_result try_load_file(const std::filesystem::path& path, const registry& reg) {
    const std::string name = path.string();
    if (!format_for_path(path)) {
        std::string extension = path.extension().string();
        std::string known;
        for (const format_info& row : formats()) {
            for (std::string_view listed : row.extensions) {
                known += (known.empty() ? "" : " or ") + std::string(listed) + " (" +
                         std::string(row.name) + ")";
            }
        }
        return failure(name, diagnostic_code::unknown_format,
                       (extension.empty() ? std::string("the file has no extension")
                                          : "unknown file extension '" + extension + "'") +
                           "; expected " + known);
    }
    std::string problem;
    std::optional<std::string> text = read_file(path, problem);
    if (!text) return failure(name, diagnostic_code::io_error, problem);
    const std::optional<file_format> format = detect_format(path, *text);
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
