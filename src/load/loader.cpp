#include "load/loader.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_set>
#include <utility>

#include "load/behavior3_slots.hpp"
#include "load/expand.hpp"
#include "load/foreign_types.hpp"
#include "load/stub_node.hpp"
#include "load/substitute.hpp"
#include "load/subtree_node.hpp"

namespace canopy::detail {
namespace {

// Whether some SubTree record names a tree to put in its place. One with a child holds its
// tree already, as a tree written back from memory does (canopy/views/write.hpp).
bool uses_subtrees(const record_set& records) {
    const std::vector<std::string>& names = records.type_names();
    if (std::find(names.begin(), names.end(), subtree_type_name) == names.end()) {
        return false;
    }
    std::unordered_set<std::int64_t> parents;
    for (std::size_t i = 0; i < records.size(); ++i) parents.insert(records.parent_id(i));
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records.type_name(i) == subtree_type_name && parents.count(records.id(i)) == 0)
            return true;
    }
    return false;
}

// Adds the names of the trees a tree's SubTree records use.
void add_used_trees(const record_set& records, std::unordered_set<std::string>& used) {
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records.type_name(i) != subtree_type_name) continue;
        if (const std::string* tree = records.text_param(i, "tree")) used.insert(*tree);
    }
}

// The trees of a file that no tree of the file uses as a subtree.
std::vector<std::size_t> unused_trees(const tree_document& document) {
    std::unordered_set<std::string> used;
    for (const record_set& records : document.trees) add_used_trees(records, used);
    std::vector<std::size_t> unused;
    for (std::size_t t = 0; t < document.trees.size(); ++t) {
        if (used.count(document.trees[t].name()) == 0) unused.push_back(t);
    }
    return unused;
}

std::string tree_list(const tree_document& document, const std::vector<std::size_t>& trees) {
    std::string list;
    for (std::size_t t : trees) {
        list += (list.empty() ? "" : ", ") + std::string("'") + document.trees[t].name() + "'";
    }
    return list;
}

// A file, or each tree file of a folder (by extension, in name order); a folder without
// any is reported.
std::vector<std::filesystem::path> tree_files(const std::filesystem::path& path,
                                              std::vector<diagnostic>& problems) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) return {path};
    std::vector<std::filesystem::path> found;
    for (std::filesystem::directory_iterator entry(path, ec), end; !ec && entry != end;
         entry.increment(ec)) {
        if (entry->is_regular_file(ec) && format_for_path(entry->path()))
            found.push_back(entry->path());
    }
    std::sort(found.begin(), found.end());
    if (found.empty()) {
        problems.push_back({path.string(),
                            {},
                            std::nullopt,
                            diagnostic_code::io_error,
                            ec ? "cannot read the folder: " + ec.message()
                               : std::string("the folder holds no tree file")});
    }
    return found;
}

// How to name the tree to build.
diagnostic_hint choose_tree_hint() {
    return {"load_options::tree", "`--tree NAME`"};
}

}  // namespace

// Files first in the order they were met, each in file order; a problem met twice (in a
// subtree used twice, say) once.
void tidy(std::vector<diagnostic>& diagnostics) {
    std::vector<std::string> paths;
    for (const diagnostic& d : diagnostics) {
        if (std::find(paths.begin(), paths.end(), d.path) == paths.end()) paths.push_back(d.path);
    }
    auto rank = [&](const diagnostic& d) {
        return std::find(paths.begin(), paths.end(), d.path) - paths.begin();
    };
    std::stable_sort(diagnostics.begin(), diagnostics.end(),
                     [&](const diagnostic& a, const diagnostic& b) {
                         if (rank(a) != rank(b)) return rank(a) < rank(b);
                         if (a.where.line != b.where.line) return a.where.line < b.where.line;
                         return a.where.column < b.where.column;
                     });
    auto same = [](const diagnostic& a, const diagnostic& b) {
        return a.path == b.path && a.where == b.where && a.code == b.code &&
               a.message == b.message && a.record_id == b.record_id;
    };
    diagnostics.erase(std::unique(diagnostics.begin(), diagnostics.end(), same), diagnostics.end());
}

loader::loader(const registry& reg, const load_options& options)
    : registry_(reg), options_(options), files_(reg, diagnostics_, options.max_file_bytes) {
    files_.read_from_memory(options.files_in_memory);
    placeholder_types_.add(subtree_placeholder_type());
    subtree_types_.add(subtree_type());
    // Before the file asked for, so that its uses of their trees are seen as it is read.
    for (const std::filesystem::path& path : options.registered_files) {
        for (const std::filesystem::path& file : tree_files(path, diagnostics_)) files_.open(file);
    }
    for (const std::filesystem::path& path : options.model_files) {
        if (std::optional<std::size_t> opened = files_.open(path)) palettes_.push_back(*opened);
    }
    if (!options.registered_files.empty()) files_.mark_every_tree_use();
}

// Opens what the files read so far name; learns foreign types when lenient, and the
// palettes' types.
void loader::prepare() {
    files_.open_subtree_files();
    if (!options_.lenient) report_canopy_only_names(files_, registry_, palettes_);
    if (!options_.lenient && palettes_.empty()) return;
    const registry learned = learn_types(files_, registry_, options_.lenient, palettes_);
    if (options_.lenient) report_near_misses(files_, registry_, learned);
    for (node_type type : learned.types()) {
        if (options_.stub) give_stub_behaviour(type, *options_.stub);
        placeholder_types_.add(type);
        subtree_types_.add(std::move(type));
    }
}

// The tree to build from file f: the one asked for, else the file's main tree.
std::optional<tree_ref> loader::choose(std::size_t f) {
    const tree_document& document = files_.file(f).document;
    if (!options_.tree.empty()) {
        std::optional<tree_ref> found = files_.find_tree(f, options_.tree);
        if (!found) {
            std::vector<std::size_t> all(document.trees.size());
            for (std::size_t t = 0; t < all.size(); ++t) all[t] = t;
            files_.report(f, {}, diagnostic_code::unknown_tree,
                          "no tree named '" + options_.tree + "'; the file holds " +
                              (all.empty() ? std::string("none") : tree_list(document, all)));
        }
        return found;
    }
    if (!document.main_tree.empty()) {
        std::optional<tree_ref> found = files_.find_tree(f, document.main_tree);
        if (!found) {
            files_.report(f, document.main_tree_where, diagnostic_code::unknown_tree,
                          "the main tree '" + document.main_tree + "' names no tree");
        }
        return found;
    }
    if (document.trees.size() == 1) return tree_ref{f, 0};
    if (document.trees.empty() && !files_.file(f).includes.empty()) return choose_in_project(f);
    if (document.trees.empty()) {
        files_.report(f, {}, diagnostic_code::no_root,
                      document.models.empty() ? "the file holds no tree"
                                              : "the file holds node models only, no tree");
        if (!document.models.empty()) {
            diagnostics_.back().hint = {
                "learn_node_types reads them, load_options::model_files "
                "checks trees against them",
                "`canopy types --models` lists them, `--models` checks "
                "trees against them"};
        }
        return std::nullopt;
    }
    const std::vector<std::size_t> candidates = unused_trees(document);
    if (candidates.size() == 1) return tree_ref{f, candidates[0]};
    files_.report(f, {}, diagnostic_code::no_main_tree,
                  "the file holds " + std::to_string(document.trees.size()) +
                      " trees and does not say which one is the main tree; choose one of " +
                      tree_list(document, candidates));
    diagnostics_.back().hint = choose_tree_hint();
    return std::nullopt;
}

// A project (Groot2's .btproj) holds no tree but includes the files that do: every tree
// of those, nearest first.
std::vector<tree_ref> loader::project_trees(std::size_t f) const {
    std::vector<std::size_t> queue{f};
    std::vector<tree_ref> trees;
    for (std::size_t at = 0; at < queue.size(); ++at) {
        for (std::size_t t = 0; t < files_.file(queue[at]).document.trees.size(); ++t)
            trees.push_back({queue[at], t});
        for (std::size_t included : files_.file(queue[at]).includes) {
            if (std::find(queue.begin(), queue.end(), included) == queue.end())
                queue.push_back(included);
        }
    }
    return trees;
}

// The main tree of a project: its only tree that no other tree uses.
std::optional<tree_ref> loader::choose_in_project(std::size_t f) {
    const std::vector<tree_ref> trees = project_trees(f);
    std::unordered_set<std::string> used;
    for (tree_ref ref : trees) add_used_trees(files_.file(ref.file).document.trees[ref.tree], used);
    std::vector<tree_ref> candidates;
    std::string names;
    for (tree_ref ref : trees) {
        const std::string& name = files_.file(ref.file).document.trees[ref.tree].name();
        if (used.count(name) != 0) continue;
        candidates.push_back(ref);
        names += (names.empty() ? "'" : ", '") + name + "'";
    }
    if (candidates.size() == 1) return candidates[0];
    files_.report(
        f, {}, candidates.empty() ? diagnostic_code::no_root : diagnostic_code::no_main_tree,
        candidates.empty()
            ? std::string("the files this project includes hold no tree")
            : "the files this project includes hold " + std::to_string(candidates.size()) +
                  " trees that no other tree uses; choose one of " + names);
    if (!candidates.empty()) diagnostics_.back().hint = choose_tree_hint();
    return std::nullopt;
}

// Builds one tree; `may_move`: its records are needed by nothing else.
std::shared_ptr<const tree> loader::build(tree_ref ref, bool may_move) {
    loaded_file& file = files_.file(ref.file);
    record_set& records = file.document.trees[ref.tree];
    if (records.empty() && !files_.clean(ref.file)) return nullptr;  // the reader said why
    build_options options;
    options.overlay = &subtree_types_;
    options.max_depth = options_.max_depth;
    options.program_keys = options_.program_keys;
    options.rules = file.document.rules;
    options.canopy_names = file.document.canopy_names;
    options.words = file.document.words;
    load_result built;
    const bool behavior3 = file.document.rules == runtime_rules::behavior3;
    if (!uses_subtrees(records)) {
        if (behavior3) detail::behavior3::name_parameter_slots(records, registry_);
        options.implicit_keys = file.document.implicit_keys || options_.lenient;
        if (options_.substitutions) {
            record_set substituted = may_move ? std::move(records) : records;
            apply_substitutions(substituted, *options_.substitutions, registry_, subtree_types_,
                                diagnostics_);
            built = build_tree(std::move(substituted), registry_, file.name, options);
        } else {
            built = may_move ? build_tree(std::move(records), registry_, file.name, options)
                             : build_tree(records, registry_, file.name, options);
        }
    } else {
        subtree_expander expander(files_, registry_, placeholder_types_, options_.lenient,
                                  diagnostics_);
        std::optional<record_set> expanded = expander.expand(ref);
        if (!expanded) return nullptr;
        if (behavior3) detail::behavior3::name_parameter_slots(*expanded, registry_);
        if (options_.substitutions) {
            apply_substitutions(*expanded, *options_.substitutions, registry_, subtree_types_,
                                diagnostics_);
        }
        built = build_tree(std::move(*expanded), registry_, files_.file(ref.file).name, options);
        for (diagnostic& d : built.diagnostics) expander.relocate(d);
    }
    diagnostics_.insert(diagnostics_.end(), built.diagnostics.begin(), built.diagnostics.end());
    return std::move(built.tree);
}

load_result loader::finish(std::shared_ptr<const tree> built) {
    load_result result;
    for (std::size_t f = 0; f < files_.size(); ++f) {
        if (!files_.clean(f)) built.reset();  // its problems are among the diagnostics
    }
    if (options_.warnings_as_errors) {
        for (diagnostic& d : diagnostics_) d.severity = diagnostic_severity::error;
    }
    if (has_errors(diagnostics_)) built.reset();
    files_.add_referrer_notes(diagnostics_);
    tidy(diagnostics_);
    result.tree = std::move(built);
    result.diagnostics = std::move(diagnostics_);
    return result;
}

load_result loader::load(std::optional<std::size_t> f) {
    if (!f) return finish(nullptr);
    prepare();
    std::optional<tree_ref> chosen = choose(*f);
    if (!chosen) return finish(nullptr);
    return finish(build(*chosen, true));
}

}  // namespace canopy::detail
