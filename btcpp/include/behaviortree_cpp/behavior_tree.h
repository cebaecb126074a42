#pragma once

// Everything node code and the programs around it use, as BehaviorTree.CPP's header of the
// same name gives it: the node bases, and the built-in controls and decorators as classes a
// program builds and ticks itself (controls/*.h, decorators/*.h).

#include <cstdint>
#include <iostream>
#include <utility>
#include <vector>

#include "behaviortree_cpp/action_node.h"
#include "behaviortree_cpp/actions/always_failure_node.h"
#include "behaviortree_cpp/actions/always_success_node.h"
#include "behaviortree_cpp/actions/test_node.h"
#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/blackboard.h"
#include "behaviortree_cpp/condition_node.h"
#include "behaviortree_cpp/control_node.h"
#include "behaviortree_cpp/controls/fallback_node.h"
#include "behaviortree_cpp/controls/if_then_else_node.h"
#include "behaviortree_cpp/controls/parallel_all_node.h"
#include "behaviortree_cpp/controls/parallel_node.h"
#include "behaviortree_cpp/controls/reactive_fallback.h"
#include "behaviortree_cpp/controls/reactive_sequence.h"
#include "behaviortree_cpp/controls/sequence_node.h"
#include "behaviortree_cpp/controls/sequence_with_memory_node.h"
#include "behaviortree_cpp/controls/switch_node.h"
#include "behaviortree_cpp/controls/while_do_else_node.h"
#include "behaviortree_cpp/decorator_node.h"
#include "behaviortree_cpp/decorators/delay_node.h"
#include "behaviortree_cpp/decorators/force_failure_node.h"
#include "behaviortree_cpp/decorators/force_success_node.h"
#include "behaviortree_cpp/decorators/inverter_node.h"
#include "behaviortree_cpp/decorators/keep_running_until_failure_node.h"
#include "behaviortree_cpp/decorators/loop_node.h"
#include "behaviortree_cpp/decorators/repeat_node.h"
#include "behaviortree_cpp/decorators/retry_node.h"
#include "behaviortree_cpp/decorators/run_once_node.h"
#include "behaviortree_cpp/decorators/timeout_node.h"
#include "behaviortree_cpp/exceptions.h"
#include "behaviortree_cpp/tree_node.h"

namespace BT {

/// Calls `visitor` on `node` and every node below it, parents first.
void applyRecursiveVisitor(const TreeNode* node,
                           const std::function<void(const TreeNode*)>& visitor);
void applyRecursiveVisitor(TreeNode* node, const std::function<void(TreeNode*)>& visitor);

/// Prints the tree's node names, indented by depth, between lines of dashes.
void printTreeRecursively(const TreeNode* root_node, std::ostream& stream = std::cout);

/// Each node's UID and status, parents first.
using SerializedTreeStatus = std::vector<std::pair<std::uint16_t, std::uint8_t>>;
/// Fills `serialized_buffer` with the UID and status of `root_node` and every node below it.
void buildSerializedStatusSnapshot(const TreeNode* root_node,
                                   SerializedTreeStatus& serialized_buffer);

}  // namespace BT
