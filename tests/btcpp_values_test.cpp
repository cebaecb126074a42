// canopy::btcpp: the values a BehaviorTree.CPP program writes (its own, its nodes', its
// scripts' and SetBlackboard's), read back as BehaviorTree.CPP 4.10 reads them. Each expected
// outcome is what the same program printed against BehaviorTree.CPP 4.10.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "behaviortree_cpp/bt_factory.h"

namespace {

struct Pose2D {
    double x = 0;
    double y = 0;
};

}  // namespace

namespace BT {
template <>
inline Pose2D convertFromString<Pose2D>(StringView str) {
    const auto parts = splitString(str, ';');
    if (parts.size() != 2) throw RuntimeError("invalid Pose2D: ", str);
    return {convertFromString<double>(parts[0]), convertFromString<double>(parts[1])};
}
}  // namespace BT

namespace {

// What the tree's nodes said, in order.
std::string nodes_said;

// Says its message.
class Say : public BT::SyncActionNode {
public:
    Say(const std::string& name, const BT::NodeConfig& config) : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() { return {BT::InputPort<std::string>("msg")}; }
    BT::NodeStatus tick() override {
        nodes_said += getInput<std::string>("msg").value() + " ";
        return BT::NodeStatus::SUCCESS;
    }
};

// Writes its text to an OutputPort<std::string>, as a decision node does.
class Decide : public BT::SyncActionNode {
public:
    Decide(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() {
        return {BT::InputPort<std::string>("choice"), BT::OutputPort<std::string>("decision")};
    }
    BT::NodeStatus tick() override {
        setOutput("decision", getInput<std::string>("choice").value());
        return BT::NodeStatus::SUCCESS;
    }
};

// Drives to a goal read as a Pose2D.
class GoTo : public BT::SyncActionNode {
public:
    GoTo(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() { return {BT::InputPort<Pose2D>("goal")}; }
    BT::NodeStatus tick() override {
        const auto goal = getInput<Pose2D>("goal");
        if (!goal) throw BT::RuntimeError(goal.error());
        nodes_said += std::to_string(goal->x) + "," + std::to_string(goal->y) + " ";
        return BT::NodeStatus::SUCCESS;
    }
};

// Runs until halted.
class Work : public BT::StatefulActionNode {
public:
    Work(const std::string& name, const BT::NodeConfig& config)
        : BT::StatefulActionNode(name, config) {}
    static BT::PortsList providedPorts() { return {}; }
    BT::NodeStatus onStart() override { return BT::NodeStatus::RUNNING; }
    BT::NodeStatus onRunning() override { return BT::NodeStatus::RUNNING; }
    void onHalted() override { nodes_said += "halted "; }
};

struct Thing {};

enum class Color { Red, Green, Blue };

// Paints in a Color read from its port.
class Paint : public BT::SyncActionNode {
public:
    Paint(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() { return {BT::InputPort<Color>("color")}; }
    BT::NodeStatus tick() override {
        const auto color = getInput<Color>("color");
        if (!color) throw BT::RuntimeError(color.error());
        nodes_said += std::to_string(static_cast<int>(*color)) + " ";
        return BT::NodeStatus::SUCCESS;
    }
};

// A port whose default is no object.
class UseThing : public BT::SyncActionNode {
public:
    UseThing(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    static BT::PortsList providedPorts() {
        return {BT::InputPort<std::shared_ptr<Thing>>("thing", nullptr, "what to use")};
    }
    BT::NodeStatus tick() override {
        const auto thing = getInput<std::shared_ptr<Thing>>("thing");
        return thing && *thing == nullptr ? BT::NodeStatus::SUCCESS : BT::NodeStatus::FAILURE;
    }
};

BT::BehaviorTreeFactory& factory() {
    static BT::BehaviorTreeFactory made = [] {
        BT::BehaviorTreeFactory f;
        f.registerNodeType<Say>("Say");
        f.registerNodeType<Decide>("Decide");
        f.registerNodeType<GoTo>("GoTo");
        f.registerNodeType<Work>("Work");
        f.registerNodeType<UseThing>("UseThing");
        f.registerNodeType<Paint>("Paint");
        f.registerScriptingEnums<Color>();
        return f;
    }();
    return made;
}

std::string tree_of(const std::string& body) {
    return R"(<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main">)" + body +
           "</BehaviorTree></root>";
}

// A Switch2 after `writer`, whose branches say which case ran.
std::string switch_after(const std::string& writer) {
    return tree_of("<Sequence>" + writer +
                   R"(<Switch2 variable="{mode}" case_1="1" case_2="b">)"
                   R"(<Say msg="one"/><Say msg="bee"/><Say msg="default"/></Switch2>)"
                   "</Sequence>");
}

}  // namespace

TEST_SUITE("btcpp values") {
    TEST_CASE("Switch takes the case whoever wrote the key, as BehaviorTree.CPP's does") {
        struct writer {
            const char* what;
            std::string xml;
            std::string branch;
        };
        for (const writer& w : {
                 writer{"SetBlackboard", R"(<SetBlackboard output_key="mode" value="1"/>)", "one "},
                 writer{"a script's string", R"(<Script code="mode:='1'"/>)", "one "},
                 writer{"a script's integer", R"(<Script code="mode:=1"/>)", "one "},
                 writer{"a script's other string", R"(<Script code="mode:='b'"/>)", "bee "},
                 writer{"a node's output", R"(<Decide choice="b" decision="{mode}"/>)", "bee "},
                 writer{"no one", "", "default "},
             }) {
            CAPTURE(w.what);
            nodes_said.clear();
            BT::Tree tree = factory().createTreeFromText(switch_after(w.xml));
            CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
            CHECK(nodes_said == w.branch);
        }
    }

    TEST_CASE("Switch reads registered enums' names on either side, as BehaviorTree.CPP's does") {
        const std::string cases =
            R"(<Switch3 variable="{color}" case_1="Red" case_2="Green" case_3="2">)"
            R"(<Say msg="red"/><Say msg="green"/><Say msg="two"/><Say msg="default"/></Switch3>)";
        struct writer {
            const char* what;
            std::string xml;
            std::string branch;
        };
        for (const writer& w : {
                 writer{"a script's enum", R"(<Script code="color:=Green"/>)", "green "},
                 writer{"a script's enum 2", R"(<Script code="color:=Blue"/>)", "two "},
                 writer{"SetBlackboard's name",
                        R"(<SetBlackboard output_key="color" value="Blue"/>)", "two "},
                 writer{"a script's integer", R"(<Script code="color:=0"/>)", "red "},
                 writer{"a script's string of a name", R"(<Script code="color:='Green'"/>)",
                        "green "},
                 writer{"a name not registered", R"(<Script code="color:='Purple'"/>)", "default "},
             }) {
            CAPTURE(w.what);
            nodes_said.clear();
            BT::Tree tree =
                factory().createTreeFromText(tree_of("<Sequence>" + w.xml + cases + "</Sequence>"));
            CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
            CHECK(nodes_said == w.branch);
        }
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(tree_of(cases));
        tree.rootBlackboard()->set("color", std::string("Red"));
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "red ");
    }

    TEST_CASE("a subtree's key no one wrote holds no value; autoremap reaches the main tree") {
        // Says its message, or that it has none.
        class Echo : public BT::SyncActionNode {
        public:
            Echo(const std::string& name, const BT::NodeConfig& config)
                : BT::SyncActionNode(name, config) {}
            static BT::PortsList providedPorts() { return {BT::InputPort<std::string>("msg")}; }
            BT::NodeStatus tick() override {
                const auto msg = getInput<std::string>("msg");
                nodes_said += (msg ? msg.value() : std::string("(missing)")) + " ";
                return BT::NodeStatus::SUCCESS;
            }
        };
        BT::BehaviorTreeFactory f;
        f.registerNodeType<Echo>("Echo");
        nodes_said.clear();
        // `greetings` is the main tree's, read and never written: in a file with subtrees too.
        BT::Tree unwritten = f.createTreeFromText(
            R"(<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main"><Sequence>)"
            R"(<Script code="thoughts := 'hi'"/><SubTree ID="Sub" in_arg="{thoughts}"/>)"
            R"(<Echo msg="{greetings}"/></Sequence></BehaviorTree>)"
            R"(<BehaviorTree ID="Sub"><Echo msg="{in_arg}"/></BehaviorTree></root>)");
        CHECK(unwritten.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "hi (missing) ");
        nodes_said.clear();
        // Two levels of _autoremap: the inner tree reads and writes the main tree's keys.
        BT::Tree nested = f.createTreeFromText(
            R"(<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main"><Sequence>)"
            R"(<SetBlackboard output_key="topic" value="news"/>)"
            R"(<SubTree ID="Outer" _autoremap="true"/><Echo msg="{reply}"/></Sequence></BehaviorTree>)"
            R"(<BehaviorTree ID="Outer"><SubTree ID="Inner" _autoremap="true"/></BehaviorTree>)"
            R"(<BehaviorTree ID="Inner"><Sequence><Echo msg="{topic}"/>)"
            R"(<Script code="reply := 'done'"/></Sequence></BehaviorTree></root>)");
        CHECK(nested.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "news done ");
    }

    TEST_CASE("Switch takes the case of a string the program sets") {
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(switch_after(""));
        tree.rootBlackboard()->set("mode", std::string("b"));
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "bee ");
    }

    TEST_CASE("a script reads a string and a boolean the program sets") {
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(tree_of(
            R"(<Sequence><Say msg="chasing" _while="decision == 'chase'"/>)"
            R"(<Say msg="in" _while="!ball_out"/><Say msg="skipped" _skipIf="flag"/></Sequence>)"));
        tree.rootBlackboard()->set("decision", std::string("chase"));
        tree.rootBlackboard()->set("ball_out", false);
        tree.rootBlackboard()->set("flag", true);
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "chasing in ");
    }

    TEST_CASE("a key the program's blackboard holds keeps the program's type, as its entry does") {
        // The program writes `b` as a double before the tree is made; the script's `b := 2`
        // assigns into that entry (BehaviorTree.CPP 4.10: b is 2.0 after the tick). The same
        // text made without it types `b` from the script.
        const std::string text = tree_of(
            R"(<Sequence><Script code="b := 2"/><ScriptCondition code="b == 2"/></Sequence>)");
        auto board = BT::Blackboard::create();
        board->set("b", 2.5);
        BT::Tree tree = factory().createTreeFromText(text, board);
        CHECK(board->get<double>("b") == 2.5);
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(board->get<double>("b") == 2.0);
        BT::Tree plain = factory().createTreeFromText(text);
        CHECK(plain.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(plain.rootBlackboard()->get<int>("b") == 2);
    }

    TEST_CASE("a name a script reads that no one wrote fails the tick") {
        BT::Tree tree = factory().createTreeFromText(
            tree_of(R"(<Sequence><Say msg="x" _skipIf="flag"/></Sequence>)"));
        CHECK_THROWS_AS(tree.tickWhileRunning(), BT::RuntimeError);
    }

    TEST_CASE("a typed port reads the text SetBlackboard wrote with its convertFromString") {
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(
            tree_of(R"(<Sequence><SetBlackboard output_key="goal" value="1;2"/>)"
                    R"(<GoTo goal="{goal}"/></Sequence>)"));
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "1.000000,2.000000 ");
    }

    TEST_CASE("Sleep, Delay and Timeout read milliseconds from a key") {
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(
            tree_of(R"(<Sequence><Script code="t:=20"/><Sleep msec="{t}"/>)"
                    R"(<Delay delay_msec="{t}"><Say msg="delayed"/></Delay>)"
                    R"(<Timeout msec="{t}"><Work/></Timeout></Sequence>)"));
        const auto start = std::chrono::steady_clock::now();
        CHECK(tree.tickWhileRunning(std::chrono::milliseconds(1)) == BT::NodeStatus::FAILURE);
        const auto took = std::chrono::steady_clock::now() - start;
        CHECK(nodes_said == "delayed halted ");
        CHECK(took >= std::chrono::milliseconds(60));  // three waits of 20 ms, one after another
    }

    TEST_CASE("a Timeout of 0 ms never times out") {
        BT::Tree tree = factory().createTreeFromText(
            tree_of(R"(<Timeout msec="0"><Sleep msec="30"/></Timeout>)"));
        CHECK(tree.tickWhileRunning(std::chrono::milliseconds(1)) == BT::NodeStatus::SUCCESS);
    }

    TEST_CASE("an _onHalted script assigns a key the program set") {
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(
            tree_of(R"(<ReactiveSequence><Script code="n = n + 1"/>)"
                    R"(<ScriptCondition code="n &lt; 2"/><Work _onHalted="B=69"/>)"
                    "</ReactiveSequence>"));
        tree.rootBlackboard()->set("B", 0);
        tree.rootBlackboard()->set("n", 0);
        CHECK(tree.tickOnce() == BT::NodeStatus::RUNNING);
        CHECK(tree.tickOnce() == BT::NodeStatus::FAILURE);
        CHECK(nodes_said == "halted ");
        CHECK(tree.rootBlackboard()->get<int>("B") == 69);
    }

    TEST_CASE("bitwise operators apply to each other's results") {
        BT::Tree tree = factory().createTreeFromText(
            tree_of(R"xml(<Sequence><Script code="b:=1; b = -(b ^ 0x3 | 3)"/>)xml"
                    R"xml(<Script code="c:=1; d := -(1 + c) &amp; 5"/></Sequence>)xml"));
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(tree.rootBlackboard()->get<double>("b") == -3);
        CHECK(tree.rootBlackboard()->get<double>("d") == 4);
    }

    TEST_CASE("an enum port reads the names registerScriptingEnums registered") {
        nodes_said.clear();
        BT::Tree tree = factory().createTreeFromText(
            R"(<root BTCPP_format="4" main_tree_to_execute="Main">)"
            R"(<BehaviorTree ID="Main"><Sequence>)"
            R"(<Paint color="Green"/><Paint color="2"/>)"
            R"(<Script code="c:=Green"/><Paint color="{c}"/>)"
            R"(<SubTree ID="Painter" color="Blue"/><SubTree ID="Painter" color="{c}"/>)"
            R"(</Sequence></BehaviorTree>)"
            R"(<BehaviorTree ID="Painter"><Paint color="{color}"/></BehaviorTree></root>)");
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
        CHECK(nodes_said == "1 2 1 2 1 ");
    }

    TEST_CASE("an input port of a shared_ptr may default to nullptr") {
        const auto ports = UseThing::providedPorts();
        CHECK(ports.at("thing").defaultValueString().empty());
        BT::Tree tree = factory().createTreeFromText(tree_of("<UseThing/>"));
        CHECK(tree.tickWhileRunning() == BT::NodeStatus::SUCCESS);
    }

    TEST_CASE("a test node whose status script gives IDLE throws BT::RuntimeError") {
        BT::BehaviorTreeFactory f;
        f.registerNodeType<Work>("Work");
        BT::TestNodeConfig config;
        config.return_status_script = "IDLE";
        f.addSubstitutionRule("Work", config);
        BT::Tree tree = f.createTreeFromText(tree_of("<Work/>"));
        CHECK_THROWS_WITH_AS(
            tree.tickWhileRunning(),
            doctest::Contains("TestNode return_status_script resolved to invalid status"),
            BT::RuntimeError);
    }
}
