#pragma once
// Snapshots of running agents (docs/snapshots.md): agent::save and agent::restore for one,
// save_agents and restore_agents for many, and the content of a snapshot as a program or a
// viewer reads it (views/snapshot_json.hpp gives it as JSON).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// The snapshot format this build writes, and the newest it reads.
inline constexpr std::uint32_t snapshot_version = 1;

/// What a snapshot restores into (agent::restore).
enum class snapshot_match : std::uint8_t {
    /// Only the tree it was saved from: the same fingerprint (tree::fingerprint).
    same_tree,
    /// That tree or a changed version of it (a file edited since the save): nodes are matched
    /// by identity and each keeps its place by the rule of docs/snapshots.md, "Changed trees";
    /// refused when the roots do not match.
    changed_tree,
};

/// How agent::save treats a running node whose state cannot be saved (a program's class
/// whose state is not saved as bytes and that does not override node::save_state).
enum class unsaved_state : std::uint8_t {
    refuse,   ///< save throws canopy::error (code `snapshot`) naming the node
    restart,  ///< the node and its subtree are saved idle: restored, that branch starts again
};

/// A snapshot's content, decoded: the tree it belongs to, described well enough to match its
/// nodes into a changed version, then each agent. Read it with read_snapshot; write it with
/// write_snapshot. Programs rarely need it: agent::save and restore take the bytes.
struct snapshot_content {
    /// How a node's state is kept.
    enum class saving : std::uint8_t {
        none,     ///< the node has no state
        bytes,    ///< its bytes, in the agent's image
        by_node,  ///< node::save_state's bytes, as one of the agent's parts
    };
    struct node {
        std::string type;  ///< the registered type's name
        std::string name;  ///< the node's name in its file, or ""
        /// The node's id in its file where the file's ids stay with their nodes as it is
        /// edited (Canopy's own formats), else 0: BehaviorTree.CPP's and behavior3's ids are
        /// numbered by position.
        std::int64_t id = 0;
        std::uint32_t subtree_end = 0;
        std::uint32_t state_offset = 0;  ///< in the image, where state_size is not 0
        std::uint32_t state_size = 0;
        saving state = saving::none;
    };
    /// How a key's value is kept.
    enum class key_kind : std::uint8_t {
        integer,  ///< 8 bytes in the image
        number,   ///< 8 bytes in the image
        boolean,  ///< 1 byte in the image
        string,   ///< one of the agent's parts
        custom,   ///< one of the agent's parts: value_type::save's bytes, else its to_text
    };
    struct key {
        std::string name;
        std::string type;  ///< the key's type name (blackboard_key::type_name)
        key_kind kind = key_kind::integer;
        std::uint32_t offset = 0;  ///< of its value in the image
    };
    /// One agent: its clock, its generator, and its state block as an image: a status byte
    /// per node, the states saved as bytes, the keys' plain values and update stamps, at the
    /// offsets above; the rest is zero, and comes as parts.
    struct agent_state {
        std::int64_t time_ns = 0;
        std::uint64_t ticks = 0;
        std::uint64_t random = 0;
        std::string image;
        /// (a node's index, or key_part | a key's slot; its bytes), nodes first, in order.
        std::vector<std::pair<std::uint32_t, std::string>> parts;
    };
    static constexpr std::uint32_t key_part = 0x80000000U;

    std::uint32_t version = snapshot_version;
    std::uint64_t fingerprint = 0;  ///< tree::fingerprint of the tree saved from
    std::string tree_name;
    std::uint32_t block_size = 0;  ///< the image's size
    /// Where the keys' update stamps start in the image (4 bytes each, the top bit meaning
    /// unset), or 0xFFFFFFFF when the tree keeps none.
    std::uint32_t stamps_offset = 0xFFFFFFFF;
    /// The index of the status byte that says a skip left a node running (a BehaviorTree.CPP
    /// file's tree), or 0.
    std::uint32_t left_running_flag = 0;
    std::vector<node> nodes;  ///< in preorder
    std::vector<key> keys;    ///< in slot order
    std::vector<agent_state> agents;
};

/// Decodes a snapshot's bytes (agent::save, save_agents).
/// @warning throws canopy::error (code `snapshot`), saying where, for bytes that are not a
/// snapshot, are truncated, or come from a newer format version.
snapshot_content read_snapshot(std::string_view bytes);
/// Encodes a content, as agent::save would have written it.
std::string write_snapshot(const snapshot_content& content);

/// Saves many agents of one tree as one snapshot: the tree's description once, then each
/// agent, none larger than its state. The agents' order is kept.
/// @warning throws canopy::error (code `snapshot`) if the agents run different trees, or as
/// agent::save does.
std::string save_agents(const agent* agents, std::size_t count,
                        unsaved_state unsaved = unsaved_state::refuse);
/// The same into `out`, whose memory it reuses: a program that saves a population every few
/// seconds allocates it once.
void save_agents(const agent* agents, std::size_t count, std::string& out,
                 unsaved_state unsaved = unsaved_state::refuse);
/// Restores a save_agents snapshot, `bytes`, into `count` agents, the first to the first: each as
/// agent::restore does, but all or none (a snapshot of another agent count is refused).
/// @warning throws canopy::error (code `snapshot`), every agent untouched, as agent::restore.
void restore_agents(agent* agents, std::size_t count, std::string_view bytes,
                    snapshot_match match = snapshot_match::same_tree);

}  // namespace canopy
