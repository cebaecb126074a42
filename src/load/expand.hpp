#pragma once
// Subtrees put in place on records: each tree a load needs is checked alone, with its `SubTree`
// records standing as leaves, and then its records are copied into one set of records, each
// subtree's under its `SubTree` record, renumbered, its keys renamed to the keys they stand for
// in the whole tree. The builder then builds the whole once.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canopy/records/records.hpp"
#include "canopy/run/registry.hpp"
#include "load/file_set.hpp"

namespace canopy::detail {

/// How many nodes subtrees may add to a tree, in all: a few lines of XML whose trees each use
/// the next one twice would otherwise ask for billions.
inline constexpr std::size_t max_expanded_nodes = 1'000'000;

class subtree_expander {
public:
    /// `placeholders`: the types looked up before the registry's while a tree is checked alone
    /// (`SubTree` as a leaf, and what lenient loading learned); `lenient`: keys are implicit.
    /// Problems go to `out`.
    subtree_expander(file_set& files, const registry& reg, const registry& placeholders,
                     bool lenient, std::vector<diagnostic>& out)
        : files_(files),
          registry_(reg),
          placeholders_(placeholders),
          lenient_(lenient),
          out_(out) {}

    /// The records of a tree with the trees its subtrees name, transitively, in place, and
    /// every key they use declared; nothing after the problems are reported.
    std::optional<record_set> expand(tree_ref main);

    /// Puts a problem found in expanded records back where its node was written.
    void relocate(diagnostic& problem) const;

private:
    class run;

    // What checking a tree alone tells: its keys as the builder typed them, and its records
    // in preorder, the order in which they are copied and numbered, with their types (looked
    // up once, not once per use).
    struct checked_tree {
        std::vector<blackboard_key> keys;
        std::vector<std::uint32_t> preorder;  // record indexes
        std::vector<const node_type*> types;  // per preorder position
        std::vector<std::uint32_t> parent;    // per preorder position, the parent's position
        static constexpr std::uint32_t no_parent = 0xFFFFFFFF;  // the root's
    };

    /// The tree checked alone, or null after its problems are reported (once).
    const checked_tree* checked(tree_ref ref);
    const record_set& records(tree_ref ref) const {
        return files_.file(ref.file).document.trees[ref.tree];
    }

    file_set& files_;
    const registry& registry_;
    const registry& placeholders_;
    bool lenient_;
    std::vector<diagnostic>& out_;
    std::map<std::pair<std::size_t, std::size_t>, std::unique_ptr<checked_tree>> checked_;

    // The expanded records' ids, block by block: a block is one use of a subtree.
    struct block {
        std::int64_t first_id;
        const checked_tree* origin;
        tree_ref ref;
    };
    std::vector<block> blocks_;
};

}  // namespace canopy::detail
