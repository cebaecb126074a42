#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace canopy {

class agent;

/// Where a live_view listens, and how much it may cost the program.
struct live_options {
    /// The HTTP port; 0 picks a free one (live_view::port() says which).
    unsigned port = 1669;
    /// The interface to bind: loopback by default. Anything else lets whoever reaches the port
    /// read the tree and the blackboard (docs/monitoring.md, "Security").
    std::string address = "127.0.0.1";
    /// The page's title; the tree's name when empty.
    std::string title;
    /// How many of the watched agent's last ticks the page can scroll back through.
    std::size_t trace_ticks = 100;
    /// The share of the ticking thread's time the population count may take: a count runs
    /// only once the time since the previous one is at least its duration / budget. Counting
    /// a million agents takes about a tenth of their tick: they are counted every few ticks.
    double population_budget = 0.02;
    /// A page silent this long counts as closed: update() goes back to doing nothing.
    std::chrono::milliseconds page_timeout{3000};
    /// How long a request that needs the ticking thread (the agents at a node) waits for
    /// update() before it is answered with 503.
    std::chrono::milliseconds request_wait{1000};
};

/// A live view of a running program in the browser: the viewer page of `canopy html`, in a
/// live mode, served over HTTP from 127.0.0.1. It shows the watched agent's statuses as it
/// ticks, its blackboard and its last ticks' status changes, and a population view: each
/// node coloured by how many agents' status bytes say running, success, failure, skipped or
/// idle there. See docs/monitoring.md.
///
/// The server answers on threads of its own and never touches an agent: update(), called by
/// the ticking thread between ticks, reads the agents and hands the server copies. While no
/// page is open, update() is one atomic load; an open page gets what the last update() saw,
/// at the pace it asks (the page polls ten times a second), so a fast program is sampled,
/// never slowed to the browser's pace.
///
/// @warning watch(), watch_population(), update() and the destructor must run on the thread
/// that ticks the agents, between ticks; the agents must outlive the watch (watch(nullptr)
/// and watch_population(nullptr, 0) end it).
class live_view {
public:
    /// Binds the port and starts answering.
    /// @warning throws canopy::error if the port cannot be bound (in use, say).
    explicit live_view(live_options options = {});
    live_view(const live_view&) = delete;
    live_view& operator=(const live_view&) = delete;
    ~live_view();

    /// The agent the page shows, or none; may change at any time. When it moves to another
    /// tree (a tree_handle's reload), the view starts over on the new tree at the next
    /// update(): the page loads it, and the last ticks and the population counts of the old
    /// tree are dropped, since their node indexes name the old tree's nodes.
    void watch(agent* a);
    /// The agents the population view counts and the page may pick one of to watch
    /// (`count` agents from `first`), or none. Only agents on the watched agent's tree are
    /// counted (the others are reported as such, `other_tree`): after a reload, the agents
    /// not yet moved to it.
    void watch_population(agent* first, std::size_t count);
    /// Call between ticks on the ticking thread, e.g. once per frame: `tick` is the number
    /// of the tick just finished, which the page shows. While a page is open, copies the
    /// watched agent's statuses and blackboard, answers the page's requests, and counts the
    /// population when the page has asked and the budget allows.
    void update(std::uint64_t tick);

    /// The port listened on.
    unsigned port() const noexcept;
    /// The page's address: "http://ADDRESS:PORT/".
    std::string url() const;
    /// Whether a page has asked something within the page timeout.
    bool page_open() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

}  // namespace canopy
