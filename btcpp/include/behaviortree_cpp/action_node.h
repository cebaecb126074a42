#pragma once

// BehaviorTree.CPP's actions: a synchronous one (finishes in its tick), a stateful one
// (onStart, onRunning, onHalted), one that runs its tick on a thread of its own, one whose
// tick yields (a coroutine), and the simple one a function makes (registerSimpleAction).

#include <atomic>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include "behaviortree_cpp/leaf_node.h"

namespace BT {

class ActionNodeBase : public LeafNode {
public:
    ActionNodeBase(const std::string& name, const NodeConfig& config) : LeafNode(name, config) {}
    NodeType type() const final { return NodeType::ACTION; }
};

/// An action whose tick finishes: it must not return RUNNING (LogicError).
class SyncActionNode : public ActionNodeBase {
public:
    SyncActionNode(const std::string& name, const NodeConfig& config)
        : ActionNodeBase(name, config) {}
    NodeStatus executeTick() override;
    void halt() final { resetStatus(); }
};

/// An action made of a function (registerSimpleAction).
class SimpleActionNode : public SyncActionNode {
public:
    using TickFunctor = std::function<NodeStatus(TreeNode&)>;
    SimpleActionNode(const std::string& name, TickFunctor tick_functor, const NodeConfig& config)
        : SyncActionNode(name, config), tick_functor_(std::move(tick_functor)) {}

protected:
    NodeStatus tick() override;

private:
    TickFunctor tick_functor_;
};

/// An action that runs: onStart() when it starts, onRunning() at each tick after, onHalted()
/// when its parent stops it while it runs.
class StatefulActionNode : public ActionNodeBase {
public:
    StatefulActionNode(const std::string& name, const NodeConfig& config)
        : ActionNodeBase(name, config) {}
    bool isHaltRequested() const { return halt_requested_.load(); }
    virtual NodeStatus onStart() = 0;
    virtual NodeStatus onRunning() = 0;
    virtual void onHalted() = 0;

protected:
    NodeStatus tick() final;
    void halt() final;

private:
    std::atomic_bool halt_requested_{false};
};

/// An action whose tick() runs on a thread of its own: the tree sees it running until it
/// returns, then its result; halt() asks it to stop (isHaltRequested) and waits for it.
class ThreadedAction : public ActionNodeBase {
public:
    ThreadedAction(const std::string& name, const NodeConfig& config)
        : ActionNodeBase(name, config) {}
    ~ThreadedAction() override;
    bool isHaltRequested() const { return halt_requested_.load(); }
    NodeStatus executeTick() final;
    void halt() override;

private:
    std::exception_ptr exception_;
    std::mutex mutex_;
    std::future<void> thread_handle_;
    std::atomic_bool halt_requested_{false};
};

/// An action whose tick() may stop half-way with setStatusRunningAndYield(): the tree sees it
/// running, and its next tick goes on from there, until tick() returns its result. halt()
/// abandons the tick where it stopped.
class CoroActionNode : public ActionNodeBase {
public:
    CoroActionNode(const std::string& name, const NodeConfig& config);
    ~CoroActionNode() override;
    CoroActionNode(const CoroActionNode&) = delete;
    CoroActionNode& operator=(const CoroActionNode&) = delete;

    /// Called in tick(): the node is RUNNING, and this tick of the tree ends here.
    void setStatusRunningAndYield();
    NodeStatus executeTick() final;
    /// What the coroutine runs: tick(), whose result becomes the status.
    void tickImpl();
    /// If you override it, call CoroActionNode::halt() in yours.
    void halt() override;

protected:
    struct Pimpl;
    std::unique_ptr<Pimpl> _p;
    void destroyCoroutine();
};

}  // namespace BT
