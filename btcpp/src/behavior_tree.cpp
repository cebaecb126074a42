#include "behaviortree_cpp/behavior_tree.h"

#include <functional>

namespace BT {

namespace {

template <typename Node, typename Visitor>
void visit(Node* node, const Visitor& visitor) {
    if (node == nullptr)
        throw LogicError("One of the children of a DecoratorNode or ControlNode is nullptr");
    visitor(node);
    if (const auto* control = dynamic_cast<const ControlNode*>(node)) {
        for (TreeNode* child : control->children()) visit<Node>(child, visitor);
    } else if (const auto* decorator = dynamic_cast<const DecoratorNode*>(node)) {
        visit<Node>(const_cast<TreeNode*>(decorator->child()), visitor);
    }
}

}  // namespace

void applyRecursiveVisitor(const TreeNode* node,
                           const std::function<void(const TreeNode*)>& visitor) {
    visit<const TreeNode>(node, visitor);
}

void applyRecursiveVisitor(TreeNode* node, const std::function<void(TreeNode*)>& visitor) {
    visit<TreeNode>(node, visitor);
}

void buildSerializedStatusSnapshot(const TreeNode* root_node,
                                   SerializedTreeStatus& serialized_buffer) {
    serialized_buffer.clear();
    visit<const TreeNode>(root_node, [&](const TreeNode* node) {
        serialized_buffer.emplace_back(node->UID(), static_cast<std::uint8_t>(node->status()));
    });
}

void printTreeRecursively(const TreeNode* root_node, std::ostream& stream) {
    std::function<void(unsigned, const TreeNode*)> print = [&](unsigned indent,
                                                               const TreeNode* node) {
        for (unsigned i = 0; i < indent; ++i) stream << "   ";
        if (node == nullptr) {
            stream << "!nullptr!" << std::endl;
            return;
        }
        stream << node->name() << std::endl;
        ++indent;
        if (const auto* control = dynamic_cast<const ControlNode*>(node)) {
            for (const TreeNode* child : control->children()) print(indent, child);
        } else if (const auto* decorator = dynamic_cast<const DecoratorNode*>(node)) {
            print(indent, decorator->child());
        }
    };
    stream << "----------------" << std::endl;
    print(0, root_node);
    stream << "----------------" << std::endl;
}

}  // namespace BT
