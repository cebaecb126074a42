#include "canopy/views/snapshot_json.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>

#include "canopy/core/error.hpp"
#include "canopy/core/status.hpp"
#include "canopy/run/snapshot.hpp"
#include "canopy/run/tree.hpp"
#include "formats/utf8.hpp"

namespace canopy {
namespace {

using json = nlohmann::ordered_json;
using content = snapshot_content;

// A skipped node that BehaviorTree.CPP 4.10 still holds running (docs/btcpp-xml.md); the top
// bit of an update stamp says the key is unset (blackboard::is_set).
using detail::left_running_code;
constexpr std::uint32_t unset_bit = 0x80000000U;
constexpr std::uint32_t none = 0xFFFFFFFF;

[[noreturn]] void refuse(const std::string& why) {
    throw error(error_code::snapshot, "snapshot JSON: " + why);
}

std::string hex(std::string_view bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string text;
    text.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        text += digits[b >> 4];
        text += digits[b & 15];
    }
    return text;
}

std::string unhex(const std::string& text, const std::string& field) {
    if (text.size() % 2 != 0) refuse(field + ": an odd count of hexadecimal digits");
    const auto digit = [&](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        refuse(field + ": '" + std::string(1, c) + "' is not a hexadecimal digit");
    };
    std::string bytes(text.size() / 2, '\0');
    for (std::size_t k = 0; k < bytes.size(); ++k)
        bytes[k] = static_cast<char>(digit(text[2 * k]) * 16 + digit(text[2 * k + 1]));
    return bytes;
}

std::string hex_number(std::uint64_t value) {
    std::string bytes(8, '\0');
    for (int k = 0; k < 8; ++k)
        bytes[static_cast<std::size_t>(7 - k)] = static_cast<char>(value >> (8 * k));
    return hex(bytes);
}
std::uint64_t number_of_hex(const std::string& text, const std::string& field) {
    const std::string bytes = unhex(text, field);
    if (bytes.size() != 8) refuse(field + ": 16 hexadecimal digits expected");
    std::uint64_t value = 0;
    for (const char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
    return value;
}

const char* const kind_names[] = {"integer", "number", "boolean", "string", "custom"};
const char* const saving_names[] = {"none", "bytes", "by_node"};

std::string status_name(std::uint8_t code) {
    if (code == left_running_code) return "left_running";
    if (code == detail::abandoned_code) return "abandoned";
    if (code > static_cast<std::uint8_t>(status::skipped)) return "code " + std::to_string(code);
    return std::string(to_string(static_cast<status>(code)));
}
std::uint8_t status_code_of(const std::string& name, const std::string& field) {
    if (name == "left_running") return left_running_code;
    if (name == "abandoned") return detail::abandoned_code;
    for (std::uint8_t code = 0; code <= static_cast<std::uint8_t>(status::skipped); ++code)
        if (name == to_string(static_cast<status>(code))) return code;
    refuse(field + ": no status '" + name + "'");
}

template <typename T>
T load(const std::string& image, std::uint32_t at) {
    T value;
    std::memcpy(&value, image.data() + at, sizeof value);
    return value;
}
template <typename T>
void store(std::string& image, std::uint32_t at, T value) {
    std::memcpy(image.data() + at, &value, sizeof value);
}

bool valid_text(std::string_view text) {
    return detail::first_invalid_utf8(text) == std::string_view::npos;
}

json number_json(double value) {
    if (std::isnan(value)) return std::signbit(value) ? "-NaN" : "NaN";
    if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
    return value;
}
double number_of_json(const json& value, const std::string& field) {
    if (value.is_number()) return value.get<double>();
    if (value == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (value == "-NaN") return -std::numeric_limits<double>::quiet_NaN();
    if (value == "Infinity") return std::numeric_limits<double>::infinity();
    if (value == "-Infinity") return -std::numeric_limits<double>::infinity();
    refuse(field + ": a number expected");
}

json agent_json(const content& c, const content::agent_state& s) {
    json agent;
    agent["time_ns"] = s.time_ns;
    agent["ticks"] = s.ticks;
    agent["random"] = hex_number(s.random);
    json statuses = json::array();
    for (std::uint32_t i = 0; i < c.nodes.size(); ++i)
        statuses.push_back(status_name(static_cast<std::uint8_t>(s.image[i])));
    agent["statuses"] = std::move(statuses);
    if (c.left_running_flag != 0) agent["left_running"] = s.image[c.left_running_flag] != 0;
    json states = json::object();
    for (std::uint32_t i = 0; i < c.nodes.size(); ++i) {
        const content::node& n = c.nodes[i];
        if (n.state == content::saving::bytes)
            states[std::to_string(i)] =
                hex(std::string_view(s.image).substr(n.state_offset, n.state_size));
    }
    json keys = json::object();
    for (const auto& [index, bytes] : s.parts) {
        if ((index & content::key_part) == 0)
            states[std::to_string(index)] = {{"saved", hex(bytes)}};
    }
    agent["states"] = std::move(states);
    for (std::uint32_t k = 0; k < c.keys.size(); ++k) {
        const content::key& key = c.keys[k];
        json entry;
        switch (key.kind) {
            case content::key_kind::integer:
                entry["value"] = load<std::int64_t>(s.image, key.offset);
                break;
            case content::key_kind::number:
                entry["value"] = number_json(load<double>(s.image, key.offset));
                break;
            case content::key_kind::boolean: entry["value"] = s.image[key.offset] != 0; break;
            default:
                for (const auto& [index, bytes] : s.parts) {
                    if (index != (content::key_part | k)) continue;
                    if (key.kind == content::key_kind::string && valid_text(bytes)) {
                        entry["value"] = bytes;
                    } else if (key.kind == content::key_kind::string) {
                        entry["value_bytes"] = hex(bytes);  // not text JSON can hold
                    } else {
                        entry["saved"] = hex(bytes);
                    }
                }
        }
        if (c.stamps_offset != none) {
            const auto stamp = load<std::uint32_t>(s.image, c.stamps_offset + 4 * k);
            entry["stamp"] = stamp & ~unset_bit;
            entry["set"] = (stamp & unset_bit) == 0;
        }
        keys[key.name] = std::move(entry);
    }
    agent["blackboard"] = std::move(keys);
    return agent;
}

template <typename T>
T field(const json& object, const char* name, const std::string& where) {
    if (!object.is_object() || !object.contains(name)) refuse(where + ": no '" + name + "'");
    const json& value = object.at(name);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // nlohmann converts a real, or a whole number out of T's range, without a check.
        bool fits = false;
        if (value.is_number_unsigned()) {
            fits = value.get<std::uint64_t>() <=
                   static_cast<std::uint64_t>(std::numeric_limits<T>::max());
        } else if (value.is_number_integer()) {
            const auto whole = value.get<std::int64_t>();
            fits = whole >= 0
                       ? static_cast<std::uint64_t>(whole) <=
                             static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                       : std::is_signed_v<T> &&
                             whole >= static_cast<std::int64_t>(std::numeric_limits<T>::min());
        }
        if (!fits) refuse(where + "." + name + ": a whole number in range expected");
    }
    try {
        return value.get<T>();
    } catch (const json::exception&) {
        refuse(where + "." + name + ": not of the kind expected");
    }
}

}  // namespace

std::string snapshot_to_json(std::string_view snapshot) {
    const content c = read_snapshot(snapshot);
    json tree;
    tree["name"] = c.tree_name;
    tree["fingerprint"] = hex_number(c.fingerprint);
    tree["state_bytes"] = c.block_size;
    tree["stamps_at"] = c.stamps_offset == none ? json(nullptr) : json(c.stamps_offset);
    tree["left_running_flag"] = c.left_running_flag;
    json nodes = json::array();
    for (const content::node& n : c.nodes) {
        json node = {
            {"type", n.type}, {"name", n.name}, {"id", n.id}, {"subtree_end", n.subtree_end}};
        if (n.state != content::saving::none) {
            node["state"] = {{"saved", saving_names[static_cast<int>(n.state)]},
                             {"at", n.state_offset},
                             {"bytes", n.state_size}};
        }
        nodes.push_back(std::move(node));
    }
    tree["nodes"] = std::move(nodes);
    json keys = json::array();
    for (const content::key& k : c.keys)
        keys.push_back({{"name", k.name},
                        {"type", k.type},
                        {"kind", kind_names[static_cast<int>(k.kind)]},
                        {"at", k.offset}});
    tree["keys"] = std::move(keys);
    json agents = json::array();
    for (const content::agent_state& s : c.agents) agents.push_back(agent_json(c, s));
    const json out = {
        {"canopy_snapshot", c.version}, {"tree", std::move(tree)}, {"agents", std::move(agents)}};
    // Names are the file's and a program's, UTF-8 but for a damaged snapshot: shown replaced.
    return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string snapshot_from_json(std::string_view text) {
    json in;
    try {
        in = json::parse(text);
    } catch (const json::exception& e) {
        refuse(std::string("not JSON: ") + e.what());
    }
    content c;
    c.version = field<std::uint32_t>(in, "canopy_snapshot", "the snapshot");
    if (c.version == 0 || c.version > snapshot_version)
        refuse("format version " + std::to_string(c.version) + " is not one this build reads");
    const json& tree = in.contains("tree") ? in["tree"] : json();
    c.tree_name = field<std::string>(tree, "name", "tree");
    c.fingerprint =
        number_of_hex(field<std::string>(tree, "fingerprint", "tree"), "tree.fingerprint");
    c.block_size = field<std::uint32_t>(tree, "state_bytes", "tree");
    c.stamps_offset = tree.contains("stamps_at") && !tree["stamps_at"].is_null()
                          ? field<std::uint32_t>(tree, "stamps_at", "tree")
                          : none;
    c.left_running_flag = field<std::uint32_t>(tree, "left_running_flag", "tree");
    const json nodes = field<json>(tree, "nodes", "tree");
    if (!nodes.is_array()) refuse("tree.nodes: an array expected");
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string where = "tree.nodes[" + std::to_string(i) + "]";
        content::node n;
        n.type = field<std::string>(nodes[i], "type", where);
        n.name = field<std::string>(nodes[i], "name", where);
        n.id = field<std::int64_t>(nodes[i], "id", where);
        n.subtree_end = field<std::uint32_t>(nodes[i], "subtree_end", where);
        if (nodes[i].contains("state")) {
            const json& state = nodes[i]["state"];
            const auto saved = field<std::string>(state, "saved", where + ".state");
            n.state = saved == "bytes" ? content::saving::bytes : content::saving::by_node;
            if (saved != "bytes" && saved != "by_node")
                refuse(where + ".state.saved: 'bytes' or 'by_node'");
            n.state_offset = field<std::uint32_t>(state, "at", where + ".state");
            n.state_size = field<std::uint32_t>(state, "bytes", where + ".state");
        }
        c.nodes.push_back(std::move(n));
    }
    const json keys = field<json>(tree, "keys", "tree");
    if (!keys.is_array()) refuse("tree.keys: an array expected");
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const std::string where = "tree.keys[" + std::to_string(k) + "]";
        content::key key;
        key.name = field<std::string>(keys[k], "name", where);
        key.type = field<std::string>(keys[k], "type", where);
        const auto kind = field<std::string>(keys[k], "kind", where);
        bool known = false;
        for (int x = 0; x < 5; ++x) {
            if (kind != kind_names[x]) continue;
            key.kind = static_cast<content::key_kind>(x);
            known = true;
        }
        if (!known) {
            std::string why = where + ".kind: no kind '";
            why += kind;
            refuse(why + "'");
        }
        key.offset = field<std::uint32_t>(keys[k], "at", where);
        c.keys.push_back(std::move(key));
    }
    // The bytes say whether the description fits together; read_snapshot checks them below.
    const json agents = field<json>(in, "agents", "the snapshot");
    if (!agents.is_array()) refuse("agents: an array expected");
    for (std::size_t a = 0; a < agents.size(); ++a) {
        const std::string where = "agents[" + std::to_string(a) + "]";
        const json& agent = agents[a];
        content::agent_state s;
        s.time_ns = field<std::int64_t>(agent, "time_ns", where);
        s.ticks = field<std::uint64_t>(agent, "ticks", where);
        s.random = number_of_hex(field<std::string>(agent, "random", where), where + ".random");
        s.image.assign(c.block_size, '\0');
        const json statuses = field<json>(agent, "statuses", where);
        if (!statuses.is_array() || statuses.size() != c.nodes.size() ||
            c.nodes.size() > c.block_size)
            refuse(where + ".statuses: one per node expected");
        for (std::size_t i = 0; i < statuses.size(); ++i) {
            if (!statuses[i].is_string()) refuse(where + ".statuses: names expected");
            s.image[i] = static_cast<char>(status_code_of(
                statuses[i].get<std::string>(), where + ".statuses[" + std::to_string(i) + "]"));
        }
        if (c.left_running_flag != 0 && c.left_running_flag < c.block_size &&
            field<bool>(agent, "left_running", where))
            s.image[c.left_running_flag] = 1;
        const json states = agent.contains("states") ? agent["states"] : json::object();
        for (const auto& [index_text, value] : states.items()) {
            std::string at = where + ".states.";
            at += index_text;
            std::uint32_t i = 0;
            try {
                i = static_cast<std::uint32_t>(std::stoul(index_text));
            } catch (const std::exception&) {
                refuse(at + ": a node's index expected");
            }
            if (i >= c.nodes.size()) refuse(at + ": no such node");
            const content::node& n = c.nodes[i];
            if (value.is_object()) {
                s.parts.emplace_back(i, unhex(field<std::string>(value, "saved", at), at));
                continue;
            }
            if (!value.is_string()) refuse(at + ": hexadecimal bytes expected");
            const std::string bytes = unhex(value.get<std::string>(), at);
            if (n.state != content::saving::bytes || bytes.size() != n.state_size ||
                n.state_offset > c.block_size - std::min<std::size_t>(c.block_size, bytes.size()))
                refuse(at + ": the node's state has " + std::to_string(n.state_size) + " bytes");
            s.image.replace(n.state_offset, bytes.size(), bytes);
        }
        const json board = agent.contains("blackboard") ? agent["blackboard"] : json::object();
        for (std::uint32_t k = 0; k < c.keys.size(); ++k) {
            const content::key& key = c.keys[k];
            const std::string at = where + ".blackboard." + key.name;
            if (!board.contains(key.name)) refuse(at + ": missing");
            const json& entry = board[key.name];
            const auto fits = [&](std::size_t width) {
                if (key.offset > c.block_size || width > c.block_size - key.offset)
                    refuse(at + ": out of place");
            };
            switch (key.kind) {
                case content::key_kind::integer:
                    fits(8);
                    store(s.image, key.offset, field<std::int64_t>(entry, "value", at));
                    break;
                case content::key_kind::number:
                    fits(8);
                    store(s.image, key.offset,
                          number_of_json(entry.contains("value") ? entry["value"] : json(),
                                         at + ".value"));
                    break;
                case content::key_kind::boolean:
                    fits(1);
                    store(s.image, key.offset, field<bool>(entry, "value", at));
                    break;
                case content::key_kind::string:
                    s.parts.emplace_back(content::key_part | k,
                                         field<std::string>(entry, "value", at));
                    break;
                case content::key_kind::custom:
                    s.parts.emplace_back(
                        content::key_part | k,
                        unhex(field<std::string>(entry, "saved", at), at + ".saved"));
                    break;
            }
            if (c.stamps_offset != none) {
                if (c.stamps_offset > c.block_size ||
                    4 * std::size_t{k} + 4 > c.block_size - c.stamps_offset)
                    refuse("tree.stamps_at: out of place");
                const std::uint32_t stamp = field<std::uint32_t>(entry, "stamp", at) & ~unset_bit;
                store(s.image, c.stamps_offset + 4 * k,
                      stamp | (field<bool>(entry, "set", at) ? 0 : unset_bit));
            }
        }
        // Parts in the order the bytes keep them: nodes, then keys.
        std::stable_sort(s.parts.begin(), s.parts.end(), [](const auto& x, const auto& y) {
            return (x.first & content::key_part) < (y.first & content::key_part);
        });
        c.agents.push_back(std::move(s));
    }
    std::string bytes = write_snapshot(c);
    (void)read_snapshot(bytes);  // the description's checks
    return bytes;
}

}  // namespace canopy
