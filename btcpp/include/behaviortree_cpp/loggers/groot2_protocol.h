#pragma once

// BT::Monitor: the Groot2 wire protocol's names, for a program (or a test) that talks to a
// Groot2Publisher itself. Every request is a ZeroMQ multipart message whose first part is a
// 6-byte header (protocol, type, a 4-byte id); every reply starts with that header followed by
// the 16-byte id of the tree it describes. Canopy's own server speaks the same bytes
// (docs/monitoring.md).

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>

#include "behaviortree_cpp/basic_types.h"

namespace BT::Monitor {

/// What a request asks for (its header's second byte).
enum RequestType : std::uint8_t {
    FULLTREE = 'T',            ///< the tree's XML
    STATUS = 'S',              ///< every node's status
    BLACKBOARD = 'B',          ///< the named blackboards, as JSON
    HOOK_INSERT = 'I',         ///< set a breakpoint
    HOOK_REMOVE = 'R',         ///< remove one
    BREAKPOINT_REACHED = 'N',  ///< published when a breakpoint stops the tree
    BREAKPOINT_UNLOCK = 'U',   ///< let a stopped breakpoint go
    HOOKS_DUMP = 'D',          ///< the breakpoints set
    REMOVE_ALL_HOOKS = 'A',
    DISABLE_ALL_HOOKS = 'X',
    TOGGLE_RECORDING = 'r',  ///< start or stop recording transitions
    GET_TRANSITIONS = 't',   ///< the transitions recorded since last asked
    UNDEFINED = 0,
};

/// The request type's name ("full_tree", "status", ...).
inline const char* ToString(const RequestType& type) {
    switch (type) {
        case FULLTREE: return "full_tree";
        case STATUS: return "status";
        case BLACKBOARD: return "blackboard";
        case HOOK_INSERT: return "hook_insert";
        case HOOK_REMOVE: return "hook_remove";
        case BREAKPOINT_REACHED: return "breakpoint_reached";
        case BREAKPOINT_UNLOCK: return "breakpoint_unlock";
        case HOOKS_DUMP: return "hooks_dump";
        case REMOVE_ALL_HOOKS: return "remove_all_hooks";
        case DISABLE_ALL_HOOKS: return "disable_all_hooks";
        case TOGGLE_RECORDING: return "toggle_recording";
        case GET_TRANSITIONS: return "get_transitions";
        case UNDEFINED: break;
    }
    return "undefined";
}

constexpr std::uint8_t kProtocolID = 2;
using TreeUniqueUUID = std::array<char, 16>;

struct RequestHeader {
    std::uint32_t unique_id = 0;
    std::uint8_t protocol = kProtocolID;
    RequestType type = RequestType::UNDEFINED;

    /// Its size on the wire.
    static std::size_t size() { return 6; }

    RequestHeader() = default;
    /// A request of `request_type` with a random id, which its reply repeats.
    explicit RequestHeader(RequestType request_type) : type(request_type) {
        static thread_local std::mt19937 random{std::random_device{}()};
        unique_id = std::uniform_int_distribution<std::uint32_t>()(random);
    }

    bool operator==(const RequestHeader& other) const {
        return type == other.type && unique_id == other.unique_id;
    }
    bool operator!=(const RequestHeader& other) const { return !(*this == other); }
};

struct ReplyHeader {
    RequestHeader request;
    TreeUniqueUUID tree_id = {};

    /// Its size on the wire.
    static std::size_t size() { return RequestHeader::size() + 16; }
};

/// The header's bytes: protocol, type, then the id, little-endian.
inline std::string SerializeHeader(const RequestHeader& header) {
    std::string bytes(RequestHeader::size(), '\0');
    bytes[0] = static_cast<char>(header.protocol);
    bytes[1] = static_cast<char>(header.type);
    for (unsigned i = 0; i < 4; ++i)
        bytes[2 + i] = static_cast<char>((header.unique_id >> (8 * i)) & 0xFFU);
    return bytes;
}

/// The request's header, then the tree's id.
inline std::string SerializeHeader(const ReplyHeader& header) {
    std::string bytes = SerializeHeader(header.request);
    bytes.append(header.tree_id.begin(), header.tree_id.end());
    return bytes;
}

/// @warning throws std::runtime_error for fewer than RequestHeader::size() bytes.
inline RequestHeader DeserializeRequestHeader(const std::string& bytes) {
    if (bytes.size() < RequestHeader::size())
        throw std::runtime_error("Groot2 request header: too short");
    RequestHeader header;
    header.protocol = static_cast<std::uint8_t>(bytes[0]);
    header.type = static_cast<RequestType>(static_cast<std::uint8_t>(bytes[1]));
    header.unique_id = 0;
    for (unsigned i = 0; i < 4; ++i)
        header.unique_id |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[2 + i]))
                            << (8 * i);
    return header;
}

/// @warning throws std::runtime_error for fewer than ReplyHeader::size() bytes.
inline ReplyHeader DeserializeReplyHeader(const std::string& bytes) {
    if (bytes.size() < ReplyHeader::size())
        throw std::runtime_error("Groot2 reply header: too short");
    ReplyHeader header;
    header.request = DeserializeRequestHeader(bytes);
    for (std::size_t i = 0; i < header.tree_id.size(); ++i)
        header.tree_id[i] = bytes[RequestHeader::size() + i];
    return header;
}

/// A breakpoint, or a node whose tick a status replaces.
struct Hook {
    using Ptr = std::shared_ptr<Hook>;

    enum class Position { PRE = 0, POST = 1 };
    enum class Mode { BREAKPOINT = 0, REPLACE = 1 };

    bool enabled = true;
    Position position = Position::PRE;
    std::uint16_t node_uid = 0;
    Mode mode = Mode::BREAKPOINT;
    /// An interactive breakpoint waits on these until it is let go (ready).
    std::condition_variable wakeup;
    std::mutex mutex;
    bool ready = false;
    /// Removed once it has been used.
    bool remove_when_done = false;
    /// The status the node returns instead of ticking (SKIPPED: it ticks as usual).
    NodeStatus desired_status = NodeStatus::SKIPPED;
};

}  // namespace BT::Monitor
