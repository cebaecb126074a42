// BT::TreeNode and BehaviorTree.CPP's node classes: their ticks and halts as BehaviorTree.CPP
// 4.10 runs them, and their ports read from and written to the Canopy agent's blackboard.

#include "behaviortree_cpp/tree_node.h"

#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>
#include <utility>

#include "behaviortree_cpp/action_node.h"
#include "behaviortree_cpp/condition_node.h"
#include "behaviortree_cpp/control_node.h"
#include "behaviortree_cpp/decorator_node.h"
#include "tree_state.hpp"

namespace BT {

TreeNode::TreeNode(std::string name, NodeConfig config)
    : name_(std::move(name)), config_(std::move(config)) {}

TreeNode::~TreeNode() = default;

NodeStatus TreeNode::status() const {
    if (view_) return tree_->view_status(index_);
    return status_;
}

bool TreeNode::tickedThroughEngine(NodeStatus& result) {
    if (tree_ == nullptr || tree_->engine_calls(index_)) return false;
    result = tree_->tick_child(index_);
    return true;
}

void TreeNode::withoutTreeLock(const std::function<void()>& wait) {
    if (tree_ != nullptr) {
        tree_->lock().released(wait);
    } else {
        wait();
    }
}

NodeStatus TreeNode::executeTick() {
    NodeStatus result = NodeStatus::IDLE;
    if (tickedThroughEngine(result)) return result;
    result = tickNamingErrors();
    status_ = result;  // the engine tells the loggers, once it knows what the parent did
    return result;
}

NodeStatus TreeNode::tickNamingErrors() {
    // The common case, a node without callbacks, as fast as before they existed.
    if (!has_tick_callbacks_.load(std::memory_order_acquire)) {
        try {
            return tick();
        } catch (const NodeExecutionError&) {
            throw;
        } catch (const std::exception& e) {
            throw NodeExecutionError({name(), fullPath(), registrationName()}, e.what());
        }
    }
    PreTickCallback pre_tick;
    PostTickCallback post_tick;
    TickMonitorCallback tick_monitor;
    {
        std::lock_guard<std::mutex> hold(callbacks_mutex_);
        pre_tick = pre_tick_;
        post_tick = post_tick_;
        tick_monitor = tick_monitor_;
    }
    NodeStatus result = NodeStatus::IDLE;
    bool substituted = false;
    if (pre_tick && !isStatusCompleted(status_)) {
        result = pre_tick(*this);
        substituted = isStatusCompleted(result);
    }
    if (!substituted) {
        const auto start = std::chrono::steady_clock::now();
        try {
            result = tick();
        } catch (const NodeExecutionError&) {
            throw;
        } catch (const std::exception& e) {
            throw NodeExecutionError({name(), fullPath(), registrationName()}, e.what());
        }
        if (tick_monitor) {
            tick_monitor(*this, result,
                         std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::steady_clock::now() - start));
        }
    }
    if (post_tick) {
        const NodeStatus replaced = post_tick(*this, result);
        if (isStatusCompleted(replaced)) result = replaced;
    }
    return result;
}

void TreeNode::setPreTickFunction(PreTickCallback callback) {
    std::lock_guard<std::mutex> hold(callbacks_mutex_);
    pre_tick_ = std::move(callback);
    has_tick_callbacks_ = pre_tick_ || post_tick_ || tick_monitor_;
}

void TreeNode::setPostTickFunction(PostTickCallback callback) {
    std::lock_guard<std::mutex> hold(callbacks_mutex_);
    post_tick_ = std::move(callback);
    has_tick_callbacks_ = pre_tick_ || post_tick_ || tick_monitor_;
}

void TreeNode::setTickMonitorCallback(TickMonitorCallback callback) {
    std::lock_guard<std::mutex> hold(callbacks_mutex_);
    tick_monitor_ = std::move(callback);
    has_tick_callbacks_ = pre_tick_ || post_tick_ || tick_monitor_;
}

void TreeNode::haltNode() {
    if (tree_ != nullptr && !tree_->engine_calls(index_)) {
        tree_->halt_child(index_);
        return;
    }
    halt();
    resetStatus();
}

void TreeNode::setStatus(NodeStatus new_status) {
    status_ = new_status;
    // Said by the node's own code during its tick (RUNNING as it starts, say): the loggers
    // hear it then, as BehaviorTree.CPP's do.
    if (tree_ != nullptr && tree_->engine_calls(index_)) tree_->node_said(index_, new_status);
}

void TreeNode::resetStatus() {
    status_ = NodeStatus::IDLE;
}

void TreeNode::emitWakeUpSignal() {
    if (tree_ != nullptr) tree_->wake();
}

bool TreeNode::isBlackboardPointer(StringView str, StringView* stripped_pointer) {
    if (str.size() < 3) return false;
    const std::size_t front = str.find_first_not_of(' ');
    const std::size_t back = str.find_last_not_of(' ');
    if (front == StringView::npos || str[front] != '{' || str[back] != '}' || back - front < 2)
        return false;
    if (stripped_pointer != nullptr) *stripped_pointer = str.substr(front + 1, back - front - 1);
    return true;
}

StringView TreeNode::stripBlackboardPointer(StringView str) {
    StringView stripped;
    return isBlackboardPointer(str, &stripped) ? stripped : StringView();
}

Expected<StringView> TreeNode::getRemappedKey(StringView port_name, StringView remapped_port) {
    if (remapped_port == "{=}" || remapped_port == "=") return port_name;
    StringView stripped;
    if (isBlackboardPointer(remapped_port, &stripped)) return stripped;
    return nonstd::make_unexpected("Not a blackboard pointer");
}

StringView TreeNode::getRawPortValue(const std::string& key) const {
    auto found = config_.input_ports.find(key);
    if (found == config_.input_ports.end()) {
        found = config_.output_ports.find(key);
        if (found == config_.output_ports.end())
            throw LogicError("[", key, "] not found in the ports of [", name(), "]");
    }
    return found->second;
}

Expected<Any> TreeNode::readPort(const std::string& key, std::string& text, bool& literal) const {
    literal = false;
    std::string port_text;
    if (auto found = config_.input_ports.find(key); found != config_.input_ports.end()) {
        port_text = found->second;
    } else {
        if (config_.manifest == nullptr) {
            return nonstd::make_unexpected(
                StrCat("getInput() of node '", fullPath(),
                       "' failed because the manifest is nullptr (WTF?) and the key: [", key,
                       "] is missing"));
        }
        auto port = config_.manifest->ports.find(key);
        if (port == config_.manifest->ports.end()) {
            return nonstd::make_unexpected(
                StrCat("getInput() of node '", fullPath(),
                       "' failed because the manifest doesn't contain the key: [", key, "]"));
        }
        const Any& fallback = port->second.defaultValue();
        if (fallback.empty()) {
            return nonstd::make_unexpected(StrCat(
                "getInput() of node '", fullPath(),
                "' failed because nor the manifest or the XML contain the key: [", key, "]"));
        }
        if (!fallback.isString()) return fallback;
        port_text = fallback.cast<std::string>();
    }
    const Expected<StringView> remapped = getRemappedKey(key, port_text);
    if (!remapped) {
        literal = true;
        text = std::move(port_text);
        return Any();
    }
    if (!config_.blackboard) {
        return nonstd::make_unexpected("getInput(): trying to access an invalid Blackboard");
    }
    Any value;
    const std::string entry(*remapped);
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = tree_->port_slot(index_, key, entry);
        value = slot != canopy::blackboard::npos ? tree_->read_slot(slot, false)
                                                 : config_.blackboard->getAnyCopy(entry);
    } else {
        value = config_.blackboard->getAnyCopy(entry);
    }
    if (value.empty()) {
        return nonstd::make_unexpected(
            StrCat("getInput() failed because it was unable to find the key [", key,
                   "] remapped to [", entry, "]"));
    }
    return value;
}

Result TreeNode::writePort(const std::string& key, const Any& value) {
    if (!config_.blackboard) {
        return nonstd::make_unexpected(
            "setOutput() failed: trying to access a Blackboard(BB) entry, but BB is invalid");
    }
    auto found = config_.output_ports.find(key);
    if (found == config_.output_ports.end()) {
        return nonstd::make_unexpected(StrCat(
            "setOutput() failed: NodeConfig::output_ports does not contain the key: [", key, "]"));
    }
    std::string entry;
    if (found->second == "{=}" || found->second == "=") {
        entry = key;
    } else {
        StringView stripped;
        if (!isBlackboardPointer(found->second, &stripped))
            return nonstd::make_unexpected("setOutput requires a blackboard pointer. Use {}");
        entry = std::string(stripped);
    }
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = tree_->port_slot(index_, key, entry);
        if (slot != canopy::blackboard::npos) {
            const std::string failure = tree_->write_slot(slot, value);
            if (!failure.empty())
                return nonstd::make_unexpected(StrCat("setOutput() of [", name(), "]: ", failure));
            return {};
        }
    }
    config_.blackboard->setAny(entry, value);
    return {};
}

AnyPtrLocked TreeNode::getLockedPortContent(const std::string& key) {
    auto found = config_.input_ports.find(key);
    if (found == config_.input_ports.end()) return {};
    const Expected<StringView> remapped = getRemappedKey(key, found->second);
    if (!remapped || !config_.blackboard) return {};
    const std::string entry(*remapped);
    // A key only the port's default names ("{=}") is made by the port, as BehaviorTree.CPP
    // makes its entry with the tree.
    if (!config_.blackboard->getEntry(entry)) {
        TypeInfo type;
        if (config_.manifest != nullptr) {
            if (auto port = config_.manifest->ports.find(key);
                port != config_.manifest->ports.end())
                type = port->second;
        }
        config_.blackboard->createEntry(entry, type);
    }
    return config_.blackboard->getAnyLocked(entry);
}

// ---- actions and conditions ----

NodeStatus SyncActionNode::executeTick() {
    const NodeStatus result = ActionNodeBase::executeTick();
    if (result == NodeStatus::RUNNING) {
        throw LogicError("SyncActionNode MUST never return RUNNING");
    }
    return result;
}

NodeStatus SimpleActionNode::tick() {
    NodeStatus previous = status();
    if (previous == NodeStatus::IDLE) {
        setStatus(NodeStatus::RUNNING);
        previous = NodeStatus::RUNNING;
    }
    const NodeStatus result = tick_functor_(*this);
    if (result != previous) setStatus(result);
    return result;
}

NodeStatus StatefulActionNode::tick() {
    const NodeStatus previous = status();
    if (previous == NodeStatus::IDLE) {
        halt_requested_ = false;
        const NodeStatus result = onStart();
        if (result == NodeStatus::IDLE) {
            throw LogicError("StatefulActionNode::onStart() must not return IDLE");
        }
        return result;
    }
    if (previous == NodeStatus::RUNNING) {
        const NodeStatus result = onRunning();
        if (result == NodeStatus::IDLE) {
            throw LogicError("StatefulActionNode::onRunning() must not return IDLE");
        }
        return result;
    }
    return previous;
}

void StatefulActionNode::halt() {
    halt_requested_ = true;
    if (status() == NodeStatus::RUNNING) onHalted();
    resetStatus();
}

ThreadedAction::~ThreadedAction() {
    halt_requested_ = true;
    if (thread_handle_.valid()) thread_handle_.wait();
}

NodeStatus ThreadedAction::executeTick() {
    NodeStatus routed = NodeStatus::IDLE;
    if (tickedThroughEngine(routed)) return routed;
    if (status() == NodeStatus::IDLE) {
        setStatus(NodeStatus::RUNNING);
        halt_requested_ = false;
        thread_handle_ = std::async(std::launch::async, [this] {
            try {
                const NodeStatus result = tick();
                if (!isHaltRequested()) setStatus(result);
            } catch (const std::exception&) {
                std::cerr << "\nUncaught exception from tick(): [" << registrationName() << "/"
                          << name() << "]\n"
                          << std::endl;
                const std::lock_guard<std::mutex> hold(mutex_);
                exception_ = std::current_exception();
                setStatus(NodeStatus::IDLE);
            }
            emitWakeUpSignal();
        });
    }
    const std::lock_guard<std::mutex> hold(mutex_);
    if (exception_) {
        const std::exception_ptr failure = exception_;
        exception_ = nullptr;
        std::rethrow_exception(failure);
    }
    return status();
}

void ThreadedAction::halt() {
    halt_requested_ = true;
    if (thread_handle_.valid()) {
        // The thread may be waiting for the tree's lock, which this thread holds.
        withoutTreeLock([&] { thread_handle_.wait(); });
    }
    thread_handle_ = {};
    resetStatus();
}

// A CoroActionNode's coroutine is a thread that runs only while the tree's thread waits for
// it: each executeTick hands it the turn and waits until it yields or ends, so node code
// runs as in one thread. A halt hands it the turn with `cancel` set, and the yield it is
// stopped in throws Cancelled, which unwinds tick() (running destructors, where
// BehaviorTree.CPP's coroutine is dropped without unwinding).
struct CoroActionNode::Pimpl {
    struct Cancelled {};
    std::thread thread;
    std::mutex mutex;
    std::condition_variable turn_changed;
    bool coroutine_turn = false;  // else the tree's thread's
    bool done = true;             // no coroutine, or it returned
    bool cancel = false;
    std::exception_ptr exception;
};

CoroActionNode::CoroActionNode(const std::string& name, const NodeConfig& config)
    : ActionNodeBase(name, config), _p(std::make_unique<Pimpl>()) {}

CoroActionNode::~CoroActionNode() {
    // The tree halted the node if it ran, unless the tree is gone: then its lock is too.
    std::unique_lock<std::mutex> hold(_p->mutex);
    _p->cancel = true;
    _p->coroutine_turn = true;
    _p->turn_changed.notify_all();
    _p->turn_changed.wait(hold, [&] { return _p->done; });
    hold.unlock();
    if (_p->thread.joinable()) _p->thread.join();
}

void CoroActionNode::setStatusRunningAndYield() {
    setStatus(NodeStatus::RUNNING);
    std::unique_lock<std::mutex> hold(_p->mutex);
    _p->coroutine_turn = false;
    _p->turn_changed.notify_all();
    _p->turn_changed.wait(hold, [&] { return _p->coroutine_turn; });
    if (_p->cancel) throw Pimpl::Cancelled{};
}

void CoroActionNode::tickImpl() {
    setStatus(tickNamingErrors());
}

NodeStatus CoroActionNode::executeTick() {
    NodeStatus routed = NodeStatus::IDLE;
    if (tickedThroughEngine(routed)) return routed;
    std::unique_lock<std::mutex> hold(_p->mutex);
    if (_p->done) {
        if (_p->thread.joinable()) _p->thread.join();
        _p->done = false;
        _p->thread = std::thread([this] {
            {
                std::unique_lock<std::mutex> wait(_p->mutex);
                _p->turn_changed.wait(wait, [&] { return _p->coroutine_turn; });
            }
            std::exception_ptr failure;
            try {
                if (!_p->cancel) tickImpl();
            } catch (const Pimpl::Cancelled&) {
            } catch (...) {
                failure = std::current_exception();
            }
            const std::lock_guard<std::mutex> ended(_p->mutex);
            _p->exception = failure;
            _p->done = true;
            _p->coroutine_turn = false;
            _p->turn_changed.notify_all();
        });
    }
    _p->coroutine_turn = true;
    _p->turn_changed.notify_all();
    hold.unlock();
    // The coroutine takes the tree's lock to read its ports: give it up while it runs.
    withoutTreeLock([&] {
        std::unique_lock<std::mutex> wait(_p->mutex);
        _p->turn_changed.wait(wait, [&] { return !_p->coroutine_turn; });
    });
    hold.lock();
    if (_p->done) {
        hold.unlock();
        _p->thread.join();
        if (_p->exception) std::rethrow_exception(std::exchange(_p->exception, nullptr));
    }
    return status();
}

void CoroActionNode::halt() {
    destroyCoroutine();
    resetStatus();
}

void CoroActionNode::destroyCoroutine() {
    std::unique_lock<std::mutex> hold(_p->mutex);
    if (!_p->done) {
        _p->cancel = true;
        _p->coroutine_turn = true;
        _p->turn_changed.notify_all();
        hold.unlock();
        withoutTreeLock([&] {
            std::unique_lock<std::mutex> wait(_p->mutex);
            _p->turn_changed.wait(wait, [&] { return _p->done; });
        });
        hold.lock();
        _p->cancel = false;
        _p->exception = nullptr;
    }
    hold.unlock();
    if (_p->thread.joinable()) _p->thread.join();
}

// ---- controls and decorators ----

void ControlNode::halt() {
    resetChildren();
    resetStatus();
}

void ControlNode::resetChildren() {
    for (TreeNode* child : children_nodes_) {
        if (child->status() == NodeStatus::RUNNING) child->haltNode();
        child->resetStatus();
    }
}

void ControlNode::haltChild(size_t i) {
    TreeNode* child = children_nodes_.at(i);
    if (child->status() == NodeStatus::RUNNING) child->haltNode();
    child->resetStatus();
}

void ControlNode::haltChildren() {
    for (size_t i = 0; i < children_nodes_.size(); ++i) haltChild(i);
}

void DecoratorNode::setChild(TreeNode* child) {
    if (child_node_ != nullptr) {
        throw BehaviorTreeException("Decorator [", name(), "] has already a child assigned");
    }
    child_node_ = child;
}

void DecoratorNode::halt() {
    resetChild();
    resetStatus();
}

void DecoratorNode::haltChild() {
    resetChild();
}

void DecoratorNode::resetChild() {
    if (child_node_ == nullptr) return;
    if (child_node_->status() == NodeStatus::RUNNING) child_node_->haltNode();
    child_node_->resetStatus();
}

NodeStatus DecoratorNode::executeTick() {
    NodeStatus result = TreeNode::executeTick();
    if (child_node_ != nullptr && isStatusCompleted(child_node_->status())) {
        child_node_->resetStatus();
    }
    return result;
}

}  // namespace BT
