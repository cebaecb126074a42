#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/core/status.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

/// One event of a recorded tick, as an observer saw it.
struct trace_event {
    enum class kind : std::uint8_t {
        visit,   ///< the node is about to be ticked
        result,  ///< the node's tick returned `result`; `before` was idle or running
        halt,    ///< the node was halted
        error,   ///< the node threw, cutting the tick short (traced_tick::error says what)
    };
    kind what = kind::visit;
    status before = status::idle;
    status result = status::idle;
    tree::index node = 0;

    friend bool operator==(const trace_event& a, const trace_event& b) {
        return a.what == b.what && a.before == b.before && a.result == b.result && a.node == b.node;
    }
};

/// One blackboard key's value, as text (blackboard::text).
struct blackboard_entry {
    std::string key;
    std::string value;

    friend bool operator==(const blackboard_entry& a, const blackboard_entry& b) {
        return a.key == b.key && a.value == b.value;
    }
};

/// One recorded tick: its events in the order they happened.
struct traced_tick {
    std::uint64_t number = 0;  ///< 1 for the first tick the recorder saw
    std::int64_t time_ns = 0;  ///< the agent's clock during the tick (agent::time_ns)
    std::vector<trace_event> events;
    /// The message of the node's error that cut the tick short (node_error::message), or
    /// empty; an event of kind error names the node.
    std::string error;
    /// The blackboard as the tick left it (or as it was when an error cut the tick short):
    /// every key holding a value, in slot order. Empty when the recorder was told not to keep
    /// it, or in a trace file of version 2 or older.
    std::vector<blackboard_entry> blackboard;
};

/// A recording of one agent's last ticks, and which tree it was recorded on.
struct recorded_trace {
    std::size_t tree_size = 0;        ///< the tree's node count
    std::uint64_t tree_checksum = 0;  ///< tree_checksum() of the tree
    std::string tree_name;            ///< the tree's name(), informative only
    std::vector<traced_tick> ticks;   ///< oldest first
};

/// A trace file that cannot be read, or that was recorded on another tree. what() is
/// `path:line: error: message`; line is 1-based, 0 when the whole file is at fault.
class trace_error : public error {
public:
    trace_error(const std::string& path, std::size_t line, const std::string& message);
    std::size_t line() const noexcept { return line_; }

private:
    std::size_t line_;
};

/// Names a tree's structure: the 64-bit FNV-1a hash of its print (canopy::to_text), so two
/// trees that print the same have the same checksum.
std::uint64_t tree_checksum(const tree& t);

/// Records one agent's ticks as an observer (agent::set_observer, add_observer) and keeps the
/// last `max_ticks` of them, oldest dropped first, each with the blackboard as the tick left
/// it. A tick opens at the first event after the previous tick's root result, or at the
/// root's visit in a tick after one that an error cut short, so halts between ticks
/// (agent::reset, agent::move_to) start the next tick's record. Once each kept tick has seen
/// as many events as it will, recording allocates nothing but what the blackboard's texts
/// need beyond the storage of the tick it reuses (numbers and short strings need none).
///
/// If the agent moves to another tree (a tree_handle's reload, agent::move_to), the recording
/// starts over on it at the agent's first event there: the ticks of the old tree are dropped,
/// halts of its nodes included, recording() and write() describe the new tree, and the tick
/// that moved keeps its number. So a recording always fits the tree it names (check_trace_fits).
/// The recorder lets go of the old tree then: a reference recorded_tree() gave before is valid
/// only while something else holds that tree. It follows one agent: attached to agents on
/// different trees, it would start over at each switch between them.
class trace_recorder final : public observer {
public:
    /// @param t the tree the agent runs
    /// @param max_ticks how many ticks to keep, at least 1
    /// @param with_blackboard whether each tick keeps the blackboard (traced_tick::blackboard)
    trace_recorder(std::shared_ptr<const tree> t, std::size_t max_ticks,
                   bool with_blackboard = true);

    void on_visit(const agent& a, tree::index node) override;
    void on_tick(const agent& a, tree::index node, status before, status result) override;
    void on_halt(const agent& a, tree::index node) override;
    void on_error(const agent& a, const node_error& error) override;

    /// The ticks kept, oldest first, and the tree's identity.
    recorded_trace recording() const;
    /// Writes recording() in the trace format (docs/viewer.md).
    void write(std::ostream& out) const;
    /// Forgets every tick kept (numbering goes on).
    void clear() noexcept;

    /// The tree the ticks kept were recorded on: the agent's current tree once it has an
    /// event there.
    const tree& recorded_tree() const noexcept { return *tree_; }
    std::size_t max_ticks() const noexcept { return slots_.size(); }

private:
    void record(const agent& a, const trace_event& e);
    void keep_blackboard(const agent& a);

    std::shared_ptr<const tree> tree_;
    std::vector<traced_tick> slots_;  // a ring of max_ticks ticks
    std::size_t newest_ = 0;          // the slot of the newest tick
    std::size_t kept_ = 0;            // how many slots hold a tick
    std::uint64_t ticks_seen_ = 0;
    std::uint64_t open_agent_tick_ = 0;  // agent::ticks() when the open tick's record opened
    bool tick_open_ = false;
    bool with_blackboard_ = true;
};

/// Writes a recording in the trace format, version 3 (docs/viewer.md); read_trace also reads
/// version 2, which has no blackboard and no error lines, and version 1, which has no
/// "skipped" status either.
void write_trace(const recorded_trace& trace, std::ostream& out);
/// Reads a trace file; `path` names it in errors. Throws trace_error, located at the line at
/// fault, for anything that is not the trace format.
recorded_trace read_trace(std::istream& in, const std::string& path);
/// Throws trace_error, located at the trace's `tree` line, unless the trace was recorded on a
/// tree that prints as `t` does and names only its nodes.
void check_trace_fits(const recorded_trace& trace, const tree& t, const std::string& path);

}  // namespace canopy
