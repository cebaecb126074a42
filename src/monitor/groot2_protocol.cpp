// Decoding Groot2's requests: every malformed message becomes an error text, never a throw,
// since the server answers whatever bytes arrive and keeps serving.
#include "monitor/groot2_protocol.hpp"

#include <nlohmann/json.hpp>

namespace canopy::detail::groot2 {

namespace {

void put_u32(std::string& out, std::uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8)
        out.push_back(static_cast<char>((value >> shift) & 0xFF));
}

std::uint32_t get_u32(std::string_view bytes, std::size_t at) {
    std::uint32_t value = 0;
    for (int k = 3; k >= 0; --k)
        value = (value << 8) | static_cast<std::uint8_t>(bytes[at + static_cast<std::size_t>(k)]);
    return value;
}

bool known_type(std::uint8_t type) {
    switch (static_cast<request_type>(type)) {
        case request_type::full_tree:
        case request_type::status:
        case request_type::blackboard:
        case request_type::hook_insert:
        case request_type::hook_remove:
        case request_type::breakpoint_unlock:
        case request_type::hooks_dump:
        case request_type::remove_all_hooks:
        case request_type::disable_all_hooks:
        case request_type::toggle_recording:
        case request_type::get_transitions: return true;
        case request_type::breakpoint_reached: return false;  // ours to send, not to answer
    }
    return false;
}

bool is_status_name(const std::string& name) {
    return name == "IDLE" || name == "RUNNING" || name == "SUCCESS" || name == "FAILURE" ||
           name == "SKIPPED";
}

// Each read_* takes one field of a hook's JSON into `out`; on a problem it sets `error`, in
// words Groot2's user can act on, and returns false.
bool read_uid(const nlohmann::json& object, hook_request& out, std::string& error) {
    const auto uid = object.find("uid");
    if (uid == object.end() || !uid->is_number_integer()) {
        error = "a hook needs \"uid\", a node's integer uid";
        return false;
    }
    const auto value = uid->get<std::int64_t>();
    if (value < 0 || value > 0xFFFF) {
        error = "\"uid\" " + std::to_string(value) + " is no node's uid (0 to 65535)";
        return false;
    }
    out.uid = static_cast<std::uint16_t>(value);
    return true;
}

bool read_position(const nlohmann::json& object, hook_request& out, std::string& error) {
    const auto position = object.find("position");
    if (position == object.end() || !position->is_number_integer() ||
        (position->get<std::int64_t>() != 0 && position->get<std::int64_t>() != 1)) {
        error = "a hook needs \"position\": 0 (before the tick) or 1 (after it)";
        return false;
    }
    out.position = static_cast<hook_position>(position->get<std::int64_t>());
    return true;
}

bool read_bool(const nlohmann::json& object, const char* name, bool& out, std::string& error) {
    const auto field = object.find(name);
    if (field == object.end() || !field->is_boolean()) {
        error = std::string("a hook needs \"") + name + "\", true or false";
        return false;
    }
    out = field->get<bool>();
    return true;
}

bool read_status(const nlohmann::json& object, hook_request& out, std::string& error) {
    const auto field = object.find("desired_status");
    if (field == object.end() || !field->is_string() ||
        !is_status_name(field->get<std::string>())) {
        error = "a hook needs \"desired_status\": IDLE, RUNNING, SUCCESS, FAILURE or SKIPPED";
        return false;
    }
    out.desired_status = field->get<std::string>();
    return true;
}

// One hook of an `I` request: BehaviorTree.CPP's to_json fields.
bool read_inserted_hook(const nlohmann::json& object, hook_request& out, std::string& error) {
    if (!object.is_object()) {
        error = "a hook is a JSON object";
        return false;
    }
    if (!read_uid(object, out, error) || !read_position(object, out, error) ||
        !read_bool(object, "enabled", out.enabled, error) ||
        !read_bool(object, "once", out.once, error) || !read_status(object, out, error))
        return false;
    const auto mode = object.find("mode");
    if (mode == object.end() || !mode->is_number_integer() ||
        (mode->get<std::int64_t>() != 0 && mode->get<std::int64_t>() != 1)) {
        error = "a hook needs \"mode\": 0 (breakpoint) or 1 (replace)";
        return false;
    }
    if (mode->get<std::int64_t>() == 1) {
        // A Canopy observer sees a tick but cannot stand in for it.
        error =
            "Canopy cannot replace a node's tick with a chosen status (hook mode 1); "
            "only breakpoints (mode 0) are supported";
        return false;
    }
    return true;
}

nlohmann::json parse_payload(const std::vector<std::string_view>& parts, std::string& error) {
    if (parts.size() != 2) {
        error = "this request is a message of 2 parts: the header and a JSON text";
        return {};
    }
    nlohmann::json parsed = nlohmann::json::parse(parts[1], nullptr, false);
    if (parsed.is_discarded()) error = "the second part is not JSON";
    return parsed;
}

void decode_hooks(request& r, const std::vector<std::string_view>& parts) {
    const nlohmann::json payload = parse_payload(parts, r.error);
    if (!r.error.empty()) return;
    if (r.type == request_type::hook_insert) {
        if (payload.is_array()) {
            for (const nlohmann::json& item : payload) {
                hook_request hook;
                if (!read_inserted_hook(item, hook, r.error)) return;
                r.hooks.push_back(std::move(hook));
            }
        } else {
            hook_request hook;
            if (!read_inserted_hook(payload, hook, r.error)) return;
            r.hooks.push_back(std::move(hook));
        }
        return;
    }
    hook_request hook;
    if (!payload.is_object()) {
        r.error = "the second part is a JSON object";
        return;
    }
    if (!read_uid(payload, hook, r.error) || !read_position(payload, hook, r.error)) return;
    if (r.type == request_type::breakpoint_unlock &&
        (!read_status(payload, hook, r.error) ||
         !read_bool(payload, "remove_when_done", hook.once, r.error)))
        return;
    r.hooks.push_back(std::move(hook));
}

}  // namespace

request decode_request(const std::vector<std::string_view>& parts) {
    request r;
    if (parts.empty() || parts[0].size() != request_header_size) {
        r.error = "wrong request header: the first part is 6 bytes (protocol, type, id)";
        return r;
    }
    const std::string_view head = parts[0];
    r.header.protocol = static_cast<std::uint8_t>(head[0]);
    r.header.type = static_cast<std::uint8_t>(head[1]);
    r.header.unique_id = get_u32(head, 2);
    if (r.header.protocol != protocol_id) {
        r.error = "protocol " + std::to_string(r.header.protocol) + " is not spoken here (" +
                  std::to_string(protocol_id) + " is)";
        return r;
    }
    if (!known_type(r.header.type)) {
        r.error = "request not recognized: type " + std::to_string(r.header.type);
        return r;
    }
    r.type = static_cast<request_type>(r.header.type);
    switch (r.type) {
        case request_type::blackboard: {
            if (parts.size() != 2) {
                r.error =
                    "a blackboard request is a message of 2 parts: the header and the "
                    "names, separated by ';'";
                return r;
            }
            std::string_view names = parts[1];
            while (!names.empty()) {
                const std::size_t end = names.find(';');
                const std::string_view name = names.substr(0, end);
                if (!name.empty()) r.blackboard_names.emplace_back(name);
                if (end == std::string_view::npos) break;
                names.remove_prefix(end + 1);
            }
            break;
        }
        case request_type::hook_insert:
        case request_type::hook_remove:
        case request_type::breakpoint_unlock: decode_hooks(r, parts); break;
        case request_type::toggle_recording:
            if (parts.size() != 2 || (parts[1] != "start" && parts[1] != "stop")) {
                r.error =
                    "a recording request is a message of 2 parts: the header and "
                    "\"start\" or \"stop\"";
                return r;
            }
            r.start_recording = parts[1] == "start";
            break;
        default: break;
    }
    return r;
}

std::string encode_request_header(const request_header& header) {
    std::string out;
    out.reserve(request_header_size);
    out.push_back(static_cast<char>(header.protocol));
    out.push_back(static_cast<char>(header.type));
    put_u32(out, header.unique_id);
    return out;
}

std::string encode_reply_header(const request_header& header, const tree_id& id) {
    request_header echoed = header;
    echoed.protocol = protocol_id;
    std::string out = encode_request_header(echoed);
    out.append(id.data(), id.size());
    return out;
}

bool decode_reply_header(std::string_view bytes, request_header& header, tree_id& id) {
    if (bytes.size() != reply_header_size) return false;
    header.protocol = static_cast<std::uint8_t>(bytes[0]);
    header.type = static_cast<std::uint8_t>(bytes[1]);
    header.unique_id = get_u32(bytes, 2);
    for (std::size_t k = 0; k < id.size(); ++k) id[k] = bytes[request_header_size + k];
    return true;
}

std::uint8_t status_code(status s) noexcept {
    switch (s) {
        case status::idle: return 0;
        case status::running: return 1;
        case status::success: return 2;
        case status::failure:
        case status::error: return 3;
        case status::skipped: return 4;
    }
    return 0;
}

void append_transition(std::string& out, const transition& t) {
    for (int shift = 0; shift < 48; shift += 8)
        out.push_back(static_cast<char>((t.microseconds >> shift) & 0xFF));
    out.push_back(static_cast<char>(t.uid & 0xFF));
    out.push_back(static_cast<char>(t.uid >> 8));
    out.push_back(static_cast<char>(t.status));
}

}  // namespace canopy::detail::groot2
