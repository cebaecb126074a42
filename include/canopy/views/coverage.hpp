#pragma once
// Which parts of a tree its runs exercised: for every node, how often it returned each status
// (docs/testing.md, "Coverage").

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "canopy/core/status.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

/// What one node returned over the runs a coverage_recorder saw, counted as BehaviorTree.CPP's
/// TreeObserver counts: a change of the node's status to that one. A node that returns the
/// same status again without having been reset to idle in between (by its parent finishing,
/// or by a halt; docs/testing.md, "Coverage") counts once.
struct node_coverage {
    std::uint64_t success = 0;
    std::uint64_t failure = 0;
    std::uint64_t running = 0;  ///< a run that went on past a tick counts once
    std::uint64_t skipped = 0;
    bool ticked() const noexcept { return success + failure + running + skipped != 0; }
};

/// Counts, for every node of one tree, what its ticks returned, over every agent of that tree
/// it is attached to (agent::set_observer); each agent may tick on its own thread. It keeps,
/// for each agent it has seen, one status per node: the status BehaviorTree.CPP would hold.
///
/// The counts are of observed()'s nodes only. An agent that runs another tree (it followed a
/// tree_handle's reload, or was moved) is heard but not counted: its ticks add to
/// other_tree_ticks(), and its statuses start afresh if it comes back to observed(). To count
/// a reloaded tree, attach a recorder made for it (docs/hot_reload.md).
class coverage_recorder final : public observer {
public:
    explicit coverage_recorder(std::shared_ptr<const tree> observed);
    ~coverage_recorder() override;

    void on_visit(const agent& a, tree::index node) override;
    void on_tick(const agent& a, tree::index node, status before, status result) override;
    void on_halt(const agent& a, tree::index node) override;

    const tree& observed() const noexcept { return *tree_; }
    /// The counts of node `i` of observed() so far.
    /// @warning throws canopy::error (invalid_argument) for a node past observed()'s end, such
    /// as a node of a reloaded tree that has more.
    node_coverage of(tree::index i) const;
    /// The ticks of agents that ran another tree than observed(), which of() leaves out: one
    /// per agent tick that reached its root's result. Not 0 once the agents observed have
    /// moved to a reloaded tree.
    std::uint64_t other_tree_ticks() const noexcept;
    /// Adds another recorder's counts to these, node by node, and its other_tree_ticks(): the
    /// same file loaded again (by another test), whose tree has as many nodes with the same ids.
    /// @warning throws canopy::error (invalid_argument) for a tree of another shape.
    void add(const coverage_recorder& other);

private:
    struct counters {
        std::atomic<std::uint64_t> success{0};
        std::atomic<std::uint64_t> failure{0};
        std::atomic<std::uint64_t> running{0};
        std::atomic<std::uint64_t> skipped{0};
    };
    // Each agent's nodes' statuses as BehaviorTree.CPP would hold them, to count changes.
    std::vector<status>& statuses_of(const agent& a);
    // An agent heard on another tree: the statuses it had here no longer describe it.
    void forget_statuses(const agent& a);
    bool runs_observed(const agent& a) const noexcept;
    std::uint64_t serial_;
    std::shared_ptr<const tree> tree_;
    std::unique_ptr<counters[]> counts_;
    std::vector<bool> reactive_;  // per node: a ReactiveSequence or ReactiveSelector
    // Per node: a BehaviorTree.CPP file's IfThenElse of two children, which does not reset a
    // condition that failed.
    std::vector<bool> keeps_failed_condition_;
    std::atomic<std::uint64_t> other_tree_ticks_{0};
    std::mutex agents_mutex_;
    // Empty for an agent whose statuses are to start afresh. Never erased: a thread's cache
    // may point at an entry.
    std::unordered_map<const agent*, std::vector<status>> agents_;
};

/// The share of outcomes seen: a node's success and its failure are two outcomes each (its
/// running and skipped are counted but not asked for: many nodes can give neither).
struct coverage_summary {
    std::size_t outcomes = 0;  ///< two per node
    std::size_t seen = 0;      ///< of those, the ones some tick returned
    double percent() const noexcept {
        return outcomes == 0 ? 100.0
                             : 100.0 * static_cast<double>(seen) / static_cast<double>(outcomes);
    }
    std::vector<tree::index> never_ticked;
    std::vector<tree::index> never_succeeded;  ///< ticked, but never returned success
    std::vector<tree::index> never_failed;     ///< ticked, but never returned failure
};
coverage_summary summarize(const coverage_recorder& coverage);

/// The counts as JSON: `{"tree": NAME, "outcomes": N, "seen": S, "percent": P, "nodes": [{"id",
/// "name", "type", "success", "failure", "running", "skipped"}, ...]}`, nodes in preorder; `id`
/// is the file's record id, `name` the node's describe text (BehaviorTree.CPP's `name`), or "".
std::string coverage_json(const coverage_recorder& coverage);

/// A few lines for a person: the share seen, then the nodes never ticked and the outcomes
/// never seen, each as `#ID Type "name"`.
void print_coverage_summary(std::ostream& out, const coverage_recorder& coverage);

}  // namespace canopy
