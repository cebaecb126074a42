// The loader: files in, one tree out. It reads the file with the files it includes and the
// files its subtrees name (file_set), picks the tree to build, learns foreign node types in
// lenient mode (foreign_types), puts subtrees in place (expand) and builds.
#include "canopy/load.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "canopy/build.hpp"
#include "canopy/error.hpp"
#include "canopy/tree.hpp"
#include "expand.hpp"
#include "file_set.hpp"
#include "foreign_types.hpp"
#include "subtree_node.hpp"

namespace canopy {
namespace {

using detail::file_set;
using detail::tree_ref;

// Whether some SubTree record names a tree to put in its place. One with a child holds its
// tree already, as a tree written back from memory does (canopy/write.hpp).
bool uses_subtrees(const record_set& records) {
    const std::vector<std::string>& names = records.type_names();
    if (std::find(names.begin(), names.end(), detail::subtree_type_name) == names.end()) {
        return false;
    }
    std::unordered_set<std::int64_t> parents;
    for (std::size_t i = 0; i < records.size(); ++i) parents.insert(records.parent_id(i));
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records.type_name(i) == detail::subtree_type_name && parents.count(records.id(i)) == 0)
            return true;
    }
    return false;
}

// The trees of a file that no other tree of the file uses as a subtree.
std::vector<std::size_t> unused_trees(const tree_document& document) {
    std::vector<bool> used(document.trees.size(), false);
    for (const record_set& records : document.trees) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (records.type_name(i) != detail::subtree_type_name) continue;
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                if (p->name != "tree" || p->value.index() != 3) continue;
                for (std::size_t t = 0; t < document.trees.size(); ++t) {
                    if (&document.trees[t] != &records &&
                        document.trees[t].name() == std::get<std::string>(p->value)) {
                        used[t] = true;
                    }
                }
            }
        }
    }
    std::vector<std::size_t> unused;
    for (std::size_t t = 0; t < used.size(); ++t) {
        if (!used[t]) unused.push_back(t);
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

class loader {
public:
    loader(const registry& reg, const load_options& options)
        : registry_(reg), options_(options), files_(reg, diagnostics_) {}

    file_set& files() { return files_; }
    std::vector<diagnostic>& diagnostics() { return diagnostics_; }

    // Opens what the files read so far name; learns foreign types when lenient.
    void prepare() {
        files_.open_subtree_files();
        if (options_.lenient) foreign_ = detail::learn_types(files_, registry_);
    }

    // The tree to build from file f: the one asked for, else the file's main tree.
    std::optional<tree_ref> choose(std::size_t f) {
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
                          document.models.empty()
                              ? "the file holds no tree"
                              : "the file holds node models only, no tree (`canopy types "
                                "--models` lists them)");
            return std::nullopt;
        }
        const std::vector<std::size_t> candidates = unused_trees(document);
        if (candidates.size() == 1) return tree_ref{f, candidates[0]};
        files_.report(f, {}, diagnostic_code::no_main_tree,
                      "the file holds " + std::to_string(document.trees.size()) +
                          " trees and does not say which one is the main tree; choose one of " +
                          tree_list(document, candidates) + " (`--tree NAME`)");
        return std::nullopt;
    }

    // A project (Groot2's .btproj) holds no tree but includes the files that do: every tree
    // of those, nearest first.
    std::vector<tree_ref> project_trees(std::size_t f) const {
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
    std::optional<tree_ref> choose_in_project(std::size_t f) {
        const std::vector<tree_ref> trees = project_trees(f);
        std::vector<std::string> used;
        for (tree_ref ref : trees) {
            const record_set& records = files_.file(ref.file).document.trees[ref.tree];
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (records.type_name(i) != detail::subtree_type_name) continue;
                for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                    if (p->name == "tree" && p->value.index() == 3)
                        used.push_back(std::get<std::string>(p->value));
                }
            }
        }
        std::vector<tree_ref> candidates;
        std::string names;
        for (tree_ref ref : trees) {
            const std::string& name = files_.file(ref.file).document.trees[ref.tree].name();
            if (std::find(used.begin(), used.end(), name) != used.end()) continue;
            candidates.push_back(ref);
            names += (names.empty() ? "'" : ", '") + name + "'";
        }
        if (candidates.size() == 1) return candidates[0];
        files_.report(
            f, {}, candidates.empty() ? diagnostic_code::no_root : diagnostic_code::no_main_tree,
            candidates.empty()
                ? std::string("the files this project includes hold no tree")
                : "the files this project includes hold " + std::to_string(candidates.size()) +
                      " trees that no other tree uses; choose one of " + names +
                      " (`--tree NAME`)");
        return std::nullopt;
    }

    // Builds one tree; `may_move`: its records are needed by nothing else.
    std::shared_ptr<const tree> build(tree_ref ref, bool may_move) {
        detail::loaded_file& file = files_.file(ref.file);
        record_set& records = file.document.trees[ref.tree];
        if (records.empty() && !files_.clean(ref.file)) return nullptr;  // the reader said why
        build_options options;
        options.foreign = foreign_ ? &*foreign_ : nullptr;
        load_result built;
        if (!uses_subtrees(records)) {
            options.implicit_keys = file.document.implicit_keys || options_.lenient;
            built = may_move ? build_tree(std::move(records), registry_, file.name, options)
                             : build_tree(records, registry_, file.name, options);
        } else {
            detail::subtree_expander expander(files_, registry_, options.foreign, diagnostics_);
            std::optional<record_set> expanded = expander.expand(ref);
            if (!expanded) return nullptr;
            built =
                build_tree(std::move(*expanded), registry_, files_.file(ref.file).name, options);
            for (diagnostic& d : built.diagnostics) expander.relocate(d);
        }
        diagnostics_.insert(diagnostics_.end(), built.diagnostics.begin(), built.diagnostics.end());
        return std::move(built.tree);
    }

    const registry* foreign() const { return foreign_ ? &*foreign_ : nullptr; }

    load_result finish(std::shared_ptr<const tree> built) {
        load_result result;
        for (std::size_t f = 0; f < files_.size(); ++f) {
            if (!files_.clean(f)) built.reset();  // its problems are among the diagnostics
        }
        if (!diagnostics_.empty()) built.reset();
        tidy(diagnostics_);
        result.tree = std::move(built);
        result.diagnostics = std::move(diagnostics_);
        return result;
    }

    load_result load(std::optional<std::size_t> f) {
        if (!f) return finish(nullptr);
        prepare();
        std::optional<tree_ref> chosen = choose(*f);
        if (!chosen) return finish(nullptr);
        return finish(build(*chosen, true));
    }

private:
    const registry& registry_;
    const load_options& options_;
    std::vector<diagnostic> diagnostics_;
    file_set files_;
    std::optional<registry> foreign_;
};

}  // namespace

load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path, const load_options& options) {
    loader load(reg, options);
    return load.load(load.files().open_text(text, format, path));
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
    if (!result.diagnostics.empty()) result.trees.clear();
    return result;
}

namespace {

// The records with each type named as the registry (or the learned types) names it and, where
// the tree was built, each literal given as text (XML's) typed as its parameter is, so that a
// format that types its values (JSON) writes it as what it is: 3, not "3".
record_set with_registered_names(const record_set& records, const registry& reg,
                                 const registry* foreign, const tree* built) {
    std::unordered_map<std::int64_t, tree::index> node_of;
    if (built != nullptr) {
        for (tree::index n = 0; n < built->size(); ++n) node_of.emplace(built->record_id(n), n);
    }
    record_set named;
    named.set_name(records.name());
    for (const record_set::key_declaration& key : records.declared_keys()) named.declare_key(key);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const node_type* type = nullptr;
        if (records.has_type_id(i)) {
            type = reg.find(records.type_id(i));
        } else if (records.type_name(i) != detail::subtree_type_name) {
            if (foreign != nullptr) type = foreign->find(records.type_name(i));
            if (type == nullptr) type = reg.find(records.type_name(i));
        }
        named.add(records.id(i), records.parent_id(i),
                  type != nullptr ? std::string_view(type->name) : records.type_name(i),
                  records.describe(i), records.where(i));
        auto node = node_of.find(records.id(i));
        for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
            const param* checked = nullptr;
            if (p->from_text && node != node_of.end()) {
                checked = built->params(node->second).find_param(p->name);
            }
            if (checked != nullptr && checked->key == param::no_key && !checked->names_key &&
                !checked->output) {
                named.add_param(p->name, checked->value, p->where, false);
            } else {
                named.add_param(p->name, p->value, p->where, p->from_text);
            }
        }
    }
    return named;
}

// Each subtree named by file, as a path from the file's own folder (behavior3's paths start at
// its workspace), with the name of the tree it uses: what every format's writer can say.
void name_subtree_files(file_set& files, std::size_t f) {
    namespace fs = std::filesystem;
    // First every file the subtrees name, opened (opening may move the files' documents).
    struct named_file {
        std::string path;
        std::string tree;
    };
    std::map<std::string, named_file> by_path;
    for (std::size_t t = 0; t < files.file(f).document.trees.size(); ++t) {
        for (std::size_t i = 0; i < files.file(f).document.trees[t].size(); ++i) {
            const record_set& records = files.file(f).document.trees[t];
            if (records.type_name(i) != detail::subtree_type_name) continue;
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                if (p->name != "file" || p->value.index() != 3) continue;
                const std::string file = std::get<std::string>(p->value);
                const fs::path found = files.resolve(f, file);
                const std::optional<std::size_t> target =
                    found.empty() ? std::nullopt : files.open(found);
                if (!target) break;
                std::error_code ec;
                const fs::path folder =
                    fs::weakly_canonical(fs::absolute(files.file(f).location), ec).parent_path();
                named_file named{fs::weakly_canonical(fs::absolute(found), ec)
                                     .lexically_relative(folder)
                                     .generic_string(),
                                 {}};
                const tree_document& used = files.file(*target).document;
                if (used.trees.size() == 1) named.tree = used.trees[0].name();
                by_path.emplace(file, std::move(named));
                break;
            }
        }
    }
    tree_document& document = files.file(f).document;
    for (record_set& records : document.trees) {
        record_set named;
        named.set_name(records.name());
        for (const record_set::key_declaration& key : records.declared_keys())
            named.declare_key(key);
        for (std::size_t i = 0; i < records.size(); ++i) {
            named.add(records.id(i), records.parent_id(i), records.type_name(i),
                      records.describe(i), records.where(i));
            std::optional<std::string> file;
            bool has_tree = false;
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                if (records.type_name(i) == detail::subtree_type_name && p->name == "file" &&
                    p->value.index() == 3) {
                    file = std::get<std::string>(p->value);
                    continue;
                }
                has_tree = has_tree || p->name == "tree";
                named.add_param(p->name, p->value, p->where, p->from_text);
            }
            if (!file) continue;
            auto found = by_path.find(*file);
            if (found == by_path.end()) {
                named.add_param("file", *file, records.where(i));
                continue;
            }
            if (!has_tree && !found->second.tree.empty())
                named.add_param("tree", found->second.tree, records.where(i));
            named.add_param("file", found->second.path, records.where(i));
        }
        records = std::move(named);
    }
    document.subtree_paths = tree_document::path_base::file;
}

}  // namespace

document_load_result try_load_document(const std::filesystem::path& path, const registry& reg,
                                       const load_options& options) {
    loader load(reg, options);
    document_load_result result;
    std::optional<std::size_t> f = load.files().open(path, options.format);
    if (f) {
        load.prepare();
        const std::size_t trees = load.files().file(*f).document.trees.size();
        if (trees == 0) load.choose(*f);
        std::vector<std::shared_ptr<const tree>> built;
        for (std::size_t t = 0; t < trees; ++t) built.push_back(load.build({*f, t}, false));
        name_subtree_files(load.files(), *f);
        result.document = std::move(load.files().file(*f).document);
        for (std::size_t t = 0; t < trees; ++t) {
            record_set& records = result.document.trees[t];
            records = with_registered_names(records, reg, load.foreign(), built[t].get());
        }
    }
    result.diagnostics = load.finish(nullptr).diagnostics;
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
    tidy(load.diagnostics());
    problems = std::move(load.diagnostics());
    return learned;
}

}  // namespace canopy
