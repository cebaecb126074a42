#pragma once

// Everything node code and the programs around it use, as BehaviorTree.CPP's header of the
// same name gives it.

#include <iostream>

#include "behaviortree_cpp/action_node.h"
#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/blackboard.h"
#include "behaviortree_cpp/condition_node.h"
#include "behaviortree_cpp/control_node.h"
#include "behaviortree_cpp/decorator_node.h"
#include "behaviortree_cpp/exceptions.h"
#include "behaviortree_cpp/tree_node.h"

namespace BT {

/// Calls `visitor` on `node` and every node below it, parents first.
void applyRecursiveVisitor(const TreeNode* node,
                           const std::function<void(const TreeNode*)>& visitor);
void applyRecursiveVisitor(TreeNode* node, const std::function<void(TreeNode*)>& visitor);

/// Prints the tree's node names, indented by depth, between lines of dashes.
void printTreeRecursively(const TreeNode* root_node, std::ostream& stream = std::cout);

}  // namespace BT
