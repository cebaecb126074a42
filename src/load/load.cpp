// The public loading functions (canopy/load/load.hpp), over the loader (loader.hpp).
#include "canopy/load/load.hpp"

#include "canopy/core/error.hpp"
#include "load/file_set.hpp"
#include "load/foreign_types.hpp"
#include "load/loader.hpp"

namespace canopy {

using detail::loader;
using detail::tree_ref;

load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path, const load_options& options) {
    loader load(reg, options);
    return load.load(load.files().open_text(text, format, path));
}

load_result try_load_stream(std::FILE* stream, file_format format, const registry& reg,
                            const std::string& name, const load_options& options) {
    std::string problem;
    bool too_large = false;
    std::optional<std::string> text =
        detail::read_all(stream, std::nullopt, problem, options.max_file_bytes, too_large,
                         detail::syntax_of(format));
    if (!text) {
        const diagnostic_code code =
            too_large ? diagnostic_code::limit_exceeded : diagnostic_code::io_error;
        return {nullptr, {{name, {}, std::nullopt, code, problem}}};
    }
    return try_load_text(*text, format, reg, name, options);
}

load_result try_load_file(const std::filesystem::path& path, const registry& reg,
                          const load_options& options) {
    loader load(reg, options);
    return load.load(load.files().open(path, options.format));
}

load_result try_load_file(const std::filesystem::path& path, const registry& reg,
                          const load_options& options,
                          std::vector<std::filesystem::path>& files_read) {
    loader load(reg, options);
    load_result result = load.load(load.files().open(path, options.format));
    files_read = load.files().files_met();
    return result;
}

file_read_result read_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
    file_read_result result;
    bool too_large = false;
    result.text = detail::read_whole_file(path, result.problem, max_bytes, too_large,
                                          detail::text_syntax::any);
    return result;
}

std::shared_ptr<const tree> load_file(const std::filesystem::path& path, const registry& reg,
                                      const load_options& options) {
    load_result result = try_load_file(path, reg, options);
    if (!result) throw load_error(std::move(result.diagnostics));
    return std::move(result.tree);
}

file_load_result try_load_every_tree(const std::filesystem::path& path, const registry& reg,
                                     const load_options& options) {
    loader load(reg, options);
    file_load_result result;
    std::optional<std::size_t> f = load.files().open(path, options.format);
    if (f) {
        load.prepare();
        // A project's trees are those of the files it includes.
        std::vector<tree_ref> trees = load.project_trees(*f);
        if (!load.files().file(*f).document.trees.empty()) {
            trees.resize(load.files().file(*f).document.trees.size());
        }
        if (trees.empty()) load.choose(*f);  // says why there is nothing to check
        for (tree_ref ref : trees) {
            std::shared_ptr<const tree> built = load.build(ref, false);
            if (built) result.trees.emplace_back(built->name(), std::move(built));
        }
    }
    load_result all = load.finish(nullptr);
    result.diagnostics = std::move(all.diagnostics);
    if (has_errors(result.diagnostics)) result.trees.clear();
    return result;
}

registry learn_node_types(const std::filesystem::path& path, const registry& reg,
                          std::vector<diagnostic>& problems) {
    loader load(reg, {});
    registry learned;
    if (load.files().open(path)) {
        load.files().open_subtree_files();
        learned = detail::learn_types(load.files(), reg);
    }
    load.files().add_referrer_notes(load.diagnostics());
    detail::tidy(load.diagnostics());
    problems = std::move(load.diagnostics());
    return learned;
}

}  // namespace canopy
