#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/core/fwd.hpp"
#include "canopy/records/document.hpp"

namespace canopy {

/// A complete tree and the warnings its load gave, or every problem that prevented one
/// (diagnostic_severity::error among them). (Never neither, except from build_tree() given
/// records a reader marked as unreadable: see below.)
struct load_result {
    std::shared_ptr<const canopy::tree> tree;
    std::vector<diagnostic> diagnostics;

    explicit operator bool() const noexcept { return tree != nullptr; }
};

/// What build_tree does with what a file leaves unsaid.
struct build_options {
    /// Keys that parameters name but neither the program nor the file declares exist anyway,
    /// each with the type of the first parameter in file order that reads or writes it as a
    /// value (a string where none does), as in formats whose libraries create blackboard
    /// entries on first use (tree_document::implicit_keys).
    bool implicit_keys = false;
    /// Node types looked up before the registry's: the loader's (`SubTree`, and those lenient
    /// loading learned from the file; see load_options::lenient).
    const registry* overlay = nullptr;
    /// `{@key}`, BehaviorTree.CPP's key of the main tree, names a key outside these records:
    /// they are one tree of several, checked alone before the loader puts it in place. Such a
    /// key is then the key `@key`, made on first use with the type an implicit key gets.
    /// Otherwise `{@key}` is `{key}`.
    bool main_keys_outside = false;
    /// Whose rules the scripts and the blackboard follow (tree_document::rules). Under
    /// BehaviorTree.CPP's, syntax errors stay errors: it refuses those at load too.
    runtime_rules rules = runtime_rules::canopy;
    /// Whether the records' node names are Canopy's (tree_document::canopy_names); otherwise
    /// a parameter a namesake of Canopy's does not take says lenient loading would read the
    /// node as the file's own.
    bool canopy_names = true;
    /// The records' format's names for types and parameters (tree_document::words), which
    /// diagnostics and "did you mean" speak where the records do not say how the file wrote
    /// a name; null: Canopy's.
    const vocabulary* words = nullptr;
    /// The most levels a tree may have, its root being level 1. Ticking recurses once per
    /// level, so a deeper tree is refused (`limit-exceeded`, at its first node past the limit)
    /// rather than left to overflow the stack of the thread that ticks it. See docs/formats.md.
    std::uint32_t max_depth = default_max_depth;
    static constexpr std::uint32_t default_max_depth = 10'000;
    /// Keys the program writes before the first tick (load_options::program_keys).
    std::vector<std::string> program_keys;
};

/// Validates records against a registry and builds one tree from them: checks ids, parents,
/// the single root, cycles, types, arity and parameters, reporting every problem found,
/// located (diagnostics carry `path`), in file order. Compiles every script (`script`
/// parameters and BehaviorTree.CPP's condition attributes such as `_skipIf`, on any record),
/// declaring the keys they create with `:=` (docs/formats.md). Creates each node's object.
/// Records marked with record_set::mark_problem() never make a tree: whoever marked them has
/// reported their problems, so the result may then hold no diagnostic of its own.
load_result build_tree(const record_set& records, const registry& reg, const std::string& path = "",
                       const build_options& options = {});

/// The same, moving the records into the tree (which keeps them as its cold data) rather
/// than copying them.
load_result build_tree(record_set&& records, const registry& reg, const std::string& path = "",
                       const build_options& options = {});

}  // namespace canopy
