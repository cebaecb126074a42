#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "canopy/run/agent.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/event.hpp"

namespace canopy {

class parallel_ticker;

/// Agents of one or many trees ticked together, frame by frame, where an agent that is waiting
/// costs nothing until it must be ticked again: after each tick, an agent whose running nodes
/// all say their ticks would change nothing until some time (a Wait, an action returning
/// context::running_until; composites that only wait on their running child,
/// node_type::waits_on_children) sleeps until its clock reaches that time. tick(dt) ticks only
/// the awake agents and those whose time has come; a sleeper's skipped ticks advance its clock
/// and tick count all the same, when it wakes or is looked at. So every agent goes through the
/// same statuses, keys, enters and exits at every frame as an agent ticked every frame with the
/// same time steps (docs/games.md, "Agents that sleep").
///
/// A running node that says nothing of its next tick keeps its agent awake, as do reactive
/// composites (they check their conditions on every tick), nodes with a `_while` condition, an
/// observer, and a followed tree_handle. Nothing outside the tree can reach a sleeper unseen:
/// the program changes an agent through wake() (or blackboard(), post_event(), reset()), which
/// wakes it, so that it is ticked at the next frame. An action that reads the game (its host)
/// and promised to change nothing until some time is woken by the game with wake() when what
/// it reads changes.
///
/// Agents are numbered from 0 in the order added; remove() moves the last one into the hole.
class world {
public:
    using index = std::size_t;

    world();
    /// A world whose tick() ticks the awake agents on `ticker`'s threads (not owned; it must
    /// outlive the world's ticks).
    explicit world(parallel_ticker& ticker);
    world(world&& other) noexcept;
    world& operator=(world&& other) noexcept;
    world(const world&) = delete;
    world& operator=(const world&) = delete;
    ~world();

    /// Adds an agent, awake (it is ticked at the next frame); returns its index.
    index add(agent a);
    /// Takes agent `i` out, its clock brought up to date, and returns it; the last agent takes
    /// index `i`.
    /// @warning throws canopy::error for an index out of range.
    agent remove(index i);
    std::size_t size() const noexcept { return agents_.size(); }

    /// Ticks every agent one frame of `dt` seconds: the awake ones and the sleepers whose time
    /// has come are ticked (in no particular order, and on the ticker's threads if the world
    /// has one); each then sleeps if it may. An exception out of an agent's tick
    /// (error_policy::rethrow) leaves that agent awake and does not stop the others: the first
    /// is rethrown once every agent has had its frame.
    /// @warning throws canopy::error, before anything changes, for a dt that agent::tick
    /// refuses (negative, not finite, over a year).
    void tick(double dt);
    /// The agents ticked by the last tick(), in the order ticked (on one thread): those whose
    /// statuses, keys or calls may have changed in it.
    const std::vector<std::uint32_t>& ticked() const noexcept { return ticked_; }
    /// How many agents are awake: those the next tick() ticks, besides sleepers that wake.
    std::size_t awake_count() const noexcept { return awake_.size(); }

    /// Whether agent `i` sleeps.
    bool asleep(index i) const noexcept;
    /// While agent `i` sleeps: the time on its clock (agent::time_ns) from which it is ticked
    /// again, context::never for an agent asleep until the program wakes it. Nothing when it
    /// is awake.
    std::optional<std::int64_t> asleep_until_ns(index i) const noexcept;

    /// Agent `i`, to look at: a sleeper stays asleep, its clock and tick count first brought up
    /// to date. Do not change it through this reference (const_cast): use wake().
    const agent& at(index i);
    /// Agent `i`, woken (a sleeper's clock brought up to date): it is ticked at the next frame,
    /// and may be changed in any way until then (keys, events, reset, host, observer).
    agent& wake(index i);
    /// wake(i).blackboard(): the program writes a key of agent `i`.
    canopy::blackboard blackboard(index i) { return wake(i).blackboard(); }
    /// Agent `i`'s blackboard, to read: a sleeper stays asleep. A write through it would not
    /// wake the agent, which would then miss it: write through blackboard(i).
    canopy::blackboard read_blackboard(index i);
    /// Posts an event to agent `i` (agent::post_event), which wakes it.
    void post_event(index i, std::string_view event, const event_values& values = {});
    /// Posts an event to every agent, which wakes them all; one agent's refusal does not keep
    /// it from the others, and the first is rethrown at the end.
    void post_event(std::string_view event, const event_values& values = {});
    /// wake(i).reset().
    void reset(index i) { wake(i).reset(); }

private:
    // What the world keeps of each agent beside it.
    struct place {
        static constexpr std::uint32_t asleep = 0xFFFFFFFF;
        std::uint32_t awake_at = 0;  // its index in awake_, or `asleep`
        // Asleep: the world's clock and frame when its own clock was last brought up to date,
        // and the time on its own clock it sleeps until.
        std::int64_t since_ns = 0;
        std::uint64_t since_frame = 0;
        std::int64_t until_ns = 0;
    };
    void check_index(index i, const char* caller) const;
    // Brings a sleeper's clock and tick count up to the world's `now_ns` and `frame`.
    void catch_up(index i, std::int64_t now_ns, std::uint64_t frame) noexcept;
    void wake_up(index i);  // takes a sleeper out of the queue, awake
    // Ticks awake_[first, last) as share `share`, each one's verdict in verdicts_.
    void tick_awake(std::size_t first, std::size_t last, std::size_t share) noexcept;
    void fall_asleep(index i, std::int64_t until);

    std::vector<agent> agents_;
    std::vector<place> places_;
    std::vector<std::uint32_t> awake_;
    std::vector<std::int64_t> verdicts_;  // per awake_ entry: until when it may sleep
    std::vector<std::uint32_t> ticked_;
    std::vector<std::uint32_t> due_;
    // The sleepers' queue, and each thread's report and first failure (src/run/world.cpp).
    struct internals;
    std::unique_ptr<internals> more_;
    parallel_ticker* ticker_ = nullptr;
    std::int64_t now_ns_ = 0;   // the world's clock: the sum of its ticks' steps
    std::uint64_t frame_ = 0;   // its ticks
    std::int64_t step_ns_ = 0;  // the step of the tick under way
};

}  // namespace canopy
