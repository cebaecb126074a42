// A program written for BehaviorTree.CPP 4, built against canopy::btcpp unchanged.
#include <iostream>

#include "behaviortree_cpp/bt_factory.h"

namespace {

class Count : public BT::StatefulActionNode {
public:
    Count(const std::string& name, const BT::NodeConfig& config)
        : BT::StatefulActionNode(name, config) {}
    static BT::PortsList providedPorts() {
        return {BT::InputPort<int>("upto"), BT::OutputPort<int>("reached")};
    }
    BT::NodeStatus onStart() override {
        count_ = 0;
        return onRunning();
    }
    BT::NodeStatus onRunning() override {
        setOutput("reached", ++count_);
        return count_ < getInput<int>("upto").value() ? BT::NodeStatus::RUNNING
                                                      : BT::NodeStatus::SUCCESS;
    }
    void onHalted() override {}

private:
    int count_ = 0;
};

}  // namespace

int main() {
    BT::BehaviorTreeFactory factory;
    factory.registerNodeType<Count>("Count");
    auto tree = factory.createTreeFromText(R"(
      <root BTCPP_format="4"><BehaviorTree ID="Main">
        <Sequence><Count upto="3" reached="{n}"/><AlwaysSuccess/></Sequence>
      </BehaviorTree></root>)");
    const BT::NodeStatus status = tree.tickWhileRunning(std::chrono::milliseconds(0));
    std::cout << "btcpp: " << BT::toStr(status) << " after " << tree.rootBlackboard()->get<int>("n")
              << " counts\n";
    return status == BT::NodeStatus::SUCCESS ? 0 : 1;
}
