// A program written for BehaviorTree.CPP 4 that lets Groot2 attach, built against
// canopy::btcpp and canopy::btcpp_groot2 unchanged.
#include <iostream>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/groot2_publisher.h"

int main() {
    BT::BehaviorTreeFactory factory;
    auto tree = factory.createTreeFromText(R"(
      <root BTCPP_format="4"><BehaviorTree ID="Main">
        <Sequence><AlwaysSuccess/><AlwaysSuccess/></Sequence>
      </BehaviorTree></root>)");
    // Ports from 31667 on, until a pair is free.
    for (unsigned port = 31667; port < 31767; port += 2) {
        try {
            const BT::Groot2Publisher publisher(tree, port);
            const BT::NodeStatus status = tree.tickWhileRunning(std::chrono::milliseconds(0));
            std::cout << "btcpp_groot2: " << BT::toStr(status) << " on port " << port << '\n';
            return status == BT::NodeStatus::SUCCESS ? 0 : 1;
        } catch (const BT::RuntimeError&) {
        }
    }
    std::cerr << "btcpp_groot2: no free pair of ports\n";
    return 1;
}
