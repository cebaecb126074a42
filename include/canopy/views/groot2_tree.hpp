#pragma once

#include <string>

#include "canopy/run/tree.hpp"

namespace canopy {

/// The name Groot2 knows a tree by, in the XML and in blackboard requests: the tree's name,
/// or "MainTree" as BehaviorTree.CPP calls an unnamed one.
std::string groot2_tree_name(const tree& t);

/// The tree as BehaviorTree.CPP 4 XML the way Groot2 reads a running tree (from the Groot2
/// server, or at the head of a BehaviorTree.CPP FileLogger2 log): every node with
/// `_uid`, its preorder index + 1, and each subtree put in place as a `<BehaviorTree>` of its
/// own with `_fullpath`, as BehaviorTree.CPP writes a running tree. Each node is named and
/// given its parameters as its file wrote them (tree::written_type, tree::written_params),
/// whatever the file's format; a type that is no XML name, or names an element of
/// BehaviorTree.CPP's own, is written `<Action ID="...">`. A <TreeNodesModel> follows: a model
/// of each type BehaviorTree.CPP lacks, and of each of its own the file gives ports, with the
/// ports the file gives it.
std::string to_groot2_xml(const tree& t);

}  // namespace canopy
