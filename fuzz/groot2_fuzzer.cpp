// The Groot2 request decoder on its own (docs/monitoring.md): the input is one request
// message, its parts separated by "|||". Promises checked: decoding never throws, crashes,
// leaks or hangs; a request it accepts has a 6-byte header of protocol 2 and a known type,
// and what it took from the payload is what the server may act on (uids in 16 bits, only
// breakpoint hooks, blackboard names without ';'); the reply header round-trips.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "monitor/groot2_protocol.hpp"

namespace {

namespace protocol = canopy::detail::groot2;

[[noreturn]] void broken(const char* promise) {
    std::fprintf(stderr, "groot2 fuzzer: %s\n", promise);
    std::abort();
}

void check(const std::vector<std::string_view>& parts, const protocol::request& r) {
    if (!r.error.empty()) return;
    if (parts.empty() || parts[0].size() != protocol::request_header_size)
        broken("accepted a header that is not 6 bytes");
    if (r.header.protocol != protocol::protocol_id) broken("accepted another protocol");
    if (r.type == protocol::request_type::breakpoint_reached)
        broken("accepted a notification as a request");
    for (const std::string& name : r.blackboard_names) {
        if (name.empty() || name.find(';') != std::string::npos)
            broken("a blackboard name is empty or holds ';'");
    }
    const bool takes_hook = r.type == protocol::request_type::hook_insert ||
                            r.type == protocol::request_type::hook_remove ||
                            r.type == protocol::request_type::breakpoint_unlock;
    if (takes_hook && parts.size() != 2) broken("a hook request without its JSON part");
    if ((r.type == protocol::request_type::hook_remove ||
         r.type == protocol::request_type::breakpoint_unlock) &&
        r.hooks.size() != 1)
        broken("a hook removal or release names other than one hook");
    if (!takes_hook && !r.hooks.empty()) broken("hooks taken from a request that has none");
    const protocol::tree_id id{};
    const std::string reply = protocol::encode_reply_header(r.header, id);
    protocol::request_header back;
    protocol::tree_id back_id{};
    if (!protocol::decode_reply_header(reply, back, back_id) ||
        back.unique_id != r.header.unique_id || back.type != r.header.type)
        broken("the reply header does not round-trip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = input.find("|||", start);
        parts.push_back(input.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) break;
        start = end + 3;
    }
    check(parts, protocol::decode_request(parts));
    return 0;
}
