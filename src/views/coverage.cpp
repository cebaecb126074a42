#include "canopy/views/coverage.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"

namespace canopy {

namespace {

// The agent whose statuses this thread last looked up, and for which recorder (by its serial
// number, which no later recorder at the same address shares): an agent ticks on one thread
// at a time, so most events need no lookup.
struct cached_agent {
    std::uint64_t recorder = 0;
    const agent* who = nullptr;
    std::vector<status>* statuses = nullptr;
};
thread_local cached_agent cache;
std::atomic<std::uint64_t> recorders_made{0};

}  // namespace

coverage_recorder::coverage_recorder(std::shared_ptr<const tree> observed)
    : serial_(++recorders_made),
      tree_(std::move(observed)),
      counts_(std::make_unique<counters[]>(tree_->size())),
      reactive_(tree_->size(), false),
      keeps_failed_condition_(tree_->size(), false) {
    for (tree::index i = 0; i < tree_->size(); ++i) {
        const std::string_view type = tree_->type_name(i);
        reactive_[i] = type == "ReactiveSequence" || type == "ReactiveSelector";
        keeps_failed_condition_[i] =
            tree_->layout().fails_as_btcpp && type == "IfThenElse" && tree_->child_count(i) == 2;
    }
}

coverage_recorder::~coverage_recorder() = default;

std::vector<status>& coverage_recorder::statuses_of(const agent& a) {
    std::vector<status>* statuses = nullptr;
    if (cache.recorder == serial_ && cache.who == &a) {
        statuses = cache.statuses;
    } else {
        const std::lock_guard<std::mutex> lock(agents_mutex_);
        statuses = &agents_[&a];  // a map's values stay where they are
        cache = {serial_, &a, statuses};
    }
    // Only the thread ticking the agent touches its statuses, so this needs no lock.
    if (statuses->empty()) statuses->assign(tree_->size(), status::idle);
    return *statuses;
}

void coverage_recorder::forget_statuses(const agent& a) {
    std::vector<status>* statuses = nullptr;
    if (cache.recorder == serial_ && cache.who == &a) {
        statuses = cache.statuses;
    } else {
        const std::lock_guard<std::mutex> lock(agents_mutex_);
        const auto found = agents_.find(&a);
        if (found == agents_.end()) return;  // never heard here: nothing to forget
        statuses = &found->second;
        cache = {serial_, &a, statuses};
    }
    statuses->clear();
}

bool coverage_recorder::runs_observed(const agent& a) const noexcept {
    return &a.tree() == tree_.get();
}

// Events from an agent on another tree name that tree's nodes: indexes that may lie past
// observed()'s end, or name other nodes of it. They are left out, never counted here.
void coverage_recorder::on_visit(const agent& a, tree::index node) {
    if (!runs_observed(a)) {
        // Once a tick, not at every event: a lookup may take the lock.
        if (node == tree::root) forget_statuses(a);
        return;
    }
    // BehaviorTree.CPP's controls and decorators set themselves running as their tick starts:
    // whatever they return then is a change.
    if (tree_->child_count(node) != 0) statuses_of(a)[node] = status::running;
}

void coverage_recorder::on_tick(const agent& a, tree::index node, status before, status result) {
    if (!runs_observed(a)) {
        if (node == tree::root) other_tree_ticks_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    std::vector<status>& statuses = statuses_of(a);
    // A run counts once: at the tick that left the node running when it was not.
    const status previous = result == status::running ? before : statuses[node];
    statuses[node] = result;
    // A node that finishes (or is skipped) resets its children (not theirs), as
    // BehaviorTree.CPP's controls do; a decorator resets its child as soon as the child
    // finishes: their next statuses are changes again.
    // The root is reset after each tick it finishes, as BehaviorTree.CPP's tickRoot resets it.
    // A reactive composite whose child runs resets its other children (their subtrees keep
    // their statuses), as BehaviorTree.CPP's "reset the previous children". A BehaviorTree.CPP
    // file's two-child IfThenElse whose condition failed (its branch was not ticked) resets
    // neither, as 4.10's: the condition's next failure is no change.
    const bool finished = result != status::running;
    const tree::index parent = tree_->parent(node);
    if (finished) {
        const bool keeps = keeps_failed_condition_[node] && result == status::failure &&
                           statuses[tree_->subtree_end(node + 1)] == status::idle;
        if (!keeps) {
            for (const tree::index child : tree_->children(node)) statuses[child] = status::idle;
        }
        if (node == tree::root || (parent != tree::no_parent && tree_->child_count(parent) == 1))
            statuses[node] = status::idle;
    } else if (parent != tree::no_parent && reactive_[parent]) {
        for (const tree::index sibling : tree_->children(parent)) {
            if (sibling != node) statuses[sibling] = status::idle;
        }
    }
    if (previous == result) return;
    counters& c = counts_[node];
    constexpr auto relaxed = std::memory_order_relaxed;  // counts only: nothing is published
    switch (result) {
        case status::success: c.success.fetch_add(1, relaxed); break;
        case status::failure: c.failure.fetch_add(1, relaxed); break;
        case status::skipped: c.skipped.fetch_add(1, relaxed); break;
        case status::running: c.running.fetch_add(1, relaxed); break;
        default: break;
    }
}

void coverage_recorder::on_halt(const agent& a, tree::index node) {
    if (!runs_observed(a)) return;
    std::vector<status>& statuses = statuses_of(a);
    std::fill(statuses.begin() + node, statuses.begin() + tree_->subtree_end(node), status::idle);
}

node_coverage coverage_recorder::of(tree::index i) const {
    if (i >= tree_->size()) {
        throw error(error_code::invalid_argument,
                    "coverage_recorder::of: no node " + std::to_string(i) + " in tree '" +
                        tree_->name() + "' of " + std::to_string(tree_->size()) +
                        " nodes: ask a recorder made for the tree that node is of");
    }
    const counters& c = counts_[i];
    return {c.success.load(std::memory_order_relaxed), c.failure.load(std::memory_order_relaxed),
            c.running.load(std::memory_order_relaxed), c.skipped.load(std::memory_order_relaxed)};
}

std::uint64_t coverage_recorder::other_tree_ticks() const noexcept {
    return other_tree_ticks_.load(std::memory_order_relaxed);
}

void coverage_recorder::add(const coverage_recorder& other) {
    const tree& theirs = other.observed();
    bool same = theirs.size() == tree_->size();
    for (tree::index i = 0; same && i < tree_->size(); ++i)
        same = theirs.record_id(i) == tree_->record_id(i);
    if (!same) {
        throw error(error_code::invalid_argument,
                    "coverage of a tree of another shape cannot be added to this one's");
    }
    for (tree::index i = 0; i < tree_->size(); ++i) {
        const node_coverage n = other.of(i);
        counts_[i].success.fetch_add(n.success, std::memory_order_relaxed);
        counts_[i].failure.fetch_add(n.failure, std::memory_order_relaxed);
        counts_[i].running.fetch_add(n.running, std::memory_order_relaxed);
        counts_[i].skipped.fetch_add(n.skipped, std::memory_order_relaxed);
    }
    other_tree_ticks_.fetch_add(other.other_tree_ticks(), std::memory_order_relaxed);
}

coverage_summary summarize(const coverage_recorder& coverage) {
    coverage_summary summary;
    const tree& t = coverage.observed();
    for (tree::index i = 0; i < t.size(); ++i) {
        const node_coverage n = coverage.of(i);
        summary.outcomes += 2;
        summary.seen += (n.success != 0 ? 1 : 0) + (n.failure != 0 ? 1 : 0);
        if (!n.ticked()) {
            summary.never_ticked.push_back(i);
            continue;
        }
        if (n.success == 0) summary.never_succeeded.push_back(i);
        if (n.failure == 0) summary.never_failed.push_back(i);
    }
    return summary;
}

std::string coverage_json(const coverage_recorder& coverage) {
    const tree& t = coverage.observed();
    const coverage_summary summary = summarize(coverage);
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (tree::index i = 0; i < t.size(); ++i) {
        const node_coverage n = coverage.of(i);
        nodes.push_back({{"id", t.record_id(i)},
                         {"name", std::string(t.describe(i))},
                         {"type", std::string(t.written_type(i))},
                         {"success", n.success},
                         {"failure", n.failure},
                         {"running", n.running},
                         {"skipped", n.skipped}});
    }
    const nlohmann::ordered_json document = {{"tree", t.name()},
                                             {"outcomes", summary.outcomes},
                                             {"seen", summary.seen},
                                             {"percent", summary.percent()},
                                             {"nodes", std::move(nodes)}};
    return document.dump(2) + "\n";
}

namespace {

// `#ID Type "name"`, as the summary lists a node.
std::string node_label(const tree& t, tree::index i) {
    std::string label = "#" + std::to_string(t.record_id(i)) + " ";
    label += t.written_type(i);
    if (!t.describe(i).empty()) {
        label += " \"";
        label += t.describe(i);
        label += '"';
    }
    return label;
}

void print_list(std::ostream& out, const tree& t, const char* what,
                const std::vector<tree::index>& nodes) {
    if (nodes.empty()) return;
    out << "  " << what << " (" << nodes.size() << "):\n";
    for (const tree::index i : nodes) out << "    " << node_label(t, i) << '\n';
}

}  // namespace

void print_coverage_summary(std::ostream& out, const coverage_recorder& coverage) {
    const tree& t = coverage.observed();
    const coverage_summary summary = summarize(coverage);
    out << "coverage: " << summary.seen << " of " << summary.outcomes
        << " node outcomes seen (success and failure of each node), " << std::fixed
        << std::setprecision(1) << summary.percent() << "%\n"
        << std::defaultfloat;
    print_list(out, t, "never ticked", summary.never_ticked);
    print_list(out, t, "never succeeded", summary.never_succeeded);
    print_list(out, t, "never failed", summary.never_failed);
    if (const std::uint64_t other = coverage.other_tree_ticks(); other != 0) {
        out << "  not counted: " << other << (other == 1 ? " tick" : " ticks")
            << " of agents on another tree (a reload they followed)\n";
    }
}

}  // namespace canopy
