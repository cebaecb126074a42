#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string_view>

#include "canopy/core/error.hpp"
#include "canopy/core/param.hpp"
#include "canopy/core/status.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/host.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/tree.hpp"

// CANOPY_UNLIKELY marks the engine's rare branches, so that the common step stays
// straight-line code; CANOPY_ALWAYS_INLINE keeps that step in each composite's loop over its
// children, where GCC's own choice leaves it out of line once enough composites call it.
#if defined(__GNUC__) || defined(__clang__)
#define CANOPY_UNLIKELY(condition) __builtin_expect(static_cast<bool>(condition), 0)
#define CANOPY_ALWAYS_INLINE [[gnu::always_inline]]
#else
#define CANOPY_UNLIKELY(condition) (condition)
#define CANOPY_ALWAYS_INLINE
#endif

namespace canopy {

class agent;
class observer;

namespace detail {

class sleep_report;  // src/run/sleep_report.hpp: what a tick's nodes said of their next ticks

/// The status byte a result leaves: the result itself, skipped included, so that the byte
/// tells a node that was skipped from one that was not ticked (docs/nodes.md, "Skipped").
/// Like idle, a skipped node is not running: its next tick enters it afresh. An error leaves
/// failure: it is a failure to everything but the parent that received it.
constexpr std::uint8_t status_code(status result) noexcept {
    return static_cast<std::uint8_t>(result == status::error ? status::failure : result);
}

/// What the tick engine changes of an agent: the agent holds one and lends it to each
/// context it makes, so that neither needs to see the other's private members.
struct agent_core {
    std::byte* block = nullptr;  ///< status bytes, node states, blackboard
    host_ref host;
    observer* watcher = nullptr;
    std::int64_t time_ns = 0;
    std::uint64_t random = 0;
    std::uint64_t ticks = 0;  ///< agent::tick calls since the agent was made or reset
};

}  // namespace detail

/// What a node sees while an agent ticks it: the agent's host, time step, blackboard and
/// state, its own parameters, and its children. Made by the agent for each tick, never by
/// programs.
class context {
public:
    /// The agent's view for one tick of `dt_ns`; only agent makes contexts. `sleep` gathers
    /// what the nodes say of their next ticks (unchanged_until), for a world's agents; null
    /// for any other tick.
    context(agent& a, detail::agent_core& core, const canopy::tree& t, std::int64_t dt_ns,
            detail::sleep_report* sleep = nullptr) noexcept
        : agent_(&a),
          core_(&core),
          tree_(&t),
          layout_(&t.layout()),
          nodes_(t.layout().objects.data()),
          hooks_(t.layout().hooks.data()),
          inline_conditions_(t.layout().inline_conditions.data()),
          block_(core.block),
          observer_(core.watcher),
          out_of_line_(core.watcher != nullptr || t.layout().abandons),
          dt_ns_(dt_ns),
          sleep_(sleep),
          left_running_(t.layout().left_running_flag != 0 &&
                        core.block[t.layout().left_running_flag] != std::byte{0}) {}

    /// The node being ticked.
    canopy::tree::index node() const noexcept { return node_; }
    const canopy::tree& tree() const noexcept { return *tree_; }
    /// The node's parameters, checked at load.
    param_list params() const { return tree_->params(node_); }

    /// The time step of this tick, in seconds (what agent::tick was given).
    double dt() const noexcept { return static_cast<double>(dt_ns_) * 1e-9; }
    /// The time step in whole nanoseconds, the unit the agent's clock counts in.
    std::int64_t dt_ns() const noexcept { return dt_ns_; }
    /// The sum of all time steps the agent has ticked, in seconds.
    double time() const noexcept { return static_cast<double>(time_ns()) * 1e-9; }
    /// The same in whole nanoseconds: exact however long the agent lives (292 years), so
    /// nodes compare elapsed time in it.
    std::int64_t time_ns() const noexcept { return core_->time_ns; }
    /// The host object the agent was made for (the game object or robot it drives), as the
    /// type it was given as. An action registered as `status(Host&, context&)` receives it
    /// without asking.
    /// @warning throws host_error when the agent has no host, or one of another type.
    template <typename Host>
    Host& host() const {
        Host* found = core_->host.get<Host>();
        if (found == nullptr) throw_host_mismatch(detail::host_type_of<Host>());
        return *found;
    }
    /// The host as a Host, or null when the agent has none: for nodes that do without.
    /// @warning throws host_error when the agent's host is of another type.
    template <typename Host>
    Host* host_or_null() const {
        if (!core_->host) return nullptr;
        return &host<Host>();
    }
    /// The same without the comparison, where the agent compared the type when it was given
    /// the host (registry actions taking `Host&`).
    template <typename Host>
    Host& host(detail::unchecked_t /*checked before*/) const noexcept {
        return core_->host.get<Host>(detail::unchecked);
    }
    canopy::blackboard blackboard() const noexcept {
        return {block_ + layout_->blackboard_offset, &layout_->board};
    }
    /// Throws canopy::error (code `blackboard`), naming this node, when key `slot` holds no
    /// value because nothing wrote it yet (blackboard_key::starts_unset, a BehaviorTree.CPP
    /// tree's key), as BehaviorTree.CPP's getInput fails on a missing entry. A port's read
    /// (canopy::input) calls it for a key that is not set.
    void require_value(std::uint32_t slot) const;
    /// The next number from the agent's own generator (seeded when the agent was made).
    std::uint64_t random() const noexcept;

    // ---- for agents that sleep until they must be ticked again (canopy::world) ----

    /// The clock value that stands for "never" in unchanged_until: a node that runs until
    /// something from outside (a blackboard write, an event, a reset) changes it.
    static constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
    /// Says that this node's ticks, from the next one until the agent's clock (time_ns)
    /// reaches `time_ns`, would return running and change nothing (no state, key, host,
    /// generator draw, enter or exit), provided that its running children, if it has any, go
    /// on so too and nothing from outside the tree changes. An agent of a canopy::world whose
    /// running nodes all say so, or wait on their running children
    /// (node_type::waits_on_children), sleeps until the earliest time they gave: the world
    /// skips its ticks and advances its clock, which gives the same statuses, keys and calls
    /// at every frame as ticking it. A running node that says nothing keeps the agent awake.
    /// Call it in a tick that returns running (running_until does both); a later call of the
    /// node in the same tick replaces it. Outside a world's tick it costs one test.
    void unchanged_until(std::int64_t time_ns) noexcept {
        if (CANOPY_UNLIKELY(sleep_ != nullptr)) note_unchanged_until(time_ns);
    }
    /// unchanged_until(time_ns), then running: `return ctx.running_until(due);` from an
    /// action whose next change comes at `due` on the agent's clock.
    status running_until(std::int64_t time_ns) noexcept {
        unchanged_until(time_ns);
        return status::running;
    }
    /// The same `seconds` after this tick's time (time_ns): "come back in 2 seconds". A
    /// negative or NaN duration is 0, which lets no agent sleep.
    status running_for(double seconds) noexcept;

    /// The storage of this node's per-agent state; a node reads it typed through
    /// stateful_node::state(ctx).
    std::byte* state_storage() const noexcept { return block_ + layout_->state_offset[node_]; }

    // ---- for composites and decorators ----

    canopy::tree::child_range children() const { return tree_->children(node_); }
    /// A decorator's one child (in preorder it comes right after the decorator); for a
    /// composite, its first.
    canopy::tree::index child() const noexcept { return node_ + 1; }
    /// Ticks a child: enters it if it is idle, ticks it, exits it if it finishes.
    CANOPY_ALWAYS_INLINE status tick(canopy::tree::index child);
    /// Ticks a child that finished with `kept` (success or failure) in an earlier tick and
    /// that this node has not reset since, as BehaviorTree.CPP's IfThenElse and WhileDoElse
    /// tick their condition (docs/btcpp-xml.md, "Statuses a parent does not reset"): in a
    /// BehaviorTree.CPP file's tree no pre-condition is checked and the child is entered with
    /// kept_result() saying `kept`; any other `kept`, or another tree, is a plain tick().
    status tick_kept(canopy::tree::index child, status kept);
    /// While a node is entered by tick_kept: the result it finished with and still holds, as a
    /// BehaviorTree.CPP node that its parent did not reset (one of its StatefulActionNodes
    /// returns it again without starting). Idle in every other enter().
    status kept_result() const noexcept { return kept_; }
    /// In enter(): whether a skipped tick left this node running to BehaviorTree.CPP and its
    /// parent ticks it again before resetting it (detail::left_running_code, a
    /// BehaviorTree.CPP file's tree only). 4.10 ticks such a node as a running one, so a node
    /// that keeps something for its run (a deadline, its finished children) keeps it.
    bool left_running() const noexcept { return codes()[node_] == detail::left_running_code; }
    /// Halts a child and everything running below it; no-op if the child is idle.
    void halt(canopy::tree::index child) {
        if (is_running(child)) halt_subtree(child);
    }
    /// Halts every running child of this node.
    void halt_children() {
        for (canopy::tree::index child : children()) halt(child);
    }
    /// BehaviorTree.CPP's resetChild, for a child that is not running: halts it (its
    /// `_onHalted` runs) when a skipped tick left it running to BehaviorTree.CPP
    /// (detail::left_running_code, a BehaviorTree.CPP file's tree only), and it is then plain
    /// skipped; else does nothing. A built-in calls it where 4.10's node of the name resets
    /// or halts a child.
    void reset(canopy::tree::index child) {
        if (CANOPY_UNLIKELY(codes()[child] == detail::left_running_code)) reset_left_running(child);
    }
    /// reset() of every child, as BehaviorTree.CPP's resetChildren: one test in a tree where
    /// no tick has left a node so.
    void reset_children() {
        if (CANOPY_UNLIKELY(left_running_)) reset_left_running_children();
    }
    /// Whether the child is running (entered and not yet finished).
    bool is_running(canopy::tree::index child) const noexcept {
        return codes()[child] == static_cast<std::uint8_t>(status::running);
    }
    /// The status the child's last tick returned (idle if not ticked since it was cleared).
    status last_status(canopy::tree::index child) const noexcept {
        return static_cast<status>(detail::status_of_code(codes()[child]));
    }
    /// Forgets a finished child's last status (it becomes idle); a running child is halted.
    /// In a behavior3 tree, a node that a Timeout, Race or Watchdog abandoned while it ran
    /// (abandon()) is left as it is, with everything below it, as behavior3-ts keeps its saved
    /// state (docs/behavior3.md, "Abandoned nodes keep their state"); halt() does the same.
    void clear(canopy::tree::index child) { halt_subtree(child); }
    /// clear() of every node below `node`, abandoned ones too: an agent's reset or
    /// interruption, after which behavior3-ts has no saved state left either.
    void clear_all(canopy::tree::index node) {
        halts_abandoned_ = true;
        halt_subtree(node);
        halts_abandoned_ = false;
    }

    // ---- behavior3 trees: abandoned nodes (docs/behavior3.md, "Abandoned nodes keep their
    // state") ----

    /// In a behavior3 tree, marks a running child as abandoned (detail::abandoned_code), as
    /// behavior3-ts's Timeout, Race and Watchdog drop a running child's saved stack without
    /// popping it: it keeps its state, halts and clears leave it, and its parent no longer
    /// resumes it as its running child. Its next tick resumes it as behavior3-ts ticks such
    /// a node: a node that resumes a child (a composite or decorator) then goes on as if that
    /// child had just finished with behavior3_last_status(), without ticking it, and the child
    /// is abandoned in its turn; any other node (a leaf, a Timeout, Parallel, Race or
    /// Watchdog, which keep their children's stacks apart) resumes as it would have.
    /// No-op on a child that is not running, and in any other tree.
    void abandon(canopy::tree::index child) {
        if (!layout_->interrupts_on_error) return halt(child);  // only behavior3-ts keeps it
        if (is_running(child)) codes()[child] = detail::abandoned_code;
    }
    /// Whether this node is being ticked again after it was abandoned (abandon()). Asking says
    /// that the node resumes its children itself: no child's tick is then replaced by the last
    /// status. behavior3's Timeout, Parallel and Watchdog ask it to resume their running
    /// children as behavior3-ts resumes their saved stacks; its retries and AlwaysRunning to do
    /// what behavior3-ts's do when so resumed.
    bool resumes_abandoned() noexcept {
        if (resuming_ != node_) return false;
        resuming_ = canopy::tree::no_parent;
        return true;
    }
    /// In a behavior3 tree: behavior3-ts's `Tree.__lastStatus`, the status of the node whose
    /// tick finished last in this agent ("success" before any; a reset keeps it, as
    /// behavior3-ts's `Tree.clear()` does), kept in tree_layout::behavior3_last_status.
    status behavior3_last_status() const noexcept {
        const auto code = static_cast<std::uint8_t>(block_[layout_->behavior3_last_status]);
        return code == 0 ? status::success : static_cast<status>(code);
    }
    /// Sets it, as behavior3-ts's Watchdog sets it back after ticking its condition.
    void set_behavior3_last_status(status s) noexcept {
        block_[layout_->behavior3_last_status] = static_cast<std::byte>(s);
    }
    /// Hands an event to the on_event of every running node and every node that listens while
    /// idle, in preorder (agent::post_event), with the values posted with it. A node's
    /// canopy::error does not stop the others hearing it: the first is thrown at the end.
    void deliver_event(std::string_view event, const event_values& values);
    /// The target and arguments of the event a node is hearing (node::on_event): what the
    /// program posted with it, or a null target and no arguments.
    const event_values& event() const noexcept;
    /// Hands one of the agent's own events (agent_event) to every node that listens while
    /// idle, in preorder.
    void deliver_agent_event(std::string_view event);
    /// The running child, or tree::no_parent if none is running.
    canopy::tree::index running_child() const noexcept {
        const std::uint32_t* subtree_end = layout_->subtree_end.data();
        const canopy::tree::index end = subtree_end[node_];
        for (canopy::tree::index c = node_ + 1; c < end; c = subtree_end[c]) {
            if (is_running(c)) return c;
        }
        return canopy::tree::no_parent;
    }

private:
    std::uint8_t* codes() const noexcept { return reinterpret_cast<std::uint8_t*>(block_); }
    bool uses(canopy::tree::index n, node::hook h) const noexcept {
        return (hooks_[n] & static_cast<std::uint8_t>(h)) != 0;
    }
    /// Whether a finished result takes finish_unsettled(): idle, skipped or error, the
    /// values outside success (1) .. running (3), told apart in one unsigned compare on
    /// every visit.
    static bool unsettled(status result) noexcept {
        static_assert(
            static_cast<int>(status::idle) == 0 && static_cast<int>(status::success) == 1 &&
                static_cast<int>(status::running) == 3 && static_cast<int>(status::skipped) == 4 &&
                static_cast<int>(status::error) == 5,
            "the statuses in the order unsettled() reads them");
        return static_cast<std::uint8_t>(static_cast<std::uint8_t>(result) - 1) > 2;
    }
    /// A finished result as `parent` receives it: a tick must not say idle (failure), and
    /// error reaches only a parent that sees errors (failure for any other).
    status settled(status result, canopy::tree::index parent) const noexcept {
        if (result == status::error && (hooks_[parent] & detail::error_seeing_hook) != 0)
            return result;
        return status::failure;
    }
    [[noreturn]] void throw_host_mismatch(detail::host_type wanted) const;
    void halt_subtree(canopy::tree::index node);
    void reset_left_running(canopy::tree::index node);
    void reset_left_running_children();
    bool halt_reaches(canopy::tree::index top, canopy::tree::index k) const;
    bool abandoned(canopy::tree::index top, canopy::tree::index k) const;
    template <bool observed>
    CANOPY_ALWAYS_INLINE status step(canopy::tree::index child);
    status tick_out_of_line(canopy::tree::index child);
    status step_behavior3(canopy::tree::index child);
    status step_with_conditions(canopy::tree::index child, status kept = status::idle);
    status finish_unsettled(canopy::tree::index child, status result, canopy::tree::index outer,
                            bool was_running);
    std::uint8_t skipped_code(canopy::tree::index node);
    error condition_failure(canopy::tree::index node, std::size_t condition,
                            const error& failure) const;
    void notify_visit(canopy::tree::index node);
    void notify_tick(canopy::tree::index node, bool was_running, status result);
    void note_unchanged_until(std::int64_t time_ns) noexcept;

    agent* agent_;
    detail::agent_core* core_;
    const canopy::tree* tree_;
    const detail::tree_layout* layout_;
    const canopy::node* const* nodes_;
    const std::uint8_t* hooks_;
    const detail::inline_condition* inline_conditions_;
    std::byte* block_;
    observer* observer_;
    // Every step out of line (tick_out_of_line): with an observer, or in a behavior3 file's
    // tree, so that Canopy's own trees pay one test per visit for both.
    bool out_of_line_;
    std::int64_t dt_ns_;
    detail::sleep_report* sleep_;  // null but in a world's tick (unchanged_until)
    canopy::tree::index node_ = 0;
    const event_values* event_ = nullptr;  // while delivering a posted event
    status kept_ = status::idle;           // while tick_kept enters a node
    // A node may be at left_running_code: the agent's flag byte (tree_layout::
    // left_running_flag), read once a tick so that a reset tests one bool.
    bool left_running_;
    bool halts_abandoned_ = false;  // while clear_all() runs
    // The abandoned node being ticked again whose first tick of a running child is replaced
    // by the last status (step_behavior3), until it asks resumes_abandoned().
    canopy::tree::index resuming_ = canopy::tree::no_parent;
};

// The engine's inner step, inline so that each composite's loop over its children compiles
// into the walk itself: enter only a node that was not running, exit only one that finished,
// and call neither hook for a node whose class does not override it. An agent with an
// observer takes the same step out of line, with the notifications, and so does a behavior3
// file's tree, with what behavior3-ts's stack adds, so that a visit of any other pays a single
// untaken branch for both.
inline status context::tick(canopy::tree::index child) {
    if (out_of_line_) return tick_out_of_line(child);
    return step<false>(child);
}

// Inlined always (CANOPY_ALWAYS_INLINE): out of line, it costs a call more per visit.
template <bool observed>
inline status context::step(canopy::tree::index child) {
    // A node with pre- or post-conditions takes the step out of line, unless its one
    // condition is a key compared with a constant, tested here; the test reads the byte that
    // the enter and exit tests below read anyway.
    const std::uint8_t hooks = hooks_[child];
    std::uint8_t& code = codes()[child];
    if (CANOPY_UNLIKELY((hooks & detail::conditions_hook) != 0)) {
        if ((hooks & detail::inline_condition_hook) == 0) return step_with_conditions(child);
        const detail::inline_condition& condition = inline_conditions_[child];
        // A pre-condition is checked only on a node that is not running (a node a skip may
        // leave running to BehaviorTree.CPP has none inline).
        if (code != static_cast<std::uint8_t>(status::running)) {
            if (condition.holds(block_)) {
                if constexpr (observed) notify_visit(child);
                code = detail::status_code(condition.result);
                if constexpr (observed) notify_tick(child, false, condition.result);
                return condition.result;
            }
        }
    }
    const canopy::node& behaviour = *nodes_[child];
    const canopy::tree::index outer = node_;
    node_ = child;
    if constexpr (observed) notify_visit(child);
    const bool was_running = code == static_cast<std::uint8_t>(status::running);
    if (!was_running) {
        if ((hooks & static_cast<std::uint8_t>(node::hook::enter)) != 0) behaviour.enter(*this);
        // Entered, so running until it finishes: if its tick throws, a reset still halts it.
        code = static_cast<std::uint8_t>(status::running);
    }
    status result = behaviour.tick(*this);
    if (result != status::running) {
        // Unobserved, was_running is not needed after the tick: not kept across it.
        if (CANOPY_UNLIKELY(unsettled(result)))
            return finish_unsettled(child, result, outer, observed && was_running);
        if ((hooks & static_cast<std::uint8_t>(node::hook::exit)) != 0)
            behaviour.exit(*this, result);
    }
    code = static_cast<std::uint8_t>(result);
    if constexpr (observed) notify_tick(child, was_running, result);
    node_ = outer;
    return result;
}

}  // namespace canopy
