#pragma once

// What a BT::Tree is made of on Canopy's engine: the shared canopy::tree, the Tree's own
// agent (whose node states hold the tree's BehaviorTree.CPP node objects), a view of every
// node as a BT::TreeNode, the lock that node threads share with the ticking thread, and the
// wake-up signal.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"
#include "canopy/run/agent.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/tree.hpp"

namespace BT::detail {

/// A lock one thread may take again while it holds it, and give up entirely for a while
/// (ThreadedAction's halt waits for its thread without it).
class TreeLock {
public:
    void lock();
    void unlock();
    /// Gives up every hold this thread has, calls `wait`, then takes them again.
    template <typename Wait>
    void released(Wait&& wait) {
        const int held = release_all();
        try {
            wait();
        } catch (...) {
            reacquire(held);
            throw;
        }
        reacquire(held);
    }

private:
    int release_all();
    void reacquire(int held);

    std::mutex mutex_;
    std::condition_variable free_;
    std::thread::id owner_;
    int depth_ = 0;
};

/// The per-agent state of a BehaviorTree.CPP node: its object.
using node_object = std::unique_ptr<TreeNode>;

/// The Canopy node that runs a BehaviorTree.CPP node type's nodes: it makes nothing itself;
/// the Tree puts each node's object in the agent's state, and this calls its executeTick()
/// and haltNode().
class btcpp_node final : public canopy::node {
public:
    btcpp_node(std::shared_ptr<const TreeNodeManifest> manifest, NodeBuilder builder)
        : manifest_(std::move(manifest)), builder_(std::move(builder)) {}

    void enter(canopy::context& ctx) const override;
    canopy::status tick(canopy::context& ctx) const override;
    void halt(canopy::context& ctx) const override;
    canopy::state_layout state() const override {
        return {sizeof(node_object), alignof(node_object), true};
    }
    void construct_state(void* storage) const override { ::new (storage) node_object(); }
    void destroy_state(void* storage) const noexcept override {
        static_cast<node_object*>(storage)->~node_object();
    }

    const TreeNodeManifest& manifest() const { return *manifest_; }
    const std::shared_ptr<const TreeNodeManifest>& shared_manifest() const { return manifest_; }
    const NodeBuilder& builder() const { return builder_; }

private:
    TreeNode& object(canopy::context& ctx) const;

    std::shared_ptr<const TreeNodeManifest> manifest_;
    NodeBuilder builder_;
};

class TreeState {
public:
    /// `enums`: the factory's scripting enums, which the nodes' configs give their getInput;
    /// `manifests`: the Tree's copy of the factory's, which the nodes' configs point into.
    TreeState(std::shared_ptr<const canopy::tree> tree, Blackboard::Ptr blackboard,
              std::shared_ptr<ScriptingEnumsRegistry> enums = nullptr,
              const std::unordered_map<std::string, TreeNodeManifest>* manifests = nullptr);
    ~TreeState();
    TreeState(const TreeState&) = delete;
    TreeState& operator=(const TreeState&) = delete;

    const canopy::tree& tree() const { return *tree_; }
    canopy::agent& agent() { return *agent_; }
    TreeNode* node(std::uint32_t index) const { return nodes_[index]; }
    const std::vector<TreeNode*>& nodes() const { return nodes_; }
    const Blackboard::Ptr& blackboard() const { return blackboard_; }
    TreeLock& lock() { return lock_; }

    /// Ticks the root once, `now` minus the last tick's time apart.
    NodeStatus tick_root();
    void halt();
    /// The status of a node Canopy runs itself (a built-in's view).
    NodeStatus view_status(std::uint32_t index) const;
    /// Makes Tree::sleep return early.
    void wake();
    /// Whether a node asked for a tick since the last call; forgets it.
    bool take_wake_up();
    /// Waits until wake() or the timeout: whether woken.
    bool sleep(std::chrono::steady_clock::duration timeout);

    /// Each use of a tree in the file: the main tree first, then each SubTree's, in
    /// preorder (Tree::subtrees).
    const std::vector<Tree::Subtree::Ptr>& subtrees() const { return subtrees_; }

    // ---- for StatusChangeLogger ----
    void subscribe(StatusChangeLogger* logger);
    void unsubscribe(StatusChangeLogger* logger);
    /// The agent's observer that tells the loggers (made by the first subscribe): what a
    /// Groot2Publisher's server passes the agent's events on to.
    canopy::observer* logger_observer();
    /// Calls `call` on the ticking thread before each tick of the root, until
    /// call_between_ticks(owner, {}) (Groot2Publisher: its server's update()).
    void call_between_ticks(const void* owner, std::function<void()> call);

    // ---- for TreeNode ----
    /// A node's own code set its status while the engine ticks it: the loggers hear it.
    void node_said(std::uint32_t index, NodeStatus status);
    /// Ticks node `index` through the engine, as its parent's tick() asks (a program's
    /// ControlNode or DecoratorNode ticking a child).
    NodeStatus tick_child(std::uint32_t index);
    void halt_child(std::uint32_t index);
    /// Whether the engine is calling node `index`'s executeTick() now (else a parent's
    /// code is, and the call goes through the engine).
    /// Read on any thread: a node's own thread (ThreadedAction's) is never the engine.
    bool engine_calls(std::uint32_t index) const {
        return engine_node_.load(std::memory_order_relaxed) == index &&
               engine_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id();
    }
    /// The blackboard slot a node's port names: its parameter's, or the key of that name.
    std::uint32_t port_slot(std::uint32_t index, const std::string& port, StringView key) const;
    /// A key's value as an Any (empty when it holds none); a registered type's object is
    /// seen in place when `in_place`, else copied.
    Any read_slot(std::uint32_t slot, bool in_place);
    /// Stores `value` into the key, converting as BehaviorTree.CPP's Blackboard::set does;
    /// an error message when the key cannot hold it.
    /// `as_is`: a dynamic entry takes the value whatever its ports declared (what
    /// BehaviorTree.CPP's ImportBlackboardFromJSON does to an entry).
    // Whether a node of yielding_ ended the tick with RUNNING of its own.
    bool yielded() const;
    // A program's vector or shared deque written into a loop's queue key; false when the
    // key or the value is not one.
    static bool store_queue(canopy::blackboard& board, std::uint32_t slot,
                            canopy::type_id queue_type, const Any& value);
    std::string write_slot(std::uint32_t slot, const Any& value, bool as_is = false);

    // ---- for btcpp_node ----
    /// Runs `call` as the engine's call of node `index` (engine_calls is true meanwhile).
    template <typename Call>
    auto as_engine(canopy::context& ctx, std::uint32_t index, Call&& call) {
        canopy::context* const outer_ctx = ctx_;
        const std::uint32_t outer = engine_node_.load(std::memory_order_relaxed);
        ctx_ = &ctx;
        engine_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
        engine_node_.store(index, std::memory_order_relaxed);
        struct restore {
            TreeState& s;
            canopy::context* ctx;
            std::uint32_t node;
            ~restore() {
                s.ctx_ = ctx;
                s.engine_node_.store(node, std::memory_order_relaxed);
            }
        } guard{*this, outer_ctx, outer};
        return call();
    }

private:
    class transitions;

    void make_nodes();
    // What each use's blackboard shows of the agent's keys (Blackboard::own_, remapped_,
    // scope_).
    void show_keys(const std::vector<std::size_t>& use_of,
                   const std::vector<canopy::tree::index>& subtree_node_of);
    NodeConfig config_of(std::uint32_t index, const TreeNodeManifest* manifest) const;

    std::shared_ptr<const canopy::tree> tree_;
    std::unique_ptr<canopy::agent> agent_;
    Blackboard::Ptr blackboard_;
    std::shared_ptr<ScriptingEnumsRegistry> enums_;
    // The Tree's manifests, while the nodes are made (their configs point into it).
    const std::unordered_map<std::string, TreeNodeManifest>* manifests_ = nullptr;
    // The nodes that ask for the next tick at once after a child that finished at once.
    std::vector<canopy::tree::index> yielding_;
    std::vector<TreeNode*> nodes_;
    std::vector<std::unique_ptr<TreeNode>> views_;  // the built-in nodes' TreeNodes
    std::vector<Tree::Subtree::Ptr> subtrees_;
    std::vector<StatusChangeLogger*> loggers_;
    std::unique_ptr<transitions> transitions_;  // while loggers listen
    TreeLock lock_;
    canopy::context* ctx_ = nullptr;  // while the engine ticks
    std::atomic<std::uint32_t> engine_node_{0xFFFFFFFF};
    std::atomic<std::thread::id> engine_thread_{};
    std::optional<std::chrono::steady_clock::time_point> last_tick_;
    std::vector<std::pair<const void*, std::function<void()>>> between_ticks_;
    std::mutex wake_mutex_;
    std::condition_variable wake_cv_;
    bool woken_ = false;
};

}  // namespace BT::detail
