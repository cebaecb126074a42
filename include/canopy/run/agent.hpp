#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "canopy/core/status.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/host.hpp"
#include "canopy/run/node_error.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/observer_list.hpp"
#include "canopy/run/snapshot.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/run/tree_handle.hpp"

namespace canopy {

namespace detail {
struct snapshot_access;  // src/run/snapshot.cpp: saves and restores an agent's state block
struct sleep_access;     // src/run/sleep_access.hpp: a world's ticks, and the ticks it skips
class sleep_report;
}  // namespace detail

/// One runner of a shared tree (the structure/runtime split of the articles Canopy grew from): the
/// tree, immutable and shared by any number of agents, plus one block of this agent's own state: a
/// status byte per node, each node's state (stateful_node), and the blackboard. Making an agent is
/// one allocation; ticking the built-in nodes allocates nothing and reads no clock.
///
/// An agent may be ticked from any thread, but from one at a time; different agents of one
/// tree may be ticked from different threads at once.
class agent {
public:
    /// @param host what nodes reach through context::host: a pointer to the host's own type,
    /// e.g. `&robot` (not owned)
    /// @param seed seeds the agent's generator (context::random)
    /// @warning throws canopy::error if a node of the tree has no behaviour (a type added
    /// with add_leaf, which loads and prints but cannot tick), and host_error, naming the
    /// C++ type expected, if the tree has nodes taking a host of another type than `host`
    /// (actions taking `Host&`, classes declaring `using host_type = Host;`; see
    /// registry::add_action and registry::add), whether or not a tick would reach them.
    explicit agent(std::shared_ptr<const canopy::tree> tree, host_ref host = {},
                   std::uint64_t seed = 0);
    /// An agent that follows a handle: at the start of each tick it checks, with one atomic
    /// load, whether the handle has a new tree, and if so moves to it (see move_to).
    /// @warning throws canopy::error for an empty handle, and as the other constructor.
    explicit agent(const tree_handle& handle, host_ref host = {}, std::uint64_t seed = 0);
    agent(agent&& other) noexcept;
    agent& operator=(agent&& other) noexcept;
    agent(const agent&) = delete;
    agent& operator=(const agent&) = delete;
    /// Frees the state without halting running nodes: call reset() first if they must know.
    ~agent();

    /// Ticks the root once, `dt` seconds after the previous tick, and returns its status.
    /// The agent's clock counts whole nanoseconds, so dt is rounded to the nearest one. A
    /// program without time passes 0: then Wait, Timeout, Cooldown and the other timed nodes
    /// never end, which is why there is no default. An exception from a node (derived from
    /// std::exception) ends the tick where it was thrown: the agent keeps it (last_error),
    /// tells its observers (observer::on_error), then does what its error_policy says: passes
    /// it on (rethrow; reset() then halts every node it left entered), or halts the running
    /// nodes and returns failure (fail) or idle (halt). In a tree with nodes that listen while
    /// idle (node_type::listens_while_idle), they hear agent_event::tick first, then the run's
    /// moments around the root's tick (agent_event).
    /// @warning throws canopy::error for a dt that is negative, not finite, or over a year.
    status tick(double dt);
    /// What the agent does when a node throws as it ticks. Until set, its tree's default:
    /// halt in a behavior3 file's tree (as behavior3-ts's tree interrupts itself), rethrow in
    /// any other. Kept when the agent moves to another tree.
    void set_error_policy(canopy::error_policy policy);
    canopy::error_policy error_policy() const noexcept;
    /// The error that cut the last tick short, whatever the policy, or null when the last tick
    /// finished (or none has run since the agent was made).
    const node_error* last_error() const noexcept;
    /// last_error()'s text (`node 7 ('Attack', line 12, column 5): out of ammo`), or empty. In
    /// a behavior3 file's tree an error out of a node (an expression reading an undefined
    /// variable, a failed Assert) does not leave tick(): as behavior3-ts's tree does, the tick
    /// ends there, every running node is halted, the variables stay, and tick() returns idle
    /// with the error here (error_policy::halt).
    const std::string& interruption() const noexcept;
    /// Posts an event between ticks: every node of the tree that is running hears it
    /// (node::on_event), as behavior3's WaitForEvent does, and acts on it at the next tick; so
    /// does every node that listens while idle, which may run its child at once (behavior3's
    /// Listen). Costs a pass over the status bytes; ticking costs nothing more for it.
    /// @warning throws canopy::error for a name that starts with "canopy:" (agent_event).
    void post_event(std::string_view event);
    /// The same, with a target and arguments the nodes read as they hear it (context::event).
    /// @warning throws canopy::error, after every node has heard the event, when a node
    /// could not take its values (a Listen whose output variable cannot hold one).
    void post_event(std::string_view event, const event_values& values);
    /// Halts every running node, children before parents, and zeroes the clock. Nodes that
    /// listen while idle hear agent_event::cleared first, then interrupted if the root runs.
    /// @warning throws canopy::error (code `script`), once every node is halted, when an
    /// `_onHalted` script failed.
    void reset();
    /// Halts every running node, children before parents, and keeps the rest: node states,
    /// blackboard and clock (BehaviorTree.CPP's haltTree, where reset() also starts afresh).
    /// @warning throws canopy::error (code `script`), once every node is halted, when an
    /// `_onHalted` script failed.
    void halt();
    /// Halts every running node, then runs `tree` from scratch (a new state block).
    void replace_tree(std::shared_ptr<const canopy::tree> tree);
    /// Moves to another version of the tree, as a followed handle's agents do, keeping its
    /// place (docs/snapshots.md, "Changed trees"): each node that the new tree has unchanged,
    /// under ancestors that are, keeps its status and state, so an agent whose running branch
    /// did not change goes on where it was; each running node that does not keep its place is
    /// halted first, children before parents, and its parent goes on as after any halt of a
    /// child. The clock goes on, and every blackboard key the two trees share (same name and
    /// type) keeps its value. If `tree` cannot run (a type without behaviour), throws
    /// canopy::error (host_error if its actions take another host type) and stays on its
    /// tree, halted.
    void move_to(std::shared_ptr<const canopy::tree> tree);
    /// The agent as a snapshot (docs/snapshots.md): its tree's fingerprint and description,
    /// every node's status and state, the blackboard, the clock, the tick count and the
    /// generator, in bytes that restore() reads in this process or another.
    /// views/snapshot_json.hpp gives the same content as JSON.
    /// @warning throws canopy::error (code `snapshot`) naming a running node whose state
    /// cannot be saved (node::save_state), unless `unsaved` says restart, and for a key whose
    /// custom type cannot save its value.
    std::string save(unsaved_state unsaved = unsaved_state::refuse) const;
    /// Makes the agent what a snapshot says it was: statuses, node states, blackboard, clock,
    /// tick count, generator. Nothing is halted first: the running nodes it had are dropped
    /// as when the agent is destroyed. Keeps the tree, the host and the observer.
    /// @warning throws canopy::error (code `snapshot`), the agent untouched, for bytes that
    /// are not a snapshot, are truncated, come from a newer format, belong to another tree
    /// (with snapshot_match::changed_tree, one whose root does not match), hold a key whose
    /// type differs from the tree's, or a state its node refuses.
    void restore(std::string_view snapshot, snapshot_match match = snapshot_match::same_tree);
    /// The ticks since the agent was made or reset (a snapshot keeps them).
    std::uint64_t ticks() const noexcept { return core_.ticks; }
    /// The handle this agent follows, if any.
    tree_handle followed() const;

    const canopy::tree& tree() const noexcept { return *tree_; }
    const std::shared_ptr<const canopy::tree>& shared_tree() const noexcept { return tree_; }
    canopy::blackboard blackboard() noexcept;
    /// The host as a Host, or null when the agent has none or one of another type.
    template <typename Host>
    Host* host() const noexcept {
        return core_.host.get<Host>();
    }
    /// Gives the agent another host (or none, with nullptr).
    /// @warning throws host_error, keeping the host it had, if the tree has actions taking
    /// a host of another type.
    void set_host(host_ref host);
    /// The sum of the time steps ticked since the agent was made or reset, in seconds.
    double time() const noexcept { return static_cast<double>(core_.time_ns) * 1e-9; }
    /// The same in whole nanoseconds.
    std::int64_t time_ns() const noexcept { return core_.time_ns; }
    /// Makes `o` the agent's one observer (not owned), detaching any others; nullptr detaches
    /// them all.
    void set_observer(observer* o) noexcept;
    /// Attaches one more observer (not owned), told each event after those attached before
    /// (observer_list): a trace and a coverage may watch the same agent. Null, or one attached
    /// already, changes nothing. With one observer the engine calls it directly; with several,
    /// through the agent's own observer_list.
    void add_observer(observer* o);
    /// Detaches one observer; returns whether it was attached.
    bool remove_observer(const observer* o) noexcept;
    /// The observers attached, in the order they are told.
    std::vector<observer*> observers() const;

    /// The status a node's last tick returned, skipped included, or idle if it has not been
    /// ticked since the agent was made, reset, or the node was halted.
    status last_status(canopy::tree::index node) const noexcept;
    bool is_running(canopy::tree::index node) const noexcept;
    /// What the agent is doing: its running nodes in preorder, from the root down to each
    /// running leaf, each after its parent (several branches under a parallel node; under a
    /// node that is not running, none). Empty when the tree is not running, as after a tick
    /// whose root finished. views/trace_printer.hpp's running_path_text prints it.
    std::vector<canopy::tree::index> running_path() const;
    /// Every node's status byte in preorder, tree().size() of them, as last_status reads
    /// them (idle 0, success 1, failure 2, running 3, skipped 4, in the low three bits; in a
    /// BehaviorTree.CPP file's tree a skipped node may also carry 8, detail::left_running_code):
    /// for code that scans many agents at once, as a population count does. Valid until the agent
    /// is moved, reset or destroyed.
    const std::uint8_t* status_bytes() const noexcept { return codes(); }
    /// The size of this agent's state block in bytes.
    std::size_t state_bytes() const noexcept;
    /// The storage of a node's per-agent state (node::state), null for a node without one:
    /// for a program that fills it once the agent is made, as canopy::btcpp puts each node's
    /// object there.
    void* node_state(canopy::tree::index node) noexcept;

private:
    friend struct detail::snapshot_access;
    friend struct detail::sleep_access;
    struct extras;
    std::uint8_t* codes() const noexcept { return reinterpret_cast<std::uint8_t*>(core_.block); }
    void allocate();
    // Throws as allocate() would for `t`: a node type without behaviour, a host that does
    // not fit.
    void check_runnable(const canopy::tree& t) const;
    void renew_states();  // destroys the node states, then constructs them
    void release() noexcept;
    void follow_new_tree();
    void halt_all();
    // tick() with the step checked and rounded; `sleep`, in a world's tick only, gathers what
    // the nodes say of their next ticks (context::unchanged_until).
    status tick_ns(std::int64_t dt_ns, detail::sleep_report* sleep);
    status tick_telling_listeners(std::int64_t dt_ns);
    // What a tick does with an exception a node threw (error_policy), called in the handler:
    // keeps it, tells the observers, then rethrows or halts.
    // `names_no_node`: a port's error (param_error), which the rethrown error names the node in.
    status contain(const context& ctx, const char* message, std::optional<error_code> code,
                   bool names_no_node = false);
    status contain_thrown(const context& ctx);  // contain() for the exception being handled
    extras& more();                             // extras_, made when first needed
    // Runs `tree` from a fresh state block, with the values of the keys both trees have when
    // `keep_shared_keys`; if the block cannot be made (the tree cannot run, or the host does
    // not fit it), stays on its tree, node states constructed anew, and rethrows.
    void switch_to(std::shared_ptr<const canopy::tree> tree, bool keep_shared_keys);

    std::shared_ptr<const canopy::tree> tree_;
    detail::agent_core core_;
    // What few agents need, made when one does, which keeps the others as small as before:
    // the handle followed (null when none) and the version of the tree the agent runs; the
    // error policy the program chose; the error that cut the last tick short; the observers,
    // when there are several.
    struct extras {
        std::shared_ptr<tree_handle::shared> handle;
        std::uint64_t version = 0;
        std::optional<canopy::error_policy> policy;
        std::optional<node_error> error;
        observer_list observers;
    };
    std::unique_ptr<extras> extras_;
};

/// Posts an event to every agent of the vector (agent::post_event): behavior3's events go to
/// every tree of a context.
void post_event(std::vector<agent>& agents, std::string_view event);
void post_event(std::vector<agent>& agents, std::string_view event, const event_values& values);

}  // namespace canopy
