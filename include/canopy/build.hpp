#pragma once

#include <memory>
#include <string>
#include <vector>

#include "canopy/diagnostic.hpp"
#include "canopy/fwd.hpp"

namespace canopy {

/// A complete tree, or every problem that prevented one; never both. (Never neither either,
/// except from build_tree() given records a reader marked as unreadable: see below.)
struct load_result {
    std::shared_ptr<const canopy::tree> tree;
    std::vector<diagnostic> diagnostics;

    explicit operator bool() const noexcept { return tree != nullptr; }
};

/// Validates records against a registry and builds one tree from them: checks ids, parents,
/// the single root, cycles, types, arity and parameters, reporting every problem found,
/// located (diagnostics carry `path`), in file order. Creates each node's object.
/// Records marked with record_set::mark_problem() never make a tree: whoever marked them has
/// reported their problems, so the result may then hold no diagnostic of its own.
load_result build_tree(const record_set& records, const registry& reg,
                       const std::string& path = "");

/// The same, moving the records into the tree (which keeps them as its cold data) rather
/// than copying them.
load_result build_tree(record_set&& records, const registry& reg, const std::string& path = "");

}  // namespace canopy
