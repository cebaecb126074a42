#pragma once

#include <cstddef>
#include <initializer_list>
#include <vector>

#include "canopy/run/observer.hpp"

namespace canopy {

/// Several observers as one: every event goes to each, in the order they were added, as
/// BehaviorTree.CPP gives a tree any number of loggers. An agent keeps one of its own when it
/// is given a second observer (agent::add_observer), so a trace, a coverage and a monitor can
/// watch the same agent; a program makes its own to share one observer between agents and
/// pass one agent's events to another as well. Observers are not owned.
///
/// Changing the list while it passes an event on (an observer removing itself in on_tick) is
/// not supported: change it between ticks.
class observer_list final : public observer {
public:
    observer_list() = default;
    /// The observers given, in order; nulls are skipped.
    observer_list(std::initializer_list<observer*> observers);

    /// Adds an observer at the end; a null one, or one already in the list, is not added.
    void add(observer* o);
    /// Removes an observer; returns whether it was in the list.
    bool remove(const observer* o) noexcept;
    void clear() noexcept { observers_.clear(); }
    bool empty() const noexcept { return observers_.empty(); }
    std::size_t size() const noexcept { return observers_.size(); }
    bool contains(const observer* o) const noexcept;
    /// The observers, in the order events reach them.
    const std::vector<observer*>& observers() const noexcept { return observers_; }

    void on_visit(const agent& a, tree::index node) override;
    void on_tick(const agent& a, tree::index node, status before, status result) override;
    void on_halt(const agent& a, tree::index node) override;
    void on_error(const agent& a, const node_error& error) override;

private:
    std::vector<observer*> observers_;
};

}  // namespace canopy
