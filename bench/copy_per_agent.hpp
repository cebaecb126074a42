#pragma once
// The runtime benchmark's baseline: the copy-per-agent design of the articles Canopy grew from
// (every agent its own tree of heap-allocated node objects), made to give the same results
// and visits as Canopy's nodes so that the two can be timed side by side.

#include <canopy/canopy.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime_leaves.hpp"

namespace canopy_bench {

// The article's classes, under its own names (BehaviorTreeNode with a virtual Tick,
// ActionNode/ConditionNode holding a std::function, CompositeNode with a vector of std::shared_ptr
// children, DecoratorNode with one), with what it takes to give the same results and the same
// visits as Canopy's nodes: a node remembers its last status, a running Sequence/Selector resumes
// at its running child, and there is Halt. As in every copy-per-agent design, a node's per-agent
// state (status, running child, repeat count) lives in the node object, and each agent has its own
// tree.
namespace copy_per_agent {

enum class NodeStatus : std::uint8_t { Idle = 0, Success = 1, Failure = 2, Running = 3 };

/// When set, every visit counts here: one untaken branch per visit otherwise, as Canopy's
/// observer check.
inline std::uint64_t* visit_counter = nullptr;

class BehaviorTreeNode {
public:
    virtual ~BehaviorTreeNode() = default;
    /// One visit: ticks the node and remembers the result.
    NodeStatus Execute() {
        if (visit_counter != nullptr) ++*visit_counter;
        status_ = Tick();
        return status_;
    }
    /// Stops the node if it runs, and everything running below it; it becomes idle.
    virtual void Halt() { status_ = NodeStatus::Idle; }
    NodeStatus status() const { return status_; }

protected:
    virtual NodeStatus Tick() = 0;
    static void HaltIfRunning(BehaviorTreeNode& node) {
        if (node.status_ == NodeStatus::Running) {
            node.Halt();
        } else {
            node.status_ = NodeStatus::Idle;
        }
    }
    NodeStatus status_ = NodeStatus::Idle;
};

class ActionNode : public BehaviorTreeNode {
public:
    explicit ActionNode(std::function<NodeStatus()> actionFunc) : action(std::move(actionFunc)) {}

protected:
    NodeStatus Tick() override { return action(); }

private:
    std::function<NodeStatus()> action;
};

class ConditionNode : public BehaviorTreeNode {
public:
    explicit ConditionNode(std::function<bool()> conditionFunc)
        : condition(std::move(conditionFunc)) {}

protected:
    NodeStatus Tick() override { return condition() ? NodeStatus::Success : NodeStatus::Failure; }

private:
    std::function<bool()> condition;
};

template <NodeStatus result>
class ConstantNode : public BehaviorTreeNode {
protected:
    NodeStatus Tick() override { return result; }
};

class CompositeNode : public BehaviorTreeNode {
public:
    void AddChild(std::shared_ptr<BehaviorTreeNode> child) { children.push_back(child); }
    void Halt() override {
        for (auto& child : children) HaltIfRunning(*child);
        status_ = NodeStatus::Idle;
    }

protected:
    std::vector<std::shared_ptr<BehaviorTreeNode>> children;
};

constexpr NodeStatus opposite(NodeStatus s) {
    return s == NodeStatus::Failure ? NodeStatus::Success : NodeStatus::Failure;
}

// Sequence (give_up_on Failure) and Selector (Success).
template <NodeStatus give_up_on>
class OrderedNode : public CompositeNode {
protected:
    NodeStatus Tick() override {
        std::size_t i = status_ == NodeStatus::Running ? current : 0;
        for (; i < children.size(); ++i) {
            const NodeStatus s = children[i]->Execute();
            if (s == NodeStatus::Running) current = i;
            if (s != opposite(give_up_on)) return s;
        }
        return opposite(give_up_on);
    }

private:
    std::size_t current = 0;  // the running child, while this node runs
};
using SequenceNode = OrderedNode<NodeStatus::Failure>;
using SelectorNode = OrderedNode<NodeStatus::Success>;

template <NodeStatus give_up_on>
class ReactiveNode : public CompositeNode {
protected:
    NodeStatus Tick() override {
        BehaviorTreeNode* was_running =
            status_ == NodeStatus::Running ? children[running].get() : nullptr;
        for (std::size_t i = 0; i < children.size(); ++i) {
            const NodeStatus s = children[i]->Execute();
            if (s == opposite(give_up_on)) continue;
            if (was_running != nullptr && was_running != children[i].get() &&
                was_running->status() == NodeStatus::Running) {
                was_running->Halt();
            }
            if (s == NodeStatus::Running) running = i;
            return s;
        }
        return opposite(give_up_on);
    }

private:
    std::size_t running = 0;
};

class ParallelNode : public CompositeNode {
public:
    ParallelNode(std::int64_t successThreshold, std::int64_t failureThreshold)
        : success_threshold(successThreshold), failure_threshold(failureThreshold) {}

protected:
    // Checks the thresholds after each child, as BehaviorTree.CPP 4 does; a negative one
    // counts back from the number of children.
    NodeStatus Tick() override {
        if (status_ != NodeStatus::Running) {  // a new run: forget the children's results
            for (auto& child : children) HaltIfRunning(*child);
        }
        const auto count = static_cast<std::int64_t>(children.size());
        auto needed = [count](std::int64_t threshold) {
            return threshold < 0 ? count + threshold + 1 : threshold;
        };
        std::int64_t succeeded = 0;
        std::int64_t failed = 0;
        for (auto& child : children) {
            succeeded += child->status() == NodeStatus::Success ? 1 : 0;
            failed += child->status() == NodeStatus::Failure ? 1 : 0;
        }
        for (auto& child : children) {
            const NodeStatus before = child->status();
            if (before == NodeStatus::Idle || before == NodeStatus::Running) {
                const NodeStatus s = child->Execute();
                succeeded += s == NodeStatus::Success ? 1 : 0;
                failed += s == NodeStatus::Failure ? 1 : 0;
            }
            if (succeeded >= needed(success_threshold)) {
                HaltRunningChildren();
                return NodeStatus::Success;
            }
            if (failed >= needed(failure_threshold) || count - failed < needed(success_threshold)) {
                HaltRunningChildren();
                return NodeStatus::Failure;
            }
        }
        return NodeStatus::Running;
    }

private:
    void HaltRunningChildren() {
        for (auto& child : children) {
            if (child->status() == NodeStatus::Running) child->Halt();
        }
    }
    std::int64_t success_threshold;
    std::int64_t failure_threshold;
};

class DecoratorNode : public BehaviorTreeNode {
public:
    void SetChild(std::shared_ptr<BehaviorTreeNode> node) { child = node; }
    void Halt() override {
        HaltIfRunning(*child);
        status_ = NodeStatus::Idle;
    }

protected:
    std::shared_ptr<BehaviorTreeNode> child;
};

class NotNode : public DecoratorNode {
protected:
    NodeStatus Tick() override {
        switch (child->Execute()) {
            case NodeStatus::Success: return NodeStatus::Failure;
            case NodeStatus::Failure: return NodeStatus::Success;
            default: return NodeStatus::Running;
        }
    }
};

template <NodeStatus forced>
class ForceNode : public DecoratorNode {
protected:
    NodeStatus Tick() override {
        return child->Execute() == NodeStatus::Running ? NodeStatus::Running : forced;
    }
};

// Repeat (again = Success) and Retry (again = Failure).
template <NodeStatus again>
class RepeatNode : public DecoratorNode {
public:
    explicit RepeatNode(std::int64_t times) : count(times) {}

protected:
    // BehaviorTree.CPP 4's rule: after an iteration the child started in this tick, return
    // Running; after one that had been running, go on with the next at once.
    NodeStatus Tick() override {
        if (status_ != NodeStatus::Running) done = 0;
        for (;;) {
            const bool was_running = child->status() == NodeStatus::Running;
            const NodeStatus s = child->Execute();
            if (s != again) return s;
            if (count != -1 && ++done >= count) return again;
            if (!was_running) return NodeStatus::Running;
        }
    }

private:
    std::int64_t count;
    std::int64_t done = 0;
};

class RepeatUntilSuccessNode : public DecoratorNode {
protected:
    NodeStatus Tick() override {
        return child->Execute() == NodeStatus::Success ? NodeStatus::Success : NodeStatus::Running;
    }
};

/// Seed 004's BehaviorTree: the root, and Tick.
class BehaviorTree {
public:
    void SetRoot(std::shared_ptr<BehaviorTreeNode> rootNode) { root = std::move(rootNode); }
    NodeStatus Tick() { return root ? root->Execute() : NodeStatus::Failure; }

private:
    std::shared_ptr<BehaviorTreeNode> root;
};

/// The shape to copy per agent: the loaded tree's nodes, read once (seed 000 builds its trees
/// from such a description, AINodeDescribe).
struct plan {
    enum class kind : std::uint8_t {
        ready,
        chance,
        work,
        step,
        always_success,
        always_failure,
        sequence,
        selector,
        reactive_sequence,
        reactive_selector,
        parallel,
        invert,
        force_success,
        force_failure,
        repeat,
        retry,
        repeat_until_success
    };
    struct entry {
        kind k;
        std::int64_t a = 0;  // Parallel's success threshold, Repeat's count, Retry's attempts
        std::int64_t b = 0;  // Parallel's failure threshold
        std::vector<canopy::tree::index> children;
    };
    std::vector<entry> nodes;

    explicit plan(const canopy::tree& t) {
        static const std::map<std::string_view, kind> kinds = {
            {"Ready", kind::ready},
            {"Chance", kind::chance},
            {"Work", kind::work},
            {"Step", kind::step},
            {"AlwaysSuccess", kind::always_success},
            {"AlwaysFailure", kind::always_failure},
            {"Sequence", kind::sequence},
            {"Selector", kind::selector},
            {"ReactiveSequence", kind::reactive_sequence},
            {"ReactiveSelector", kind::reactive_selector},
            {"Parallel", kind::parallel},
            {"Not", kind::invert},
            {"ForceSuccess", kind::force_success},
            {"ForceFailure", kind::force_failure},
            {"Repeat", kind::repeat},
            {"Retry", kind::retry},
            {"RepeatUntilSuccess", kind::repeat_until_success}};
        for (canopy::tree::index i = 0; i < t.size(); ++i) {
            auto found = kinds.find(t.type_name(i));
            if (found == kinds.end()) {
                throw std::runtime_error("the baseline has no " + std::string(t.type_name(i)));
            }
            entry e{found->second, 0, 0, {}};
            const canopy::param_list params = t.params(i);
            if (e.k == kind::parallel) {
                e.a = params.get<std::int64_t>("success_threshold");
                e.b = params.get<std::int64_t>("failure_threshold");
            } else if (e.k == kind::repeat) {
                e.a = params.get<std::int64_t>("count");
            } else if (e.k == kind::retry) {
                e.a = params.get<std::int64_t>("attempts");
            }
            for (canopy::tree::index child : t.children(i)) e.children.push_back(child);
            nodes.push_back(std::move(e));
        }
    }

    /// One agent's own tree, each node made with std::make_shared and linked with AddChild /
    /// SetChild as in seed 004; the leaves' functions capture the agent's host.
    BehaviorTree make(bench_host* host) const {
        BehaviorTree tree;
        tree.SetRoot(make_node(0, host));
        return tree;
    }

private:
    template <typename Node, typename... Args>
    std::shared_ptr<BehaviorTreeNode> composite(canopy::tree::index i, bench_host* host,
                                                Args... args) const {
        auto node = std::make_shared<Node>(args...);
        for (canopy::tree::index child : nodes[i].children) node->AddChild(make_node(child, host));
        return node;
    }
    template <typename Node, typename... Args>
    std::shared_ptr<BehaviorTreeNode> decorator(canopy::tree::index i, bench_host* host,
                                                Args... args) const {
        auto node = std::make_shared<Node>(args...);
        node->SetChild(make_node(nodes[i].children.front(), host));
        return node;
    }

    std::shared_ptr<BehaviorTreeNode> make_node(canopy::tree::index i, bench_host* host) const {
        const entry& e = nodes[i];
        switch (e.k) {
            case kind::ready:
                return std::make_shared<ConditionNode>([host] { return leaf::ready(*host); });
            case kind::chance:
                return std::make_shared<ConditionNode>([host] { return leaf::chance(*host); });
            case kind::work:
                return std::make_shared<ActionNode>(
                    [host] { return static_cast<NodeStatus>(leaf::work(*host)); });
            case kind::step:
                return std::make_shared<ActionNode>(
                    [host] { return static_cast<NodeStatus>(leaf::step(*host)); });
            case kind::always_success: return std::make_shared<ConstantNode<NodeStatus::Success>>();
            case kind::always_failure: return std::make_shared<ConstantNode<NodeStatus::Failure>>();
            case kind::sequence: return composite<SequenceNode>(i, host);
            case kind::selector: return composite<SelectorNode>(i, host);
            case kind::reactive_sequence:
                return composite<ReactiveNode<NodeStatus::Failure>>(i, host);
            case kind::reactive_selector:
                return composite<ReactiveNode<NodeStatus::Success>>(i, host);
            case kind::parallel: return composite<ParallelNode>(i, host, e.a, e.b);
            case kind::invert: return decorator<NotNode>(i, host);
            case kind::force_success: return decorator<ForceNode<NodeStatus::Success>>(i, host);
            case kind::force_failure: return decorator<ForceNode<NodeStatus::Failure>>(i, host);
            case kind::repeat: return decorator<RepeatNode<NodeStatus::Success>>(i, host, e.a);
            case kind::retry: return decorator<RepeatNode<NodeStatus::Failure>>(i, host, e.a);
            case kind::repeat_until_success: return decorator<RepeatUntilSuccessNode>(i, host);
        }
        throw std::logic_error("unknown kind");
    }
};

}  // namespace copy_per_agent

}  // namespace canopy_bench
