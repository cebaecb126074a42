#pragma once

// BT::SwitchNode<N>: N cases and a default. At each tick it reads its `variable` port and
// ticks the first child whose `case_i` port equals it (as text, as integers or enum names,
// or as numbers within a float's epsilon), or the last child when none does (or `variable`
// cannot be read); a running child of another case is halted first.

#include <string>
#include <vector>

#include "behaviortree_cpp/control_node.h"

namespace BT {

namespace details {
/// Whether two port texts name the same case: equal text, the same integer (a name in
/// `enums` counts as its value) or the same number within a float's epsilon.
bool CheckStringEquality(const std::string& v1, const std::string& v2,
                         const ScriptingEnumsRegistry* enums);
}  // namespace details

template <size_t NUM_CASES>
class SwitchNode : public ControlNode {
public:
    SwitchNode(const std::string& name, const NodeConfig& config) : ControlNode(name, config) {
        setRegistrationID("Switch");
        for (size_t i = 1; i <= NUM_CASES; ++i) case_keys_.push_back(caseKey(i));
    }
    ~SwitchNode() override = default;
    SwitchNode(const SwitchNode&) = delete;
    SwitchNode& operator=(const SwitchNode&) = delete;

    void halt() override {
        running_child_ = -1;
        ControlNode::halt();
    }

    static PortsList providedPorts() {
        PortsList ports;
        ports.insert(InputPort<std::string>("variable"));
        for (size_t i = 1; i <= NUM_CASES; ++i) ports.insert(InputPort<std::string>(caseKey(i)));
        return ports;
    }

private:
    static std::string caseKey(size_t i) { return "case_" + std::to_string(i); }

    NodeStatus tick() override {
        if (childrenCount() != NUM_CASES + 1) {
            throw LogicError("SwitchNode [", name(), "] has ", childrenCount(),
                             " children: it needs one per case and a default, ", NUM_CASES + 1);
        }
        int chosen = static_cast<int>(NUM_CASES);
        std::string variable;
        if (getInput("variable", variable)) {
            std::string value;
            for (size_t i = 0; i < NUM_CASES; ++i) {
                if (getInput(case_keys_[i], value) &&
                    details::CheckStringEquality(variable, value, config().enums.get())) {
                    chosen = static_cast<int>(i);
                    break;
                }
            }
        }
        if (running_child_ != -1 && running_child_ != chosen) haltChild(running_child_);

        const NodeStatus result = children_nodes_[chosen]->executeTick();
        switch (result) {
            case NodeStatus::SKIPPED: running_child_ = -1; break;
            case NodeStatus::RUNNING: running_child_ = chosen; break;
            default: resetChildren(); running_child_ = -1;
        }
        return result;
    }

    int running_child_ = -1;
    std::vector<std::string> case_keys_;
};

}  // namespace BT
