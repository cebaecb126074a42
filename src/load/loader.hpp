#pragma once
// The loader behind canopy/load/load.hpp: it reads the file asked for with the files it includes
// and the files its subtrees name (file_set), picks the tree to build, learns foreign node types in
// lenient mode (foreign_types), puts subtrees in place (expand) and builds.

#include <memory>
#include <optional>
#include <vector>

#include "canopy/load/load.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/tree.hpp"
#include "load/file_set.hpp"

namespace canopy::detail {

/// Files first in the order they were met, each in file order; a problem met twice (in a
/// subtree used twice, say) once.
void tidy(std::vector<diagnostic>& diagnostics);

/// One load: the files it reads and every problem met, for the functions of canopy/load/load.hpp.
class loader {
public:
    loader(const registry& reg, const load_options& options);

    file_set& files() { return files_; }
    std::vector<diagnostic>& diagnostics() { return diagnostics_; }

    // Opens what the files read so far name; learns foreign types when lenient.
    void prepare();

    // The tree to build from file f: the one asked for, else the file's main tree.
    std::optional<tree_ref> choose(std::size_t f);

    // A project (Groot2's .btproj) holds no tree but includes the files that do: every tree
    // of those, nearest first.
    std::vector<tree_ref> project_trees(std::size_t f) const;

    // The main tree of a project: its only tree that no other tree uses.
    std::optional<tree_ref> choose_in_project(std::size_t f);

    // Builds one tree; `may_move`: its records are needed by nothing else.
    std::shared_ptr<const tree> build(tree_ref ref, bool may_move);

    // The types looked up before the registry's: `SubTree`, and those lenient loading learned.
    const registry& overlay() const { return subtree_types_; }

    // The result: the tree, unless any problem was met in any file, and the problems tidied.
    load_result finish(std::shared_ptr<const tree> built);

    // The main tree (or the one asked for) of file f, opened, built and finished.
    load_result load(std::optional<std::size_t> f);

private:
    const registry& registry_;
    const load_options& options_;
    std::vector<diagnostic> diagnostics_;
    file_set files_;
    // Two overlays of the same types but `SubTree`: a leaf while each tree is checked alone,
    // a decorator once its tree is in place.
    registry placeholder_types_;
    registry subtree_types_;
    std::vector<std::size_t> palettes_;  // the files of load_options::model_files
};

}  // namespace canopy::detail
