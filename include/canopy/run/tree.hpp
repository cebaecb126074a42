#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/arity.hpp"
#include "canopy/core/param.hpp"
#include "canopy/core/source_location.hpp"
#include "canopy/records/document.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/host.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/script.hpp"

namespace canopy {

namespace detail {

/// BehaviorTree.CPP's pre- and post-conditions of one node (`_skipIf`, `_onSuccess`, ...),
/// compiled against the tree's blackboard; null where the file gives none. The pre-conditions
/// are in the order BehaviorTree.CPP checks them.
/// A node's one pre-condition when it is `_failureIf`, `_successIf` or `_skipIf` of the form
/// key_test and the node has no other condition: the engine's inline step tests it on the
/// agent's block, where a call into the script would cost as much as the node's own visit.
struct inline_condition {
    std::uint32_t offset = 0;         ///< of the key's value in the agent's block
    bool boolean_key = false;         ///< one byte, 0 or 1; else an std::int64_t
    status result = status::skipped;  ///< the node's result when the test holds
    value_range range;
    bool holds(const std::byte* block) const noexcept {
        std::int64_t value = 0;
        if (boolean_key) {
            bool flag = false;
            std::memcpy(&flag, block + offset, sizeof flag);
            value = flag ? 1 : 0;
        } else {
            std::memcpy(&value, block + offset, sizeof value);
        }
        return range.holds(value);
    }
};

struct node_conditions {
    enum pre_kind : std::uint8_t { failure_if, success_if, skip_if, while_true, pre_count };
    enum post_kind : std::uint8_t { on_success, on_failure, on_halted, post_any, post_count };
    const script* pre[pre_count] = {};
    const script* post[post_count] = {};
};

/// The bit of tree_layout::hooks that marks a node with conditions, beside node::hook's bits,
/// so that a node without any pays nothing more per visit.
inline constexpr std::uint8_t conditions_hook = 8;
/// With conditions_hook: the node's conditions are its tree_layout::inline_conditions entry.
inline constexpr std::uint8_t inline_condition_hook = 16;
/// The bit that marks a node whose type listens while idle (node_type::listens_while_idle).
inline constexpr std::uint8_t listening_hook = 32;
/// The bit that marks a node whose type sees its children's error status
/// (node_type::sees_errors); any other parent sees failure.
inline constexpr std::uint8_t error_seeing_hook = 64;

/// The bit that marks, in a BehaviorTree.CPP file's tree, a node with children that 4.10
/// leaves running when a skipped child skips it (its type does not say
/// node_type::stays_idle_when_skipped).
inline constexpr std::uint8_t left_running_hook = 128;

/// The status byte of a node that BehaviorTree.CPP 4.10 leaves running after a skipped tick,
/// in a BehaviorTree.CPP file's tree: a control or decorator whose own tick returned skipped
/// because its children were skipped (4.10's set themselves running as their tick starts,
/// and a skip keeps the status there). Skipped to everything that reads the status (the low
/// three bits say 4), but halted, with its `_onHalted`, where its parent resets it, as 4.10's
/// resetChildren halts a running child (context::reset).
inline constexpr std::uint8_t left_running_code = 8 | 4;
/// The status byte of a running node that a Timeout, Race or Watchdog abandoned, in a behavior3
/// file's tree (docs/behavior3.md, "Abandoned nodes keep their state"): running to everything
/// that reads the status (the low three bits say 3), but not the running child its parent
/// resumes (context::is_running is false), and kept by halts and clears until the agent is
/// reset or interrupted. Its next tick resumes it as behavior3-ts ticks a node that kept its
/// saved state off its stack (context::step_behavior3).
inline constexpr std::uint8_t abandoned_code = 8 | 3;
/// The status a status byte says: left_running_code reads skipped, abandoned_code running.
constexpr std::uint8_t status_of_code(std::uint8_t code) noexcept {
    return static_cast<std::uint8_t>(code & 7);
}

/// What ticking reads of a tree, and nothing else: the engine (agent and context) sees the tree
/// through this one view, as fmt's formatters see only basic_format_args. Indexes are the
/// tree's preorder ones. The builder fills it; a tree never changes it.
struct tree_layout {
    std::vector<std::uint32_t> subtree_end;  ///< per node: one past the last of its subtree
    std::vector<const node*> objects;        ///< per node; empty when no type has a creator
    std::vector<std::uint8_t> hooks;         ///< per node: the node::hook bits its class uses
    // Each agent's state block: a status byte per node, then node states at their offsets,
    // then the blackboard's values.
    std::vector<std::uint32_t> state_offset;  ///< per node; meaningful only where it has state
    std::vector<std::uint32_t> stateful;      ///< the nodes with state, to construct it
    std::vector<std::uint32_t> owning;        ///< those whose state must be destroyed
    std::size_t blackboard_offset = 0;
    std::size_t block_size = 0;
    std::size_t block_align = 1;
    bool runnable = false;  ///< every node has an object
    blackboard::layout board;
    std::vector<host_need> hosts;  ///< distinct host types the tree's nodes need
    /// Per node: its entry in `conditions`, meaningful where hooks has conditions_hook; empty
    /// when no node has conditions.
    std::vector<std::uint32_t> condition_index;
    std::vector<node_conditions> conditions;
    /// Per node, meaningful where hooks has inline_condition_hook; empty when no node has one.
    /// Indexed by node rather than through condition_index: one load less on the step.
    std::vector<inline_condition> inline_conditions;
    /// The nodes that listen while idle (listening_hook), in preorder: those the agent tells
    /// its own events (agent_event). Empty in most trees, which then pay one test per tick.
    std::vector<std::uint32_t> listeners;
    /// Per node: 1 where its type waits on its running children (node_type::
    /// waits_on_children), which a world's agent may sleep through; read only after a world's
    /// tick, never while ticking.
    std::vector<std::uint8_t> waits_on_children;
    /// A behavior3 file's tree (runtime_rules::behavior3): an error out of a node interrupts
    /// the tick, as behavior3-ts's tree catches it, rather than leaving agent::tick.
    bool interrupts_on_error = false;
    /// A behavior3 file's tree with a node that may abandon a running child
    /// (node_type::abandons_children): each step then records behavior3-ts's last status and
    /// resumes abandoned nodes with it (context::step_behavior3), out of line.
    bool abandons = false;
    /// A BehaviorTree.CPP file's tree (runtime_rules::btcpp): a node fails its tick where
    /// BehaviorTree.CPP 4.10's throws (children_refused_at_tick, IfThenElse's skipped
    /// condition), where in Canopy's own trees it is refused at load or skipped.
    bool fails_as_btcpp = false;
    /// In a BehaviorTree.CPP file's tree, the index of one more status byte after the nodes':
    /// not 0 once a tick has left a node at left_running_code, so that the resets of trees
    /// where none was left cost one test. 0 in any other tree.
    std::uint32_t left_running_flag = 0;
    /// In a behavior3 file's tree, the index of one more byte after the nodes' status bytes:
    /// the status of the node whose tick finished last (context::behavior3_last_status), 0
    /// before any. 0 in any other tree.
    std::uint32_t behavior3_last_status = 0;

    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(subtree_end.size()); }
};

struct tree_parts;

}  // namespace detail

/// A validated behavior tree, immutable once built and safe to share between threads.
///
/// Nodes are numbered 0 to size()-1 in preorder: the root is 0, a node's children follow it
/// in file order, and a node's subtree is the index range [i, subtree_end(i)). The arrays that
/// traversal reads are kept apart from the cold ones (describe text, record ids, locations).
/// A tree copies what it needs from the registry it was built with and never points into it.
class tree {
public:
    using index = std::uint32_t;
    static constexpr index root = 0;
    static constexpr index no_parent = 0xFFFFFFFF;

    /// The type of a tree's nodes, as the tree's own copy.
    struct type_info {
        std::string name;
        std::optional<std::int64_t> id;
        canopy::arity arity;
    };

    /// The children of one node, in file order.
    class child_range {
    public:
        class iterator {
        public:
            using iterator_category = std::forward_iterator_tag;
            using value_type = index;
            using difference_type = std::ptrdiff_t;
            using pointer = const index*;
            using reference = index;

            // The subtree ends themselves, not the tree: a composite's loop keeps one pointer
            // across its children's ticks, and steps with one load.
            iterator(const index* subtree_end, index at) : subtree_end_(subtree_end), at_(at) {}
            index operator*() const { return at_; }
            iterator& operator++() {
                at_ = subtree_end_[at_];
                return *this;
            }
            iterator operator++(int) {
                iterator old = *this;
                ++*this;
                return old;
            }
            friend bool operator==(iterator a, iterator b) { return a.at_ == b.at_; }
            friend bool operator!=(iterator a, iterator b) { return a.at_ != b.at_; }

        private:
            const index* subtree_end_;
            index at_;
        };

        child_range(const tree* t, index parent)
            : subtree_end_(t->layout_.subtree_end.data()),
              first_(parent + 1),
              end_(subtree_end_[parent]) {}
        iterator begin() const { return {subtree_end_, first_}; }
        iterator end() const { return {subtree_end_, end_}; }

    private:
        const index* subtree_end_;
        index first_;
        index end_;
    };

    /// Made by the builder (build_tree, load_file), which checked every part.
    explicit tree(detail::tree_parts&& parts);
    tree(const tree&) = delete;
    tree& operator=(const tree&) = delete;
    tree(tree&&) noexcept = default;
    tree& operator=(tree&&) noexcept = default;
    ~tree();

    /// The number of nodes (at least 1).
    std::size_t size() const noexcept { return layout_.subtree_end.size(); }
    /// The tree's name from its file ("name" in JSON, the root element's name in XML), or "".
    const std::string& name() const noexcept { return records_.name(); }

    const type_info& type(index i) const { return types_[type_[i]]; }
    /// The registered type that runs the node (Canopy's `Selector` for a file's `Fallback`).
    std::string_view type_name(index i) const { return type(i).name; }
    /// The node's type as its file wrote it (`Fallback`, `Sleep`), which views show: the
    /// registered name when the record names its type by id.
    std::string_view written_type(index i) const {
        const std::string_view written = records_.written_type(record_of_[i]);
        return written.empty() ? type_name(i) : written;
    }
    /// The node's parameters as its file wrote them (record_set::written_params).
    std::string_view written_params(index i) const {
        return records_.written_params(record_of_[i]);
    }
    /// The record's describe text; empty when it had none.
    std::string_view describe(index i) const { return records_.describe(record_of_[i]); }
    /// The id the node's record had in the file.
    std::int64_t record_id(index i) const { return records_.id(record_of_[i]); }
    /// Where the node's record stands in its file.
    source_location where(index i) const { return records_.where(record_of_[i]); }
    /// The editor notes of the node's record (record_set::metadata), in file order.
    std::pair<const record_set::metadata_entry*, const record_set::metadata_entry*> metadata(
        index i) const {
        return records_.metadata(record_of_[i]);
    }
    /// The editor notes on the tree itself (record_set::tree_metadata).
    const std::vector<record_set::metadata_entry>& tree_metadata() const noexcept {
        return records_.tree_metadata();
    }

    /// The parent's index, or no_parent for the root.
    index parent(index i) const { return parent_[i]; }
    /// One past the last node of i's subtree.
    index subtree_end(index i) const { return layout_.subtree_end[i]; }
    std::size_t child_count(index i) const { return child_count_[i]; }
    child_range children(index i) const { return {this, i}; }
    /// The node's depth below the root (the root's is 0).
    std::size_t depth(index i) const;

    /// The node's parameters, every declared one in declaration order.
    param_list params(index i) const;
    /// The object its type's creator made for the node; null when the type has no creator.
    const node* object(index i) const;
    /// The node's condition script `which` indexes in condition_params (0 for `_failureIf`
    /// ... 7 for `_post`), or null when the file gives the node none.
    const script* condition(index i, std::size_t which) const noexcept;

    /// The distinct node types the tree uses.
    const std::vector<type_info>& types() const noexcept { return types_; }
    /// The blackboard keys every agent of the tree has, in slot order: the program's
    /// (registry::add_key), then those the file declared.
    const std::vector<blackboard_key>& keys() const noexcept { return layout_.board.keys; }
    /// The bytes of state each agent of this tree holds (see agent).
    std::size_t state_bytes() const noexcept { return layout_.block_size; }
    /// A 64-bit hash of what the tree means: its nodes' types, shape, names and parameters
    /// (values, bound keys, condition scripts), its keys' names, types and initial values, and
    /// the runtime rules of its format. Two loads of one file, or of files that differ only in
    /// layout, spacing or ids, give the same; a snapshot names the tree by it
    /// (docs/snapshots.md). Computed at the first call.
    std::uint64_t fingerprint() const noexcept;
    /// Whose rules the tree's scripts and blackboard follow: its file's (tree_document::rules).
    runtime_rules rules() const noexcept {
        return layout_.fails_as_btcpp        ? runtime_rules::btcpp
               : layout_.interrupts_on_error ? runtime_rules::behavior3
                                             : runtime_rules::canopy;
    }

    /// What the tick engine reads; not for programs, whose view is the members above.
    const detail::tree_layout& layout() const noexcept { return layout_; }

private:
    // Computed once, by whichever thread asks first (the same value whoever computes it).
    struct lazy_hash {
        mutable std::atomic<std::uint64_t> value{0};  // 0: not yet
        lazy_hash() = default;
        lazy_hash(lazy_hash&& other) noexcept : value(other.value.load()) {}
        lazy_hash& operator=(lazy_hash&& other) noexcept {
            value = other.value.load();
            return *this;
        }
    };

    detail::tree_layout layout_;
    std::vector<index> parent_;
    std::vector<std::uint32_t> child_count_;
    std::vector<std::uint16_t> type_;
    std::vector<std::unique_ptr<node>> owned_objects_;
    std::vector<std::shared_ptr<const script>> owned_scripts_;

    // Cold, in file order, reached through record_of_: the records as read (ids, describe
    // texts, locations) and the checked parameters. Kept in file order so that building
    // never copies them into preorder.
    std::vector<std::uint32_t> record_of_;  // preorder index -> record index
    record_set records_;
    std::vector<param> param_values_;          // record by record
    std::vector<std::uint32_t> params_begin_;  // per record, and one past the last
    std::vector<type_info> types_;
    lazy_hash fingerprint_;
};

namespace detail {

/// Everything a tree is made of, as the builder hands it over.
struct tree_parts {
    tree_layout layout;
    std::vector<tree::index> parent;         ///< per node; tree::no_parent for the root
    std::vector<std::uint32_t> child_count;  ///< per node
    std::vector<std::uint16_t> type;         ///< per node: its index in types
    std::vector<std::unique_ptr<node>> owned_objects;
    /// Every compiled script the tree's nodes and conditions use.
    std::vector<std::shared_ptr<const script>> owned_scripts;
    std::vector<std::uint32_t> record_of;     ///< per node: its record
    record_set records;                       ///< as read, without their raw parameters
    std::vector<param> param_values;          ///< the checked parameters, record by record
    std::vector<std::uint32_t> params_begin;  ///< per record, and one past the last
    std::vector<tree::type_info> types;
};

}  // namespace detail

}  // namespace canopy
