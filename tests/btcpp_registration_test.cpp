// canopy::btcpp refuses, as a document is registered, what BehaviorTree.CPP 4.10 refuses then
// (names, structure, unknown node types), reads documents apart with XMLParser, registers
// TestNodes, and lets a program's node classes take tick callbacks and other attributes.

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/xml_parsing.h"

namespace {

std::string document(const std::string& trees) {
    return "<root BTCPP_format=\"4\">" + trees + "</root>";
}

class Counter : public BT::SyncActionNode {
public:
    Counter(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() { return {}; }
    int ticks = 0;

private:
    BT::NodeStatus tick() override {
        ++ticks;
        return BT::NodeStatus::SUCCESS;
    }
};

class Locker : public BT::SyncActionNode {
public:
    Locker(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() {
        return {BT::BidirectionalPort<int>("value", "{=}", "its own name's key by default")};
    }

private:
    BT::NodeStatus tick() override {
        auto locked = getLockedPortContent("value");
        if (!locked) return BT::NodeStatus::FAILURE;
        locked.assign(42);
        return BT::NodeStatus::SUCCESS;
    }
};

}  // namespace

TEST_SUITE("btcpp registration") {
    TEST_CASE("getLockedPortContent makes the key a port's default names") {
        BT::BehaviorTreeFactory factory;
        factory.registerNodeType<Locker>("Locker");
        BT::Tree tree = factory.createTreeFromText(
            document(R"(<BehaviorTree ID="T"><Locker/></BehaviorTree>)"));
        CHECK(tree.tickOnce() == BT::NodeStatus::SUCCESS);
        CHECK(tree.rootBlackboard()->get<int>("value") == 42);
    }
    TEST_CASE("findForbiddenChar finds whitespace, XML's and paths' characters, '.', controls") {
        CHECK(BT::findForbiddenChar("my_action-2") == '\0');
        CHECK(BT::findForbiddenChar("检查门状态") == '\0');
        CHECK(BT::findForbiddenChar("My Action") == ' ');
        CHECK(BT::findForbiddenChar("a.b") == '.');
        CHECK(BT::findForbiddenChar("a<b") == '<');
        CHECK(BT::findForbiddenChar(std::string("a\x7F")) == '\x7F');
        CHECK_FALSE(BT::IsAllowedPortName("port name"));
        CHECK_FALSE(BT::IsAllowedPortName("_autoremap"));
        CHECK(BT::IsAllowedPortName("goal"));
        CHECK(BT::IsReservedAttribute("_skipIf"));
        CHECK_FALSE(BT::IsReservedAttribute("goal"));
        CHECK(BT::LibraryVersionNumber() == 41000);
        CHECK(std::string(BT::LibraryVersionString()) == "4.10.0");
    }

    TEST_CASE("a document is refused as it is registered, with its line") {
        BT::BehaviorTreeFactory factory;
        auto refused = [&](const std::string& xml) {
            std::string message;
            try {
                factory.registerBehaviorTreeFromText(xml);
            } catch (const BT::RuntimeError& e) {
                message = e.what();
            }
            return message;
        };
        CHECK(refused(document(R"(<BehaviorTree ID="Root"><AlwaysSuccess/></BehaviorTree>)"))
                  .find("reserved") != std::string::npos);
        CHECK(refused(document(R"(<BehaviorTree ID="Main Tree"><AlwaysSuccess/></BehaviorTree>)"))
                  .find("forbidden character") != std::string::npos);
        CHECK(refused(document(R"(<BehaviorTree ID="Empty"></BehaviorTree>)"))
                  .find("exactly 1 child") != std::string::npos);
        CHECK(refused(document("<BehaviorTree ID=\"T\">\n<Unknown/></BehaviorTree>"))
                  .find("line 2: -> Node not recognized: Unknown") != std::string::npos);
        CHECK(refused(document(R"(<BehaviorTree ID="T"><Inverter/></BehaviorTree>)"))
                  .find("exactly 1 child") != std::string::npos);
        CHECK(refused(document(R"(<BehaviorTree ID="T"><Sequence/></BehaviorTree>)"))
                  .find("1 or more children") != std::string::npos);
        CHECK(refused(document(R"(<BehaviorTree ID="T"><SubTree ID="S"><AlwaysSuccess/></SubTree>)"
                               R"(</BehaviorTree>)"))
                  .find("should not have any child") != std::string::npos);
        CHECK(refused(document(R"(<BehaviorTree ID="T"><AlwaysSuccess/></BehaviorTree>)"
                               R"(<TreeNodesModel><SubTree><input_port name="x"/></SubTree>)"
                               R"(</TreeNodesModel>)"))
                  .find("Missing attribute 'ID'") != std::string::npos);
        CHECK(
            refused(document(R"(<BehaviorTree ID="T"><AlwaysSuccess/></BehaviorTree>)"
                             R"(<TreeNodesModel><SubTree ID="S"><input_port name="1x"/></SubTree>)"
                             R"(</TreeNodesModel>)"))
                .find("cannot start with a digit") != std::string::npos);
        CHECK(refused("<tree/>").find("<root>") != std::string::npos);
        // Nothing of a refused document was registered; a good one is.
        CHECK(factory.registeredBehaviorTrees().empty());
        CHECK(refused(document(R"(<BehaviorTree ID="Good"><AlwaysSuccess name="a.b c"/>)"
                               R"(</BehaviorTree>)"))
                  .empty());
        CHECK(factory.registeredBehaviorTrees() == std::vector<std::string>{"Good"});
    }

    TEST_CASE("VerifyXML checks a document against the node types it is given") {
        const std::string xml = document(R"(<BehaviorTree ID="T"><Sequence><Move/></Sequence>)"
                                         R"(</BehaviorTree>)");
        CHECK_THROWS_AS(BT::VerifyXML(xml, {{"Sequence", BT::NodeType::CONTROL}}),
                        BT::RuntimeError);
        CHECK_NOTHROW(BT::VerifyXML(
            xml, {{"Sequence", BT::NodeType::CONTROL}, {"Move", BT::NodeType::ACTION}}));
        CHECK_THROWS_AS(BT::VerifyXML(xml, {{"Sequence", BT::NodeType::CONTROL},
                                            {"Move", BT::NodeType::DECORATOR}}),
                        BT::RuntimeError);
    }

    TEST_CASE("createTreeFromText refuses what registration refuses, and finds registered trees") {
        BT::BehaviorTreeFactory factory;
        factory.registerBehaviorTreeFromText(
            document(R"(<BehaviorTree ID="Shared"><AlwaysFailure/></BehaviorTree>)"));
        CHECK(factory
                  .createTreeFromText(document(
                      R"(<BehaviorTree ID="Main"><Inverter><SubTree ID="Shared"/></Inverter>)"
                      R"(</BehaviorTree>)"))
                  .tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK_THROWS_AS((void)factory.createTreeFromText(document(
                            R"(<BehaviorTree ID="Main.Tree"><AlwaysSuccess/></BehaviorTree>)")),
                        BT::RuntimeError);
    }

    TEST_CASE("a program may take AlwaysRunning, which BehaviorTree.CPP 4.10 does not have") {
        BT::BehaviorTreeFactory factory;
        int ticks = 0;
        factory.registerSimpleCondition("AlwaysRunning", [&ticks](BT::TreeNode&) {
            ++ticks;
            return BT::NodeStatus::FAILURE;
        });
        BT::Tree tree = factory.createTreeFromText(
            document(R"(<BehaviorTree ID="T"><AlwaysRunning/></BehaviorTree>)"));
        CHECK(tree.tickOnce() == BT::NodeStatus::FAILURE);
        CHECK(ticks == 1);
    }

    TEST_CASE("XMLParser reads documents apart from the factory's and makes trees of them") {
        BT::BehaviorTreeFactory factory;
        BT::XMLParser parser(factory);
        parser.loadFromText(
            document(R"(<BehaviorTree ID="Main"><SubTree ID="Sub"/></BehaviorTree>)"));
        parser.loadFromText(document(R"(<BehaviorTree ID="Sub"><AlwaysFailure/></BehaviorTree>)"));
        CHECK(parser.registeredBehaviorTrees() == std::vector<std::string>{"Main", "Sub"});
        CHECK(factory.registeredBehaviorTrees().empty());
        BT::Tree tree = parser.instantiateTree(BT::Blackboard::create(), "Main");
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::FAILURE);
        // A tree read again replaces the one read before, as registering does.
        parser.loadFromText(document(R"(<BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree>)"));
        CHECK(parser.registeredBehaviorTrees() == std::vector<std::string>{"Main", "Sub"});
        CHECK(parser.instantiateTree(BT::Blackboard::create(), "Main").tickWhileRunning() ==
              BT::NodeStatus::SUCCESS);
        CHECK_THROWS_AS(parser.loadFromText(document(R"(<BehaviorTree ID="X"></BehaviorTree>)")),
                        BT::RuntimeError);
        parser.clearInternalState();
        CHECK(parser.registeredBehaviorTrees().empty());
    }

    TEST_CASE("registerNodeType<TestNode> runs its config, delay and scripts, in a tree") {
        BT::BehaviorTreeFactory factory;
        BT::TestNodeConfig config;
        config.return_status = BT::NodeStatus::FAILURE;
        config.async_delay = std::chrono::milliseconds(20);
        config.failure_script = "failed := true";
        factory.registerNodeType<BT::TestNode>("SlowFailure", config);
        CHECK(factory.manifests().at("SlowFailure").type == BT::NodeType::ACTION);
        BT::Tree tree = factory.createTreeFromText(
            document(R"(<BehaviorTree ID="T"><Sequence><SlowFailure/><Script code="after := 1"/>)"
                     R"(</Sequence></BehaviorTree>)"));
        CHECK(tree.tickOnce() == BT::NodeStatus::RUNNING);
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::FAILURE);
        CHECK(tree.rootBlackboard()->get<bool>("failed"));
        CHECK_THROWS_AS(factory.registerNodeType<BT::TestNode>("SlowFailure", config),
                        BT::BehaviorTreeException);
    }

    TEST_CASE("a TestNode the program makes returns its status after its delay") {
        BT::TestNodeConfig config;
        config.return_status = BT::NodeStatus::SUCCESS;
        config.async_delay = std::chrono::milliseconds(10);
        BT::TestNode node("stand-in", {}, config);
        CHECK(node.executeTick() == BT::NodeStatus::RUNNING);
        std::this_thread::sleep_for(std::chrono::milliseconds(15));
        CHECK(node.executeTick() == BT::NodeStatus::SUCCESS);
        config.success_script = "x := 1";
        CHECK_THROWS_AS(BT::TestNode("scripted", {}, config), BT::RuntimeError);
    }

    TEST_CASE("a program's node takes pre- and post-tick callbacks and a tick monitor") {
        BT::BehaviorTreeFactory factory;
        factory.registerNodeType<Counter>("Counter");
        BT::Tree tree = factory.createTreeFromText(document(
            R"(<BehaviorTree ID="T"><Counter _note="kept" _skipIf="false"/></BehaviorTree>)"));
        auto* counter = dynamic_cast<Counter*>(tree.rootNode());
        REQUIRE(counter != nullptr);
        CHECK(counter->config().other_attributes == BT::PortsRemapping{{"_note", "kept"}});
        CHECK(counter->config().pre_conditions.at(BT::PreCond::SKIP_IF) == "false");

        int monitored = 0;
        counter->setTickMonitorCallback(
            [&](BT::TreeNode&, BT::NodeStatus, std::chrono::microseconds) { ++monitored; });
        CHECK(tree.tickOnce() == BT::NodeStatus::SUCCESS);
        CHECK(counter->ticks == 1);
        CHECK(monitored == 1);

        counter->setPreTickFunction([](BT::TreeNode&) { return BT::NodeStatus::FAILURE; });
        CHECK(tree.tickOnce() == BT::NodeStatus::FAILURE);
        CHECK(counter->ticks == 1);  // the callback's status stood in for the tick

        counter->setPreTickFunction({});
        counter->setPostTickFunction(
            [](BT::TreeNode&, BT::NodeStatus) { return BT::NodeStatus::FAILURE; });
        CHECK(tree.tickOnce() == BT::NodeStatus::FAILURE);
        CHECK(counter->ticks == 2);
    }

}  // TEST_SUITE
