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
///
/// The files listed in `palettes` are the program's node models (load_options::model_files):
/// the types they declare are known with their ports and no other (an output port is an
/// output parameter); a name the registry knows stays the registry's. Not `lenient`: only
/// the palettes' types are learned, and nothing from the files' uses or their own models.
registry learn_types(const file_set& files, const registry& reg, bool lenient = true,
                     const std::vector<std::size_t>& palettes = {});

/// Where loading is lenient: warns at each node whose type `learned` holds, undeclared by any
/// node model of the files, but one edit (a letter added, dropped, changed or two swapped)
/// from a name the file more likely means: a type the registry knows (in the file's words),
/// a built-in of the file's dialect, or a type the files' node models declare. Lenient
/// loading would otherwise take the typo (`Fallbak`) for another program's node.
void report_near_misses(file_set& files, const registry& reg, const registry& learned);

/// Where loading is strict: reports each node of a BehaviorTree.CPP file named as one of
/// Canopy's own built-ins that BehaviorTree.CPP lacks (`Selector`, `WaitTicks`, `Cooldown`)
/// and that the files' node models do not declare: BehaviorTree.CPP knows no such node, so it
/// is the file's program's own (unknown-type, located). The documented Nav2 and version 3
/// names (btcpp-xml.md) are Canopy's.
/// A name a palette (`palettes`, as learn_types() takes them) declares is the program's.
void report_canopy_only_names(file_set& files, const registry& reg,
                              const std::vector<std::size_t>& palettes = {});

}  // namespace canopy::detail
