// canopy::btcpp's built-in controls and decorators as classes (controls/*.h, decorators/*.h),
// built and ticked by the test itself outside any tree, as BehaviorTree.CPP's own tests use
// them: statuses of the children, halts, thresholds and timers.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

#include "behaviortree_cpp/behavior_tree.h"

namespace {

using namespace std::chrono_literals;
using BT::NodeStatus;

// A leaf that returns the status the test gives it, and counts its ticks and halts.
class Scripted : public BT::ActionNodeBase {
public:
    explicit Scripted(const std::string& name, NodeStatus first_result = NodeStatus::SUCCESS)
        : BT::ActionNodeBase(name, {}), result(first_result) {}
    NodeStatus tick() override {
        ++ticks;
        return result;
    }
    void halt() override {
        ++halts;
        resetStatus();
    }

    NodeStatus result;
    int ticks = 0;
    int halts = 0;
};

// The number of times `node` must be ticked until it is not RUNNING, with a pause between.
int ticksUntilDone(BT::TreeNode& node, NodeStatus& result) {
    int ticks = 1;
    result = node.executeTick();
    for (; result == NodeStatus::RUNNING && ticks < 1000; ++ticks) {
        std::this_thread::sleep_for(2ms);
        result = node.executeTick();
    }
    return ticks;
}

}  // namespace

TEST_SUITE("BehaviorTree.CPP built-in classes") {
    TEST_CASE("a SequenceNode goes on from its running child and starts over after a failure") {
        BT::SequenceNode sequence("sequence");
        Scripted first("first");
        Scripted second("second", NodeStatus::RUNNING);
        Scripted third("third");
        sequence.addChild(&first);
        sequence.addChild(&second);
        sequence.addChild(&third);
        CHECK(sequence.registrationName() == "Sequence");

        CHECK(sequence.executeTick() == NodeStatus::RUNNING);
        CHECK(first.status() == NodeStatus::SUCCESS);
        CHECK(second.status() == NodeStatus::RUNNING);
        CHECK(third.ticks == 0);
        CHECK(sequence.executeTick() == NodeStatus::RUNNING);
        CHECK(first.ticks == 1);  // not ticked again while the second runs
        CHECK(second.ticks == 2);

        second.result = NodeStatus::SUCCESS;
        CHECK(sequence.executeTick() == NodeStatus::SUCCESS);
        CHECK(third.ticks == 1);
        // A finished sequence makes its children idle.
        CHECK(first.status() == NodeStatus::IDLE);
        CHECK(second.status() == NodeStatus::IDLE);
        CHECK(third.status() == NodeStatus::IDLE);

        second.result = NodeStatus::FAILURE;
        CHECK(sequence.executeTick() == NodeStatus::FAILURE);
        CHECK(first.ticks == 2);
        CHECK(third.ticks == 1);
        CHECK(second.status() == NodeStatus::IDLE);

        SUBCASE("a halt halts the running child and starts over") {
            second.result = NodeStatus::RUNNING;
            CHECK(sequence.executeTick() == NodeStatus::RUNNING);
            sequence.haltNode();
            CHECK(second.halts == 1);
            CHECK(second.status() == NodeStatus::IDLE);
            CHECK(sequence.status() == NodeStatus::IDLE);
            CHECK(sequence.executeTick() == NodeStatus::RUNNING);
            CHECK(first.ticks == 4);
        }
        SUBCASE("a sequence of skipped children is skipped") {
            first.result = second.result = third.result = NodeStatus::SKIPPED;
            CHECK(sequence.executeTick() == NodeStatus::SKIPPED);
        }
        SUBCASE("the asynchronous sequence keeps its name") {
            BT::SequenceNode async_sequence("async", true);
            CHECK(async_sequence.registrationName() == "AsyncSequence");
        }
    }

    TEST_CASE("a SequenceWithMemory goes on from the child that failed") {
        BT::SequenceWithMemory sequence("memory");
        Scripted first("first");
        Scripted second("second", NodeStatus::FAILURE);
        Scripted third("third");
        sequence.addChild(&first);
        sequence.addChild(&second);
        sequence.addChild(&third);

        CHECK(sequence.executeTick() == NodeStatus::FAILURE);
        CHECK(second.status() == NodeStatus::IDLE);
        CHECK(sequence.executeTick() == NodeStatus::FAILURE);
        CHECK(first.ticks == 1);
        CHECK(second.ticks == 2);

        second.result = NodeStatus::SUCCESS;
        CHECK(sequence.executeTick() == NodeStatus::SUCCESS);
        CHECK(first.ticks == 1);
        CHECK(third.ticks == 1);
        // Done: the next run starts from the first child.
        CHECK(sequence.executeTick() == NodeStatus::SUCCESS);
        CHECK(first.ticks == 2);
    }

    TEST_CASE("a ReactiveSequence checks its conditions at each tick and halts what runs") {
        BT::ReactiveSequence sequence("reactive");
        Scripted condition("condition");
        Scripted action("action", NodeStatus::RUNNING);
        sequence.addChild(&condition);
        sequence.addChild(&action);

        CHECK(sequence.executeTick() == NodeStatus::RUNNING);
        CHECK(sequence.executeTick() == NodeStatus::RUNNING);
        CHECK(condition.ticks == 2);
        CHECK(action.ticks == 2);

        condition.result = NodeStatus::FAILURE;
        CHECK(sequence.executeTick() == NodeStatus::FAILURE);
        CHECK(action.ticks == 2);
        CHECK(action.halts == 1);
        CHECK(action.status() == NodeStatus::IDLE);
        CHECK(condition.status() == NodeStatus::IDLE);

        SUBCASE("a second running child throws once the check is enabled") {
            BT::ReactiveSequence strict("strict");
            Scripted first("first", NodeStatus::RUNNING);
            Scripted second("second", NodeStatus::RUNNING);
            strict.addChild(&first);
            strict.addChild(&second);
            CHECK(strict.executeTick() == NodeStatus::RUNNING);
            first.result = NodeStatus::SUCCESS;
            BT::ReactiveSequence::EnableException(true);
            CHECK_THROWS_WITH_AS(strict.executeTick(),
                                 doctest::Contains("only one child may return RUNNING"),
                                 BT::NodeExecutionError);
            BT::ReactiveSequence::EnableException(false);
            CHECK(strict.executeTick() == NodeStatus::RUNNING);
            CHECK(second.ticks == 2);
        }
        SUBCASE("the running action halts the children after it") {
            Scripted later("later", NodeStatus::RUNNING);
            sequence.addChild(&later);
            condition.result = NodeStatus::SUCCESS;
            action.result = NodeStatus::SUCCESS;
            CHECK(sequence.executeTick() == NodeStatus::RUNNING);
            action.result = NodeStatus::RUNNING;
            CHECK(sequence.executeTick() == NodeStatus::RUNNING);
            CHECK(later.halts == 1);
        }
    }

    TEST_CASE("a FallbackNode tries its children in order until one does not fail") {
        BT::FallbackNode fallback("fallback");
        Scripted first("first", NodeStatus::FAILURE);
        Scripted second("second", NodeStatus::RUNNING);
        Scripted third("third");
        fallback.addChild(&first);
        fallback.addChild(&second);
        fallback.addChild(&third);

        CHECK(fallback.executeTick() == NodeStatus::RUNNING);
        CHECK(fallback.executeTick() == NodeStatus::RUNNING);
        CHECK(first.ticks == 1);
        CHECK(second.ticks == 2);

        second.result = NodeStatus::SUCCESS;
        CHECK(fallback.executeTick() == NodeStatus::SUCCESS);
        CHECK(third.ticks == 0);
        CHECK(first.status() == NodeStatus::IDLE);
        CHECK(second.status() == NodeStatus::IDLE);

        second.result = NodeStatus::FAILURE;
        third.result = NodeStatus::FAILURE;
        CHECK(fallback.executeTick() == NodeStatus::FAILURE);
        CHECK(first.ticks == 2);
        CHECK(third.ticks == 1);
    }

    TEST_CASE("a ReactiveFallback ticks from the first child and halts the running one") {
        BT::ReactiveFallback fallback("reactive");
        Scripted condition("condition", NodeStatus::FAILURE);
        Scripted action("action", NodeStatus::RUNNING);
        fallback.addChild(&condition);
        fallback.addChild(&action);

        CHECK(fallback.executeTick() == NodeStatus::RUNNING);
        condition.result = NodeStatus::SUCCESS;
        CHECK(fallback.executeTick() == NodeStatus::SUCCESS);
        CHECK(condition.ticks == 2);
        CHECK(action.ticks == 1);
        CHECK(action.halts == 1);
        CHECK(action.status() == NodeStatus::IDLE);

        condition.result = NodeStatus::FAILURE;
        action.result = NodeStatus::FAILURE;
        CHECK(fallback.executeTick() == NodeStatus::FAILURE);
    }

    TEST_CASE("a ParallelNode succeeds or fails at its thresholds and halts the others") {
        BT::ParallelNode parallel("parallel");
        Scripted first("first");
        Scripted second("second", NodeStatus::RUNNING);
        Scripted third("third", NodeStatus::RUNNING);
        parallel.addChild(&first);
        parallel.addChild(&second);
        parallel.addChild(&third);

        SUBCASE("thresholds count back from the number of children") {
            CHECK(parallel.successThreshold() == 3);
            CHECK(parallel.failureThreshold() == 1);
            parallel.setSuccessThreshold(-2);
            parallel.setFailureThreshold(-1);
            CHECK(parallel.successThreshold() == 2);
            CHECK(parallel.failureThreshold() == 3);
        }
        SUBCASE("by default every child must succeed, and a finished one is not ticked again") {
            CHECK(parallel.executeTick() == NodeStatus::RUNNING);
            CHECK(parallel.executeTick() == NodeStatus::RUNNING);
            CHECK(first.ticks == 1);
            CHECK(second.ticks == 2);
            second.result = third.result = NodeStatus::SUCCESS;
            CHECK(parallel.executeTick() == NodeStatus::SUCCESS);
            CHECK(first.status() == NodeStatus::IDLE);
            CHECK(third.status() == NodeStatus::IDLE);
        }
        SUBCASE("a success threshold reached halts the children still running") {
            parallel.setSuccessThreshold(2);
            CHECK(parallel.executeTick() == NodeStatus::RUNNING);
            second.result = NodeStatus::SUCCESS;
            CHECK(parallel.executeTick() == NodeStatus::SUCCESS);
            CHECK(third.ticks == 1);  // the threshold was reached before its turn
            CHECK(third.halts == 1);
            CHECK(third.status() == NodeStatus::IDLE);
        }
        SUBCASE("a failure fails it at once, with the failure threshold of 1") {
            CHECK(parallel.executeTick() == NodeStatus::RUNNING);
            second.result = NodeStatus::FAILURE;
            CHECK(parallel.executeTick() == NodeStatus::FAILURE);
            CHECK(third.halts == 1);
        }
        SUBCASE("it fails once too many failed to reach the success threshold") {
            parallel.setSuccessThreshold(2);
            parallel.setFailureThreshold(3);
            first.result = NodeStatus::FAILURE;
            second.result = NodeStatus::FAILURE;
            CHECK(parallel.executeTick() == NodeStatus::FAILURE);
            CHECK(third.ticks == 0);
        }
        SUBCASE("a threshold above the number of children throws") {
            parallel.setSuccessThreshold(4);
            CHECK_THROWS_WITH_AS(parallel.executeTick(), doctest::Contains("it can never succeed"),
                                 BT::RuntimeError);
        }
        SUBCASE("thresholds may come from ports") {
            BT::NodeConfig config;
            config.input_ports = {{"success_count", "1"}, {"failure_count", "2"}};
            BT::ParallelNode from_ports("from_ports", config);
            Scripted fails("fails", NodeStatus::FAILURE);
            Scripted succeeds("succeeds");
            from_ports.addChild(&fails);
            from_ports.addChild(&succeeds);
            CHECK(from_ports.executeTick() == NodeStatus::SUCCESS);
            CHECK(from_ports.successThreshold() == 1);
            CHECK(from_ports.failureThreshold() == 2);
        }
    }

    TEST_CASE("a ParallelAllNode waits for every child, then counts the failures") {
        BT::NodeConfig config;
        config.input_ports = {{"max_failures", "2"}};
        BT::ParallelAllNode parallel("all", config);
        Scripted first("first", NodeStatus::FAILURE);
        Scripted second("second", NodeStatus::RUNNING);
        Scripted third("third");
        parallel.addChild(&first);
        parallel.addChild(&second);
        parallel.addChild(&third);

        CHECK(parallel.executeTick() == NodeStatus::RUNNING);
        CHECK(parallel.failureThreshold() == 2);
        CHECK(parallel.executeTick() == NodeStatus::RUNNING);
        CHECK(first.ticks == 1);
        CHECK(third.ticks == 1);

        SUBCASE("two failures fail it") {
            second.result = NodeStatus::FAILURE;
            CHECK(parallel.executeTick() == NodeStatus::FAILURE);
        }
        SUBCASE("one failure does not") {
            second.result = NodeStatus::SUCCESS;
            CHECK(parallel.executeTick() == NodeStatus::SUCCESS);
        }
        CHECK(first.status() == NodeStatus::IDLE);
        CHECK(second.status() == NodeStatus::IDLE);
        // The next run ticks every child again.
        second.result = NodeStatus::SUCCESS;
        CHECK(parallel.executeTick() == NodeStatus::SUCCESS);
        CHECK(first.ticks == 2);
    }

    TEST_CASE("an IfThenElseNode runs the branch its condition chose until it finishes") {
        BT::IfThenElseNode if_then_else("if");
        Scripted condition("condition");
        Scripted then_branch("then", NodeStatus::RUNNING);
        Scripted else_branch("else");
        if_then_else.addChild(&condition);
        if_then_else.addChild(&then_branch);

        SUBCASE("with two children, a false condition fails it") {
            condition.result = NodeStatus::FAILURE;
            CHECK(if_then_else.executeTick() == NodeStatus::FAILURE);
            CHECK(then_branch.ticks == 0);
        }
        SUBCASE("the condition is not ticked again while its branch runs") {
            if_then_else.addChild(&else_branch);
            CHECK(if_then_else.executeTick() == NodeStatus::RUNNING);
            condition.result = NodeStatus::FAILURE;
            CHECK(if_then_else.executeTick() == NodeStatus::RUNNING);
            CHECK(condition.ticks == 1);
            then_branch.result = NodeStatus::FAILURE;
            CHECK(if_then_else.executeTick() == NodeStatus::FAILURE);
            // Next time the condition decides again: the else branch.
            CHECK(if_then_else.executeTick() == NodeStatus::SUCCESS);
            CHECK(condition.ticks == 2);
            CHECK(else_branch.ticks == 1);
        }
        SUBCASE("four children are refused") {
            if_then_else.addChild(&else_branch);
            if_then_else.addChild(&else_branch);
            CHECK_THROWS_WITH_AS(if_then_else.executeTick(), doctest::Contains("takes 2 or 3"),
                                 BT::RuntimeError);
        }
    }

    TEST_CASE("a WhileDoElseNode checks its condition at each tick and halts the other branch") {
        BT::WhileDoElseNode while_do_else("while");
        Scripted condition("condition");
        Scripted do_branch("do", NodeStatus::RUNNING);
        Scripted else_branch("else", NodeStatus::RUNNING);
        while_do_else.addChild(&condition);
        while_do_else.addChild(&do_branch);
        while_do_else.addChild(&else_branch);

        CHECK(while_do_else.executeTick() == NodeStatus::RUNNING);
        CHECK(while_do_else.executeTick() == NodeStatus::RUNNING);
        CHECK(condition.ticks == 2);
        CHECK(do_branch.ticks == 2);

        condition.result = NodeStatus::FAILURE;
        CHECK(while_do_else.executeTick() == NodeStatus::RUNNING);
        CHECK(do_branch.halts == 1);
        CHECK(else_branch.ticks == 1);

        else_branch.result = NodeStatus::SUCCESS;
        CHECK(while_do_else.executeTick() == NodeStatus::SUCCESS);
        CHECK(condition.status() == NodeStatus::IDLE);
        CHECK(else_branch.status() == NodeStatus::IDLE);
    }

    TEST_CASE("a SwitchNode ticks the case its variable names, else the default") {
        auto blackboard = BT::Blackboard::create();
        BT::NodeConfig config;
        config.blackboard = blackboard;
        config.input_ports = {{"variable", "{my_var}"}, {"case_1", "1"}, {"case_2", "42"}};
        BT::SwitchNode<2> node("switch", config);
        Scripted one("one", NodeStatus::RUNNING);
        Scripted forty_two("forty_two", NodeStatus::RUNNING);
        Scripted fallback("default");
        node.addChild(&one);
        node.addChild(&forty_two);
        node.addChild(&fallback);

        // No value on the key: the default.
        CHECK(node.executeTick() == NodeStatus::SUCCESS);
        CHECK(fallback.ticks == 1);
        CHECK(fallback.status() == NodeStatus::IDLE);

        blackboard->set("my_var", std::string("42"));
        CHECK(node.executeTick() == NodeStatus::RUNNING);
        CHECK(forty_two.ticks == 1);

        // Another case halts the running one.
        blackboard->set("my_var", std::string("1.0"));
        CHECK(node.executeTick() == NodeStatus::RUNNING);
        CHECK(forty_two.halts == 1);
        CHECK(one.ticks == 1);
        node.halt();
        CHECK(one.halts == 1);
    }

    TEST_CASE("a switch's case matches as text, as an integer or enum name, or as a number") {
        const BT::ScriptingEnumsRegistry enums{{"LEFT", 1}, {"RIGHT", 2}};
        CHECK(BT::details::CheckStringEquality("open", "open", nullptr));
        CHECK_FALSE(BT::details::CheckStringEquality("open", "closed", nullptr));
        CHECK(BT::details::CheckStringEquality("2", "RIGHT", &enums));
        CHECK_FALSE(BT::details::CheckStringEquality("2", "RIGHT", nullptr));
        CHECK(BT::details::CheckStringEquality("3", "3.0", nullptr));
        CHECK_FALSE(BT::details::CheckStringEquality("3", "3.5", nullptr));
        CHECK_FALSE(BT::details::CheckStringEquality(" 3", "3", nullptr));
    }

    TEST_CASE("InverterNode, ForceSuccessNode and ForceFailureNode change a finished status") {
        Scripted child("child", NodeStatus::SUCCESS);
        BT::InverterNode inverter("inverter");
        BT::ForceSuccessNode force_success("force_success");
        BT::ForceFailureNode force_failure("force_failure");
        BT::TreeNode* node = nullptr;
        NodeStatus on_success = NodeStatus::IDLE;
        NodeStatus on_failure = NodeStatus::IDLE;
        SUBCASE("InverterNode") {
            inverter.setChild(&child);
            node = &inverter;
            on_success = NodeStatus::FAILURE;
            on_failure = NodeStatus::SUCCESS;
        }
        SUBCASE("ForceSuccessNode") {
            force_success.setChild(&child);
            node = &force_success;
            on_success = on_failure = NodeStatus::SUCCESS;
        }
        SUBCASE("ForceFailureNode") {
            force_failure.setChild(&child);
            node = &force_failure;
            on_success = on_failure = NodeStatus::FAILURE;
        }
        CHECK(node->executeTick() == on_success);
        CHECK(child.status() == NodeStatus::IDLE);
        child.result = NodeStatus::FAILURE;
        CHECK(node->executeTick() == on_failure);
        child.result = NodeStatus::RUNNING;
        CHECK(node->executeTick() == NodeStatus::RUNNING);
        node->haltNode();
        CHECK(child.halts == 1);
    }

    TEST_CASE("a RetryNode ticks a failing child again within the tick, up to its attempts") {
        BT::RetryNode retry("retry", 3);
        Scripted child("child", NodeStatus::FAILURE);
        retry.setChild(&child);
        CHECK(retry.registrationName() == "RetryUntilSuccessful");

        CHECK(retry.executeTick() == NodeStatus::FAILURE);
        CHECK(child.ticks == 3);

        child.ticks = 0;
        child.result = NodeStatus::SUCCESS;
        CHECK(retry.executeTick() == NodeStatus::SUCCESS);
        CHECK(child.ticks == 1);
        CHECK(child.status() == NodeStatus::IDLE);

        SUBCASE("a running child keeps the attempts made so far") {
            BT::RetryNode twice("twice", 2);
            Scripted flaky("flaky", NodeStatus::FAILURE);
            twice.setChild(&flaky);
            flaky.result = NodeStatus::RUNNING;
            CHECK(twice.executeTick() == NodeStatus::RUNNING);
            flaky.result = NodeStatus::FAILURE;
            CHECK(twice.executeTick() == NodeStatus::FAILURE);
            CHECK(flaky.ticks == 3);  // the running tick, then two failures
        }
        SUBCASE("the attempts may come from a port") {
            BT::NodeConfig config;
            config.input_ports = {{"num_attempts", "5"}};
            BT::RetryNode from_port("from_port", config);
            Scripted failing("failing", NodeStatus::FAILURE);
            from_port.setChild(&failing);
            CHECK(from_port.executeTick() == NodeStatus::FAILURE);
            CHECK(failing.ticks == 5);
        }
    }

    TEST_CASE("a RepeatNode ticks a succeeding child again, its cycles in all") {
        BT::RepeatNode repeat("repeat", 3);
        Scripted child("child");
        repeat.setChild(&child);

        CHECK(repeat.executeTick() == NodeStatus::SUCCESS);
        CHECK(child.ticks == 3);

        child.ticks = 0;
        child.result = NodeStatus::FAILURE;
        CHECK(repeat.executeTick() == NodeStatus::FAILURE);
        CHECK(child.ticks == 1);

        SUBCASE("a running child counts across ticks") {
            BT::RepeatNode twice("twice", 2);
            Scripted slow("slow", NodeStatus::RUNNING);
            twice.setChild(&slow);
            CHECK(twice.executeTick() == NodeStatus::RUNNING);
            slow.result = NodeStatus::SUCCESS;
            CHECK(twice.executeTick() == NodeStatus::SUCCESS);
            CHECK(slow.ticks == 3);
        }
    }

    TEST_CASE("KeepRunningUntilFailureNode runs while its child succeeds") {
        BT::KeepRunningUntilFailureNode keep("keep");
        Scripted child("child");
        keep.setChild(&child);
        CHECK(keep.executeTick() == NodeStatus::RUNNING);
        CHECK(keep.executeTick() == NodeStatus::RUNNING);
        CHECK(child.ticks == 2);
        CHECK(child.status() == NodeStatus::IDLE);
        child.result = NodeStatus::FAILURE;
        CHECK(keep.executeTick() == NodeStatus::FAILURE);
    }

    TEST_CASE("a RunOnceNode ticks its child until it finishes once, then skips it") {
        Scripted child("child", NodeStatus::RUNNING);
        BT::NodeConfig config;
        SUBCASE("then skipped") {
            BT::RunOnceNode once("once", config);
            once.setChild(&child);
            CHECK(once.executeTick() == NodeStatus::RUNNING);
            child.result = NodeStatus::FAILURE;
            CHECK(once.executeTick() == NodeStatus::FAILURE);
            CHECK(once.executeTick() == NodeStatus::SKIPPED);
            CHECK(child.ticks == 2);
        }
        SUBCASE("then the status it finished with") {
            config.input_ports = {{"then_skip", "false"}};
            BT::RunOnceNode once("once", config);
            once.setChild(&child);
            child.result = NodeStatus::FAILURE;
            CHECK(once.executeTick() == NodeStatus::FAILURE);
            child.result = NodeStatus::SUCCESS;
            CHECK(once.executeTick() == NodeStatus::FAILURE);
            CHECK(child.ticks == 1);
        }
    }

    TEST_CASE("a TimeoutNode halts a child that runs past its time, and fails") {
        BT::TimeoutNode timeout("timeout", 30);
        Scripted child("child", NodeStatus::RUNNING);
        timeout.setChild(&child);

        CHECK(timeout.executeTick() == NodeStatus::RUNNING);
        CHECK(child.status() == NodeStatus::RUNNING);
        std::this_thread::sleep_for(80ms);
        CHECK(timeout.executeTick() == NodeStatus::FAILURE);
        CHECK(child.ticks == 1);  // not ticked once its time was over
        CHECK(child.halts == 1);
        CHECK(child.status() == NodeStatus::IDLE);

        SUBCASE("the next run has its time again") {
            child.result = NodeStatus::SUCCESS;
            CHECK(timeout.executeTick() == NodeStatus::SUCCESS);
            CHECK(child.halts == 1);
        }
        SUBCASE("a child that finishes in time is not halted") {
            NodeStatus result = NodeStatus::IDLE;
            BT::TimeoutNode generous("generous", 1000);
            BT::DelayNode slow("slow", 20);
            Scripted leaf("leaf");
            generous.setChild(&slow);
            slow.setChild(&leaf);
            CHECK(ticksUntilDone(generous, result) > 1);
            CHECK(result == NodeStatus::SUCCESS);
            CHECK(leaf.halts == 0);
        }
        SUBCASE("a halt ends the run: the next one has its whole time again") {
            CHECK(timeout.executeTick() == NodeStatus::RUNNING);
            timeout.haltNode();
            CHECK(child.halts == 2);
            std::this_thread::sleep_for(50ms);
            CHECK(timeout.executeTick() == NodeStatus::RUNNING);
            CHECK(child.ticks == 3);
        }
    }

    TEST_CASE("a DelayNode is RUNNING for its delay, then ticks its child") {
        BT::DelayNode delay("delay", 40);
        Scripted child("child");
        delay.setChild(&child);

        const auto start = std::chrono::steady_clock::now();
        CHECK(delay.executeTick() == NodeStatus::RUNNING);
        CHECK(delay.executeTick() == NodeStatus::RUNNING);
        CHECK(child.ticks == 0);
        NodeStatus result = NodeStatus::IDLE;
        ticksUntilDone(delay, result);
        CHECK(result == NodeStatus::SUCCESS);
        CHECK(std::chrono::steady_clock::now() - start >= 40ms);
        CHECK(child.ticks == 1);
        CHECK(child.status() == NodeStatus::IDLE);

        SUBCASE("each run waits again, and a halt starts the wait over") {
            CHECK(delay.executeTick() == NodeStatus::RUNNING);
            delay.haltNode();
            std::this_thread::sleep_for(50ms);
            CHECK(delay.executeTick() == NodeStatus::RUNNING);
            CHECK(child.ticks == 1);
        }
        SUBCASE("the delay may come from a port") {
            BT::NodeConfig config;
            config.input_ports = {{"delay_msec", "0"}};
            BT::DelayNode no_wait("no_wait", config);
            Scripted leaf("leaf");
            no_wait.setChild(&leaf);
            CHECK(no_wait.executeTick() == NodeStatus::SUCCESS);
        }
    }

    TEST_CASE("the classes tick a ThreadedAction as BehaviorTree.CPP's tests do") {
        // A Sequence whose second child runs on a thread of its own, under a Timeout.
        struct Wait : BT::ThreadedAction {
            explicit Wait(const std::string& name) : BT::ThreadedAction(name, {}) {}
            NodeStatus tick() override {
                for (int i = 0; i < 20 && !isHaltRequested(); ++i) std::this_thread::sleep_for(1ms);
                return isHaltRequested() ? NodeStatus::IDLE : NodeStatus::SUCCESS;
            }
        };
        BT::TimeoutNode timeout("timeout", 2000);
        BT::SequenceNode sequence("sequence");
        Scripted condition("condition");
        Wait wait("wait");
        timeout.setChild(&sequence);
        sequence.addChild(&condition);
        sequence.addChild(&wait);

        CHECK(timeout.executeTick() == NodeStatus::RUNNING);
        CHECK(wait.status() == NodeStatus::RUNNING);
        NodeStatus result = NodeStatus::IDLE;
        ticksUntilDone(timeout, result);
        CHECK(result == NodeStatus::SUCCESS);
        CHECK(condition.ticks == 1);
        CHECK(wait.status() == NodeStatus::IDLE);
        CHECK(sequence.status() == NodeStatus::IDLE);
    }
}
