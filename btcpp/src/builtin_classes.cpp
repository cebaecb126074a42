// BehaviorTree.CPP's built-in controls and decorators as classes a program builds and ticks
// itself (`BT::SequenceNode root("root"); root.addChild(&a); root.executeTick();`), with
// BehaviorTree.CPP 4.10's ticks and halts. A tree made by BehaviorTreeFactory does not use
// them: Canopy's engine runs its built-in nodes (docs/btcpp-api.md).

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>

#include "behaviortree_cpp/controls/fallback_node.h"
#include "behaviortree_cpp/controls/if_then_else_node.h"
#include "behaviortree_cpp/controls/parallel_all_node.h"
#include "behaviortree_cpp/controls/parallel_node.h"
#include "behaviortree_cpp/controls/reactive_fallback.h"
#include "behaviortree_cpp/controls/reactive_sequence.h"
#include "behaviortree_cpp/controls/sequence_node.h"
#include "behaviortree_cpp/controls/sequence_with_memory_node.h"
#include "behaviortree_cpp/controls/switch_node.h"
#include "behaviortree_cpp/controls/while_do_else_node.h"
#include "behaviortree_cpp/decorators/delay_node.h"
#include "behaviortree_cpp/decorators/inverter_node.h"
#include "behaviortree_cpp/decorators/repeat_node.h"
#include "behaviortree_cpp/decorators/retry_node.h"
#include "behaviortree_cpp/decorators/timeout_node.h"

namespace BT {

namespace detail {

/// Calls a function once a delay has passed, on a thread of its own, unless cancelled
/// before. One delay at a time: start() cancels the one before.
class deadline_timer {
public:
    deadline_timer() = default;
    deadline_timer(const deadline_timer&) = delete;
    deadline_timer& operator=(const deadline_timer&) = delete;
    ~deadline_timer() { cancel(); }

    void start(std::chrono::milliseconds delay, std::function<void()> on_time) {
        cancel();
        const std::lock_guard<std::mutex> hold(mutex_);
        cancelled_ = false;
        thread_ = std::thread([this, delay, on_time = std::move(on_time)] {
            std::unique_lock<std::mutex> wait(mutex_);
            if (cancelled_changed_.wait_for(wait, delay, [this] { return cancelled_; })) return;
            wait.unlock();
            on_time();
        });
    }

    /// Stops the delay; once it returns, the function is not running and will not run.
    /// Never called from the function itself.
    void cancel() {
        {
            const std::lock_guard<std::mutex> hold(mutex_);
            cancelled_ = true;
        }
        cancelled_changed_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable cancelled_changed_;
    bool cancelled_ = true;
    std::thread thread_;
};

}  // namespace detail

namespace {

NodeStatus opposite(NodeStatus status) {
    return status == NodeStatus::SUCCESS ? NodeStatus::FAILURE : NodeStatus::SUCCESS;
}

[[noreturn]] void throwChildReturnedIdle(const TreeNode& parent) {
    throw LogicError("[", parent.name(), "]: a child returned IDLE, which no tick may return");
}

// What Sequence, SequenceWithMemory and Fallback share: tick the children in order from
// `current`, moving on while they return `go_on` (or SKIPPED). The first that runs makes
// the node RUNNING, to go on from it at the next tick; the first that returns the opposite
// ends the run with it: the node starts over next time, or with `keep_place` goes on from
// that child (and halts it and those after it). With `may_yield`, a child that returns
// `go_on` at its first tick, in a tree that can be woken, ends the tick with RUNNING and a
// wake-up, so that the tree may be halted between two children.
NodeStatus tickInOrder(ControlNode& node, size_t& current, size_t& skipped, NodeStatus go_on,
                       bool keep_place, bool may_yield) {
    const std::vector<TreeNode*>& children = node.children();
    const NodeStatus stop = opposite(go_on);
    while (current < children.size()) {
        TreeNode* child = children[current];
        const NodeStatus before = child->status();
        const NodeStatus result = child->executeTick();
        if (result == NodeStatus::RUNNING) return NodeStatus::RUNNING;
        if (result == NodeStatus::IDLE) throwChildReturnedIdle(node);
        if (result == stop) {
            if (keep_place) {
                for (size_t i = current; i < children.size(); ++i) node.haltChild(i);
            } else {
                node.resetChildren();
                current = 0;
            }
            return stop;
        }
        ++current;
        if (result == NodeStatus::SKIPPED) {
            ++skipped;
        } else if (may_yield && node.requiresWakeUp() && before == NodeStatus::IDLE &&
                   current < children.size()) {
            node.emitWakeUpSignal();
            return NodeStatus::RUNNING;
        }
    }
    const bool every_child_skipped = skipped == children.size();
    node.resetChildren();
    current = 0;
    skipped = 0;
    return every_child_skipped ? NodeStatus::SKIPPED : go_on;
}

// What ReactiveSequence and ReactiveFallback share: tick every child from the first while
// they return `go_on` (or SKIPPED, which resets the child so that it may be skipped again).
// A running child halts all the others and makes the node RUNNING; the opposite of `go_on`
// ends the run with it; every child's `go_on` is the node's (SKIPPED if all were skipped).
NodeStatus tickReactively(ControlNode& node, int& running_child, bool throw_if_multiple_running,
                          NodeStatus go_on, const char* kind) {
    const std::vector<TreeNode*>& children = node.children();
    bool every_child_skipped = true;
    for (size_t index = 0; index < children.size(); ++index) {
        const NodeStatus result = children[index]->executeTick();
        every_child_skipped = every_child_skipped && result == NodeStatus::SKIPPED;
        if (result == NodeStatus::RUNNING) {
            for (size_t other = 0; other < children.size(); ++other) {
                if (other != index) node.haltChild(other);
            }
            if (running_child == -1) {
                running_child = static_cast<int>(index);
            } else if (throw_if_multiple_running && running_child != static_cast<int>(index)) {
                throw LogicError("[", kind, "]: only one child may return RUNNING, and [",
                                 children[index]->name(), "] runs after [",
                                 children[static_cast<size_t>(running_child)]->name(), "]. Call ",
                                 kind, "::EnableException(false) to allow it");
            }
            return NodeStatus::RUNNING;
        }
        if (result == NodeStatus::SKIPPED) {
            node.haltChild(index);
        } else if (result == NodeStatus::IDLE) {
            throwChildReturnedIdle(node);
        } else if (result != go_on) {
            node.resetChildren();
            return result;
        }
    }
    node.resetChildren();
    return every_child_skipped ? NodeStatus::SKIPPED : go_on;
}

// A threshold as a count of children: a negative one counts back from the number of
// children plus one (-1: all of them).
size_t thresholdCount(int threshold, size_t children) {
    if (threshold >= 0) return static_cast<size_t>(threshold);
    return static_cast<size_t>(std::max(static_cast<int>(children) + threshold + 1, 0));
}

}  // namespace

// ---- sequences and fallbacks ----

SequenceNode::SequenceNode(const std::string& name, bool make_async, const NodeConfig& config)
    : ControlNode(name, config), asynch_(make_async) {
    setRegistrationID(make_async ? "AsyncSequence" : "Sequence");
}

void SequenceNode::halt() {
    current_child_idx_ = 0;
    skipped_count_ = 0;
    ControlNode::halt();
}

NodeStatus SequenceNode::tick() {
    if (!isStatusActive(status())) skipped_count_ = 0;
    setStatus(NodeStatus::RUNNING);
    return tickInOrder(*this, current_child_idx_, skipped_count_, NodeStatus::SUCCESS,
                       /*keep_place=*/false, /*may_yield=*/asynch_);
}

SequenceWithMemory::SequenceWithMemory(const std::string& name) : ControlNode(name, {}) {
    setRegistrationID("SequenceWithMemory");
}

void SequenceWithMemory::halt() {
    // The place stays: the next run goes on from the child that was running.
    ControlNode::halt();
}

NodeStatus SequenceWithMemory::tick() {
    if (!isStatusActive(status())) skipped_count_ = 0;
    setStatus(NodeStatus::RUNNING);
    return tickInOrder(*this, current_child_idx_, skipped_count_, NodeStatus::SUCCESS,
                       /*keep_place=*/true, /*may_yield=*/true);
}

FallbackNode::FallbackNode(const std::string& name, bool make_asynch)
    : ControlNode(name, {}), asynch_(make_asynch) {
    setRegistrationID(make_asynch ? "AsyncFallback" : "Fallback");
}

void FallbackNode::halt() {
    current_child_idx_ = 0;
    skipped_count_ = 0;
    ControlNode::halt();
}

NodeStatus FallbackNode::tick() {
    if (!isStatusActive(status())) skipped_count_ = 0;
    setStatus(NodeStatus::RUNNING);
    return tickInOrder(*this, current_child_idx_, skipped_count_, NodeStatus::FAILURE,
                       /*keep_place=*/false, /*may_yield=*/asynch_);
}

bool ReactiveSequence::throw_if_multiple_running = false;

void ReactiveSequence::EnableException(bool enable) {
    throw_if_multiple_running = enable;
}

NodeStatus ReactiveSequence::tick() {
    if (status() == NodeStatus::IDLE) running_child_ = -1;
    setStatus(NodeStatus::RUNNING);
    return tickReactively(*this, running_child_, throw_if_multiple_running, NodeStatus::SUCCESS,
                          "ReactiveSequence");
}

void ReactiveSequence::halt() {
    running_child_ = -1;
    ControlNode::halt();
}

bool ReactiveFallback::throw_if_multiple_running = false;

void ReactiveFallback::EnableException(bool enable) {
    throw_if_multiple_running = enable;
}

NodeStatus ReactiveFallback::tick() {
    if (status() == NodeStatus::IDLE) running_child_ = -1;
    setStatus(NodeStatus::RUNNING);
    return tickReactively(*this, running_child_, throw_if_multiple_running, NodeStatus::FAILURE,
                          "ReactiveFallback");
}

void ReactiveFallback::halt() {
    running_child_ = -1;
    ControlNode::halt();
}

// ---- parallels ----

ParallelNode::ParallelNode(const std::string& name) : ControlNode(name, {}) {
    setRegistrationID("Parallel");
}

ParallelNode::ParallelNode(const std::string& name, const NodeConfig& config)
    : ControlNode(name, config), read_parameter_from_ports_(true) {}

size_t ParallelNode::successThreshold() const {
    return thresholdCount(success_threshold_, children_nodes_.size());
}

size_t ParallelNode::failureThreshold() const {
    return thresholdCount(failure_threshold_, children_nodes_.size());
}

void ParallelNode::setSuccessThreshold(int threshold) {
    success_threshold_ = threshold;
}

void ParallelNode::setFailureThreshold(int threshold) {
    failure_threshold_ = threshold;
}

void ParallelNode::clear() {
    completed_list_.clear();
    success_count_ = 0;
    failure_count_ = 0;
}

void ParallelNode::halt() {
    clear();
    ControlNode::halt();
}

NodeStatus ParallelNode::tick() {
    if (read_parameter_from_ports_) {
        for (auto [port, threshold] : {std::pair{THRESHOLD_SUCCESS, &success_threshold_},
                                       std::pair{THRESHOLD_FAILURE, &failure_threshold_}}) {
            if (!getInput(port, *threshold))
                throw RuntimeError("ParallelNode [", name(), "]: cannot read its port [", port,
                                   "]");
        }
    }
    const size_t children = children_nodes_.size();
    if (children < successThreshold()) {
        throw LogicError("ParallelNode [", name(), "] needs ", successThreshold(),
                         " successes but has ", children, " children: it can never succeed");
    }
    if (children < failureThreshold()) {
        throw LogicError("ParallelNode [", name(), "] needs ", failureThreshold(),
                         " failures but has ", children, " children: it can never fail");
    }
    setStatus(NodeStatus::RUNNING);

    size_t skipped = 0;
    for (size_t index = 0; index < children; ++index) {
        if (completed_list_.count(index) == 0) {
            switch (children_nodes_[index]->executeTick()) {
                case NodeStatus::SUCCESS:
                    completed_list_.insert(index);
                    ++success_count_;
                    break;
                case NodeStatus::FAILURE:
                    completed_list_.insert(index);
                    ++failure_count_;
                    break;
                case NodeStatus::SKIPPED: ++skipped; break;
                case NodeStatus::RUNNING: break;
                case NodeStatus::IDLE: throwChildReturnedIdle(*this);
            }
        }
        // Checked after each child, so that the children after the one that decides are
        // not ticked (they are halted instead).
        const size_t successes_needed = successThreshold();
        const bool succeeded =
            success_count_ >= successes_needed ||
            (success_threshold_ < 0 && success_count_ + skipped >= successes_needed);
        const bool failed =
            children - failure_count_ < successes_needed || failure_count_ == failureThreshold();
        if (succeeded || failed) {
            clear();
            resetChildren();
            return succeeded ? NodeStatus::SUCCESS : NodeStatus::FAILURE;
        }
    }
    return skipped == children ? NodeStatus::SKIPPED : NodeStatus::RUNNING;
}

ParallelAllNode::ParallelAllNode(const std::string& name, const NodeConfig& config)
    : ControlNode(name, config) {}

void ParallelAllNode::setFailureThreshold(int threshold) {
    failure_threshold_ = thresholdCount(threshold, children_nodes_.size());
}

void ParallelAllNode::halt() {
    completed_list_.clear();
    failure_count_ = 0;
    ControlNode::halt();
}

NodeStatus ParallelAllNode::tick() {
    int max_failures = 0;
    if (!getInput("max_failures", max_failures))
        throw RuntimeError("ParallelAllNode [", name(), "]: cannot read its port [max_failures]");
    setFailureThreshold(max_failures);
    const size_t children = children_nodes_.size();
    if (children < failure_threshold_) {
        throw LogicError("ParallelAllNode [", name(), "] needs ", failure_threshold_,
                         " failures but has ", children, " children: it can never fail");
    }
    setStatus(NodeStatus::RUNNING);

    size_t skipped = 0;
    for (size_t index = 0; index < children; ++index) {
        if (completed_list_.count(index) != 0) continue;
        switch (children_nodes_[index]->executeTick()) {
            case NodeStatus::SUCCESS: completed_list_.insert(index); break;
            case NodeStatus::FAILURE:
                completed_list_.insert(index);
                ++failure_count_;
                break;
            case NodeStatus::SKIPPED: ++skipped; break;
            case NodeStatus::RUNNING: break;
            case NodeStatus::IDLE: throwChildReturnedIdle(*this);
        }
    }
    if (skipped == children) return NodeStatus::SKIPPED;
    if (completed_list_.size() + skipped < children) return NodeStatus::RUNNING;

    haltChildren();
    completed_list_.clear();
    const bool failed = failure_count_ >= failure_threshold_;
    failure_count_ = 0;
    return failed ? NodeStatus::FAILURE : NodeStatus::SUCCESS;
}

// ---- conditionals ----

IfThenElseNode::IfThenElseNode(const std::string& name) : ControlNode(name, {}) {
    setRegistrationID("IfThenElse");
}

void IfThenElseNode::halt() {
    child_idx_ = 0;
    ControlNode::halt();
}

NodeStatus IfThenElseNode::tick() {
    const size_t children = children_nodes_.size();
    if (children != 2 && children != 3) {
        throw LogicError("IfThenElseNode [", name(), "] has ", children,
                         " children: it takes 2 or 3");
    }
    setStatus(NodeStatus::RUNNING);

    if (child_idx_ == 0) {
        const NodeStatus condition = children_nodes_[0]->executeTick();
        if (condition == NodeStatus::RUNNING) return NodeStatus::RUNNING;
        if (condition == NodeStatus::SUCCESS) {
            child_idx_ = 1;
        } else if (condition == NodeStatus::FAILURE) {
            if (children == 2) return NodeStatus::FAILURE;
            child_idx_ = 2;
        } else {
            throw LogicError("IfThenElseNode [", name(), "]: its condition returned ",
                             toStr(condition),
                             ", where it must return SUCCESS, FAILURE or "
                             "RUNNING");
        }
    }
    const NodeStatus result = children_nodes_[child_idx_]->executeTick();
    if (result == NodeStatus::RUNNING) return NodeStatus::RUNNING;
    resetChildren();
    child_idx_ = 0;
    return result;
}

WhileDoElseNode::WhileDoElseNode(const std::string& name) : ControlNode(name, {}) {
    setRegistrationID("WhileDoElse");
}

void WhileDoElseNode::halt() {
    ControlNode::halt();
}

NodeStatus WhileDoElseNode::tick() {
    const size_t children = children_nodes_.size();
    if (children != 2 && children != 3) {
        throw LogicError("WhileDoElseNode [", name(), "] has ", children,
                         " children: it takes 2 or 3");
    }
    setStatus(NodeStatus::RUNNING);

    const NodeStatus condition = children_nodes_[0]->executeTick();
    if (condition == NodeStatus::RUNNING) return NodeStatus::RUNNING;

    NodeStatus result = NodeStatus::IDLE;
    if (condition == NodeStatus::SUCCESS) {
        if (children == 3) haltChild(2);
        result = children_nodes_[1]->executeTick();
    } else if (condition == NodeStatus::FAILURE) {
        if (children == 3) {
            haltChild(1);
            result = children_nodes_[2]->executeTick();
        } else {
            result = NodeStatus::FAILURE;
        }
    }
    if (result == NodeStatus::RUNNING) return NodeStatus::RUNNING;
    resetChildren();
    return result;
}

namespace details {

namespace {

bool enumValue(const std::string& text, const ScriptingEnumsRegistry* enums, int& value) {
    if (enums == nullptr) return false;
    const auto found = enums->find(text);
    if (found == enums->end()) return false;
    value = found->second;
    return true;
}

bool wholeInteger(const std::string& text, const ScriptingEnumsRegistry* enums, int& value) {
    if (enumValue(text, enums, value)) return true;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    return error == std::errc() && stop == end;
}

bool wholeNumber(const std::string& text, const ScriptingEnumsRegistry* enums, double& value) {
    int named = 0;
    if (enumValue(text, enums, named)) {
        value = named;
        return true;
    }
    // strtod skips leading blanks, which a number written in a port must not have.
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) != 0) return false;
    char* stop = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &stop);
    return errno == 0 && stop == text.c_str() + text.size();
}

}  // namespace

bool CheckStringEquality(const std::string& v1, const std::string& v2,
                         const ScriptingEnumsRegistry* enums) {
    if (v1 == v2) return true;
    int first_integer = 0;
    int second_integer = 0;
    if (wholeInteger(v1, enums, first_integer) && wholeInteger(v2, enums, second_integer) &&
        first_integer == second_integer) {
        return true;
    }
    double first_number = 0;
    double second_number = 0;
    return wholeNumber(v1, enums, first_number) && wholeNumber(v2, enums, second_number) &&
           std::abs(first_number - second_number) <=
               static_cast<double>(std::numeric_limits<float>::epsilon());
}

}  // namespace details

// ---- decorators ----

InverterNode::InverterNode(const std::string& name) : DecoratorNode(name, {}) {
    setRegistrationID("Inverter");
}

NodeStatus InverterNode::tick() {
    setStatus(NodeStatus::RUNNING);
    const NodeStatus result = child_node_->executeTick();
    if (result == NodeStatus::IDLE) throwChildReturnedIdle(*this);
    if (!isStatusCompleted(result)) return result;  // RUNNING, SKIPPED
    resetChild();
    return opposite(result);
}

RetryNode::RetryNode(const std::string& name, int NTries)
    : DecoratorNode(name, {}), max_attempts_(NTries) {
    setRegistrationID("RetryUntilSuccessful");
}

RetryNode::RetryNode(const std::string& name, const NodeConfig& config)
    : DecoratorNode(name, config), read_parameter_from_ports_(true) {}

void RetryNode::halt() {
    try_count_ = 0;
    DecoratorNode::halt();
}

NodeStatus RetryNode::tick() {
    if (read_parameter_from_ports_ && !getInput(NUM_ATTEMPTS, max_attempts_))
        throw RuntimeError("RetryNode [", name(), "]: cannot read its port [", NUM_ATTEMPTS, "]");
    const auto attempts_left = [this] { return max_attempts_ == -1 || try_count_ < max_attempts_; };
    setStatus(NodeStatus::RUNNING);

    while (attempts_left()) {
        const NodeStatus before = child_node_->status();
        switch (child_node_->executeTick()) {
            case NodeStatus::SUCCESS:
                try_count_ = 0;
                resetChild();
                return NodeStatus::SUCCESS;
            case NodeStatus::FAILURE:
                ++try_count_;
                // The child may have changed the number the port reads.
                if (read_parameter_from_ports_) (void)getInput(NUM_ATTEMPTS, max_attempts_);
                resetChild();
                // A child that failed at its first tick hands the turn back to the tree
                // before the next attempt, when the tree can be woken to tick again.
                if (requiresWakeUp() && before == NodeStatus::IDLE && attempts_left()) {
                    emitWakeUpSignal();
                    return NodeStatus::RUNNING;
                }
                break;
            case NodeStatus::RUNNING: return NodeStatus::RUNNING;
            case NodeStatus::SKIPPED:
                resetChild();  // so that it may be skipped again
                return NodeStatus::SKIPPED;
            case NodeStatus::IDLE: throwChildReturnedIdle(*this);
        }
    }
    try_count_ = 0;
    return NodeStatus::FAILURE;
}

RepeatNode::RepeatNode(const std::string& name, int NTries)
    : DecoratorNode(name, {}), num_cycles_(NTries) {
    setRegistrationID("Repeat");
}

RepeatNode::RepeatNode(const std::string& name, const NodeConfig& config)
    : DecoratorNode(name, config), read_parameter_from_ports_(true) {}

void RepeatNode::halt() {
    repeat_count_ = 0;
    DecoratorNode::halt();
}

NodeStatus RepeatNode::tick() {
    if (read_parameter_from_ports_ && !getInput(NUM_CYCLES, num_cycles_))
        throw RuntimeError("RepeatNode [", name(), "]: cannot read its port [", NUM_CYCLES, "]");
    const auto cycles_left = [this] { return num_cycles_ == -1 || repeat_count_ < num_cycles_; };
    setStatus(NodeStatus::RUNNING);

    while (cycles_left()) {
        const NodeStatus before = child_node_->status();
        switch (child_node_->executeTick()) {
            case NodeStatus::SUCCESS:
                ++repeat_count_;
                resetChild();
                // As RetryNode does: give the tree the turn between two cycles.
                if (requiresWakeUp() && before == NodeStatus::IDLE && cycles_left()) {
                    emitWakeUpSignal();
                    return NodeStatus::RUNNING;
                }
                break;
            case NodeStatus::FAILURE:
                repeat_count_ = 0;
                resetChild();
                return NodeStatus::FAILURE;
            case NodeStatus::RUNNING: return NodeStatus::RUNNING;
            case NodeStatus::SKIPPED:
                resetChild();  // so that it may be skipped again; the count stays
                return NodeStatus::SKIPPED;
            case NodeStatus::IDLE: throwChildReturnedIdle(*this);
        }
    }
    repeat_count_ = 0;
    return NodeStatus::SUCCESS;
}

// ---- timed decorators ----

TimeoutNode::TimeoutNode(const std::string& name, unsigned milliseconds)
    : DecoratorNode(name, {}),
      timer_(std::make_unique<detail::deadline_timer>()),
      msec_(milliseconds) {
    setRegistrationID("Timeout");
}

TimeoutNode::TimeoutNode(const std::string& name, const NodeConfig& config)
    : DecoratorNode(name, config),
      timer_(std::make_unique<detail::deadline_timer>()),
      read_parameter_from_ports_(true) {}

TimeoutNode::~TimeoutNode() {
    // Before the members the timer's function uses are gone.
    timer_->cancel();
}

void TimeoutNode::halt() {
    timeout_started_ = false;
    timer_->cancel();
    DecoratorNode::halt();
}

NodeStatus TimeoutNode::tick() {
    if (read_parameter_from_ports_ && !getInput("msec", msec_))
        throw RuntimeError("TimeoutNode [", name(), "]: cannot read its port [msec]");

    if (!timeout_started_) {
        timeout_started_ = true;
        setStatus(NodeStatus::RUNNING);
        child_timed_out_ = false;
        if (msec_ > 0) {
            timer_->start(std::chrono::milliseconds(msec_), [this] {
                if (child_node_->status() != NodeStatus::RUNNING) return;
                child_timed_out_ = true;
                emitWakeUpSignal();
            });
        }
    }
    if (child_timed_out_) {
        timeout_started_ = false;
        timer_->cancel();
        haltChild();
        return NodeStatus::FAILURE;
    }
    const NodeStatus result = child_node_->executeTick();
    if (isStatusCompleted(result)) {
        timeout_started_ = false;
        timer_->cancel();
        resetChild();
    }
    return result;
}

DelayNode::DelayNode(const std::string& name, unsigned milliseconds)
    : DecoratorNode(name, {}),
      timer_(std::make_unique<detail::deadline_timer>()),
      msec_(milliseconds) {
    setRegistrationID("Delay");
}

DelayNode::DelayNode(const std::string& name, const NodeConfig& config)
    : DecoratorNode(name, config),
      timer_(std::make_unique<detail::deadline_timer>()),
      read_parameter_from_ports_(true) {}

DelayNode::~DelayNode() {
    timer_->cancel();
}

void DelayNode::halt() {
    delay_started_ = false;
    timer_->cancel();
    DecoratorNode::halt();
}

NodeStatus DelayNode::tick() {
    if (read_parameter_from_ports_ && !getInput("delay_msec", msec_))
        throw RuntimeError("DelayNode [", name(), "]: cannot read its port [delay_msec]");

    if (!delay_started_) {
        delay_started_ = true;
        setStatus(NodeStatus::RUNNING);
        const std::chrono::milliseconds delay(msec_);
        delay_end_ = std::chrono::steady_clock::now() + delay;
        // The tick after the delay decides; the timer only wakes the tree for it.
        if (msec_ > 0) timer_->start(delay, [this] { emitWakeUpSignal(); });
    }
    if (std::chrono::steady_clock::now() < delay_end_) return NodeStatus::RUNNING;

    const NodeStatus result = child_node_->executeTick();
    if (isStatusCompleted(result)) {
        delay_started_ = false;
        timer_->cancel();
        resetChild();
    }
    return result;
}

}  // namespace BT
