#pragma once
// Lenient loading: node types a file uses that the program did not register, learned from the
// file's node models or from its shape.

#include "canopy/run/registry.hpp"
#include "load/file_set.hpp"

namespace canopy::detail {

/// The types to look up before the registry's when building the trees of `files`. Each is a
/// type without behaviour (agents refuse to run trees that use it) whose parameters, of type
/// any, are its model's ports and every parameter the files give it; its arity is its
/// model's, else leaf where no node has children, decorator where each has one, else
/// composite. A name that differs from a registered one in case only is not learned: it is
/// the typo its "did you mean" says. In a BehaviorTree.CPP file, one of Canopy's own built-in
/// names that BehaviorTree.CPP lacks (`Wait`), used with a parameter Canopy's type does not
/// take, is learned too: another program's node of that name (Nav2's Wait), which the
/// learned type shadows (tree_document::foreign_namesakes).
registry learn_types(const file_set& files, const registry& reg);

/// Where loading is strict: reports each node of a BehaviorTree.CPP file named as one of
/// Canopy's own built-ins that BehaviorTree.CPP lacks (`Selector`, `WaitTicks`, `Cooldown`)
/// and that the files' node models do not declare: BehaviorTree.CPP knows no such node, so it
/// is the file's program's own (unknown-type, located). The documented Nav2 and version 3
/// names (btcpp-xml.md) are Canopy's.
void report_canopy_only_names(file_set& files, const registry& reg);

}  // namespace canopy::detail
