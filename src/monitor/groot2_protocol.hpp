#pragma once

// The Groot2 wire protocol as BehaviorTree.CPP 4 speaks it (its groot2_protocol.h): every
// request is a ZeroMQ multipart message whose first part is a 6-byte header, every reply
// repeats that header with the 16-byte id of the tree it describes. Pure functions over bytes,
// so that the decoder can be fuzzed and tested without a socket.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/status.hpp"

namespace canopy::detail::groot2 {

inline constexpr std::uint8_t protocol_id = 2;
inline constexpr std::size_t request_header_size = 6;  // protocol, type, 4-byte request id
inline constexpr std::size_t reply_header_size = 22;   // the request's header, the tree's id
inline constexpr std::size_t max_transitions = 1000;   // kept while recording, oldest dropped

enum class request_type : std::uint8_t {
    full_tree = 'T',
    status = 'S',
    blackboard = 'B',
    hook_insert = 'I',
    hook_remove = 'R',
    breakpoint_reached = 'N',  // sent on the PUB socket, never asked for
    breakpoint_unlock = 'U',
    hooks_dump = 'D',
    remove_all_hooks = 'A',
    disable_all_hooks = 'X',
    toggle_recording = 'r',
    get_transitions = 't',
};

struct request_header {
    std::uint8_t protocol = protocol_id;
    std::uint8_t type = 0;
    std::uint32_t unique_id = 0;  // little-endian on the wire, echoed by the reply
};

using tree_id = std::array<char, 16>;

enum class hook_position : std::uint8_t { before_tick = 0, after_tick = 1 };

/// What Groot2 sends to set a breakpoint (`I`), remove one (`R`) or let one go (`U`).
struct hook_request {
    std::uint16_t uid = 0;
    hook_position position = hook_position::before_tick;
    bool enabled = true;
    bool once = false;  // `once` in `I`, `remove_when_done` in `U`
    /// BehaviorTree.CPP's status name ("SKIPPED" lets the node tick as usual).
    std::string desired_status = "SKIPPED";
};

/// A request taken apart. When `error` is not empty the request is malformed or asks what
/// Canopy cannot do: the reply is the error form, reply_error(error).
struct request {
    request_header header;
    request_type type = request_type::full_tree;
    std::vector<std::string> blackboard_names;  // `B`: the names between ';'
    std::vector<hook_request> hooks;            // `I`: one or an array; `R`, `U`: one
    bool start_recording = false;               // `r`: "start" or "stop"
    std::string error;
};

/// Decodes the parts of one request message. Never throws for any bytes.
request decode_request(const std::vector<std::string_view>& parts);

std::string encode_request_header(const request_header& header);
/// The reply's first part: the request's header with the protocol this server speaks, then
/// the tree's id.
std::string encode_reply_header(const request_header& header, const tree_id& id);
/// Reads a reply's first part (the test client's view); false if it is not 22 bytes.
bool decode_reply_header(std::string_view bytes, request_header& header, tree_id& id);

/// The error form of a reply: the parts "error" and a message.
inline constexpr std::string_view error_part = "error";

/// BehaviorTree.CPP's NodeStatus number for a Canopy status (IDLE 0, RUNNING 1, SUCCESS 2,
/// FAILURE 3, SKIPPED 4); a node halted after running reads as 10 + RUNNING.
std::uint8_t status_code(status s) noexcept;
inline constexpr std::uint8_t idle_after_running = 10 + 1;

/// One recorded transition: 6 bytes of microseconds since recording started, the node's uid,
/// its new status, 9 bytes in all on the wire.
struct transition {
    std::uint64_t microseconds = 0;
    std::uint16_t uid = 0;
    std::uint8_t status = 0;
};
void append_transition(std::string& out, const transition& t);

}  // namespace canopy::detail::groot2
