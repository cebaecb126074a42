#pragma once
// Subtrees put in place: each tree a load needs is checked alone, with its `SubTree` records
// standing as leaves, and then copied into one set of records, each subtree's nodes under its
// `SubTree` node and its keys renamed to the keys they stand for in the whole tree.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "canopy/build/build.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/registry.hpp"
#include "load/file_set.hpp"

namespace canopy::detail {

/// How many nodes subtrees may add to a tree, in all: a few lines of XML whose trees each use
/// the next one twice would otherwise ask for billions.
inline constexpr std::size_t max_expanded_nodes = 1'000'000;

class subtree_expander {
public:
    /// `foreign`: the types lenient loading learned, or null. Problems go to `out`.
    subtree_expander(file_set& files, const registry& reg, const registry* foreign,
                     std::vector<diagnostic>& out)
        : files_(files), registry_(reg), foreign_(foreign), out_(out) {}

    /// The tree checked alone, or null after its problems are reported (once).
    std::shared_ptr<const tree> checked(tree_ref ref);

    /// The records of a tree with the trees its subtrees name, transitively, in place, and
    /// every key they use declared; nothing after the problems are reported.
    std::optional<record_set> expand(tree_ref main);

    /// Puts a problem found in expanded records back where its node was written.
    void relocate(diagnostic& problem) const;

private:
    struct scope;
    struct job;
    class run;

    std::shared_ptr<const tree> checked_tree(tree_ref ref);
    const record_set& records(tree_ref ref) const {
        return files_.file(ref.file).document.trees[ref.tree];
    }

    file_set& files_;
    const registry& registry_;
    const registry* foreign_;
    std::vector<diagnostic>& out_;
    std::map<std::pair<std::size_t, std::size_t>, std::shared_ptr<const tree>> checked_;

    // The expanded records' ids, block by block: a block is one use of a subtree.
    struct block {
        std::int64_t first_id;
        std::shared_ptr<const tree> origin;
        std::size_t file;
    };
    std::vector<block> blocks_;
};

}  // namespace canopy::detail
