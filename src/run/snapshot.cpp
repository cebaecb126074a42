// Snapshots (docs/snapshots.md): an agent's state block as bytes, and back, into the same tree
// or a changed version of it; and an agent moving to a new version of its tree in place.
//
// A snapshot describes the tree it was saved from (each node's type, name, shape and state
// place; each key's name, type and place), then holds each agent as an image of its block,
// with what the image cannot hold (states a node saves itself, strings, program types) beside
// it as parts. Restoring into the same tree copies the image; into a changed one, nodes are
// matched by identity and each keeps its status and state only where it and its ancestors
// are unchanged ("Changed trees" in the docs).
#include "canopy/run/snapshot.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/tree.hpp"
#include "core/bytes.hpp"
#include "core/value_sharing.hpp"
#include "run/key_carry.hpp"
#include "run/state_block.hpp"

namespace canopy {

namespace detail {
namespace {

using content = snapshot_content;
constexpr char magic[8] = {'C', 'A', 'N', 'O', 'P', 'Y', 'S', 'N'};
constexpr std::uint32_t byte_order_mark = 0x01020304;
constexpr std::uint32_t none = 0xFFFFFFFF;

[[noreturn]] void refuse(const std::string& why) {
    throw error(error_code::snapshot, "snapshot: " + why);
}

std::string hex(std::uint64_t value) {
    static const char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int k = 15; k >= 0; --k, value >>= 4)
        text[static_cast<std::size_t>(k)] = digits[value & 15];
    return text;
}

std::string node_words(const content& c, std::uint32_t i) {
    const content::node& n = c.nodes[i];
    return "node " + std::to_string(i) + " ('" + n.type + "'" +
           (n.name.empty() ? std::string() : " \"" + n.name + "\"") + ")";
}

// The status bytes, as bits of one word: idle to skipped (0 to 4), abandoned_code and
// left_running_code.
constexpr std::uint32_t status_codes = ((1U << (static_cast<unsigned>(status::skipped) + 1)) - 1) |
                                       (1U << abandoned_code) | (1U << left_running_code);
static_assert(status_codes == 0b0001'1000'0001'1111, "idle to skipped, 11 and 12");
// Not 0 when `code` is no status byte; without branches, so that a loop over many bytes
// tests several at once.
constexpr std::uint32_t not_a_status(std::uint32_t code) noexcept {
    return (code >> 4) | (~status_codes >> (code & 15) & 1U);
}
bool is_status_code(std::uint8_t code) noexcept {
    return not_a_status(code) == 0;
}
bool runs(std::uint8_t code) noexcept {
    return code == static_cast<std::uint8_t>(status::running) || code == left_running_code ||
           code == abandoned_code;
}

content::key_kind kind_of(const blackboard_key& key) noexcept {
    switch (key.type) {
        case param_type::integer: return content::key_kind::integer;
        case param_type::boolean: return content::key_kind::boolean;
        case param_type::string: return content::key_kind::string;
        case param_type::custom: return content::key_kind::custom;
        default: return content::key_kind::number;
    }
}
std::size_t plain_width(content::key_kind kind) noexcept {
    switch (kind) {
        case content::key_kind::integer:
        case content::key_kind::number: return 8;
        case content::key_kind::boolean: return 1;
        default: return 0;
    }
}
bool has_parts(const content& c) noexcept {
    return std::any_of(
               c.nodes.begin(), c.nodes.end(),
               [](const content::node& n) { return n.state == content::saving::by_node; }) ||
           std::any_of(c.keys.begin(), c.keys.end(),
                       [](const content::key& k) { return plain_width(k.kind) == 0; });
}

}  // namespace

/// The tree's description as a snapshot keeps it, with no agent.
content describe(const tree& t) {
    const tree_layout& layout = t.layout();
    content c;
    c.fingerprint = t.fingerprint();
    c.tree_name = t.name();
    c.block_size = static_cast<std::uint32_t>(layout.block_size);
    const auto board_at = static_cast<std::uint32_t>(layout.blackboard_offset);
    if (layout.board.stamps_offset != blackboard::layout::no_stamps)
        c.stamps_offset = board_at + layout.board.stamps_offset;
    c.left_running_flag = layout.left_running_flag;
    c.nodes.resize(t.size());
    const bool own_ids = !layout.fails_as_btcpp && !layout.interrupts_on_error;
    for (tree::index i = 0; i < t.size(); ++i) {
        content::node& n = c.nodes[i];
        n.type = std::string(t.type_name(i));
        n.name = std::string(t.describe(i));
        n.id = own_ids ? t.record_id(i) : 0;
        n.subtree_end = t.subtree_end(i);
        const node* object = t.object(i);
        const state_layout state = object != nullptr ? object->state() : state_layout{};
        if (state.size == 0) continue;
        n.state_offset = layout.state_offset[i];
        n.state_size = static_cast<std::uint32_t>(state.size);
        n.state = state.saved_as_bytes ? content::saving::bytes : content::saving::by_node;
    }
    const std::vector<blackboard_key>& keys = layout.board.keys;
    c.keys.resize(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) {
        c.keys[k].name = keys[k].name;
        c.keys[k].type = std::string(keys[k].type_name());
        c.keys[k].kind = kind_of(keys[k]);
        c.keys[k].offset = board_at + layout.board.offsets[k];
    }
    return c;
}

namespace {

bool same_shape(const content& a, const content& b) {
    if (a.block_size != b.block_size || a.stamps_offset != b.stamps_offset ||
        a.left_running_flag != b.left_running_flag || a.nodes.size() != b.nodes.size() ||
        a.keys.size() != b.keys.size())
        return false;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const content::node& x = a.nodes[i];
        const content::node& y = b.nodes[i];
        if (x.type != y.type || x.name != y.name || x.id != y.id ||
            x.subtree_end != y.subtree_end || x.state_offset != y.state_offset ||
            x.state_size != y.state_size || x.state != y.state)
            return false;
    }
    for (std::size_t k = 0; k < a.keys.size(); ++k) {
        const content::key& x = a.keys[k];
        const content::key& y = b.keys[k];
        if (x.name != y.name || x.type != y.type || x.kind != y.kind || x.offset != y.offset)
            return false;
    }
    return true;
}

// ---- Matching a changed tree's nodes (docs/snapshots.md, "Changed trees") ----

std::vector<std::uint32_t> children_of(const content& c, std::uint32_t i) {
    std::vector<std::uint32_t> children;
    for (std::uint32_t k = i + 1; k < c.nodes[i].subtree_end; k = c.nodes[k].subtree_end)
        children.push_back(k);
    return children;
}

bool same_identity(const content::node& a, const content::node& b) {
    return a.type == b.type && a.name == b.name && a.id == b.id;
}

// Whether target node `t` keeps the place of saved node `s`: the same type, the same state,
// and, for a node whose state is about its children (a memory, an index), the same children.
bool keeps(const content& from, std::uint32_t s, const content& to, std::uint32_t t) {
    const content::node& a = from.nodes[s];
    const content::node& b = to.nodes[t];
    if (a.type != b.type || a.state_size != b.state_size || a.state != b.state) return false;
    if (a.state_size == 0) return true;
    const std::vector<std::uint32_t> x = children_of(from, s);
    const std::vector<std::uint32_t> y = children_of(to, t);
    return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                      [&](std::uint32_t p, std::uint32_t q) {
                          return same_identity(from.nodes[p], to.nodes[q]);
                      });
}

// Pairs of children with the same identity, in order: the longest common subsequence, after
// the common ends are taken off (a composite of thousands of children compares its ends only).
std::vector<std::pair<std::uint32_t, std::uint32_t>> align(const content& from,
                                                           const std::vector<std::uint32_t>& x,
                                                           const content& to,
                                                           const std::vector<std::uint32_t>& y) {
    const auto same = [&](std::size_t i, std::size_t j) {
        return same_identity(from.nodes[x[i]], to.nodes[y[j]]);
    };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    std::size_t head = 0;
    while (head < x.size() && head < y.size() && same(head, head)) {
        pairs.emplace_back(x[head], y[head]);
        ++head;
    }
    std::size_t tail = 0;
    while (tail < x.size() - head && tail < y.size() - head &&
           same(x.size() - 1 - tail, y.size() - 1 - tail))
        ++tail;
    const std::size_t n = x.size() - head - tail;
    const std::size_t m = y.size() - head - tail;
    if (n != 0 && m != 0 && n * m <= 1000000) {
        std::vector<std::uint32_t> length((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& {
            return length[i * (m + 1) + j];
        };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = same(head + i, head + j) ? at(i + 1, j + 1) + 1
                                                    : std::max(at(i + 1, j), at(i, j + 1));
        for (std::size_t i = 0, j = 0; i < n && j < m;) {
            if (same(head + i, head + j)) {
                pairs.emplace_back(x[head + i], y[head + j]);
                ++i;
                ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
    }
    for (std::size_t k = tail; k-- > 0;)
        pairs.emplace_back(x[x.size() - 1 - k], y[y.size() - 1 - k]);
    return pairs;
}

void match_below(const content& from, std::uint32_t s, const content& to, std::uint32_t t,
                 std::vector<std::uint32_t>& source) {
    source[t] = s;
    for (const auto& [cs, ct] : align(from, children_of(from, s), to, children_of(to, t))) {
        if (keeps(from, cs, to, ct)) match_below(from, cs, to, ct, source);
    }
}

}  // namespace

/// For each node of `to`, the node of `from` whose status and state it takes, or none.
struct node_map {
    std::vector<std::uint32_t> source;
    bool identity = false;   ///< the same tree, laid out the same: the image copies as it is
    bool same_tree = false;  ///< the same fingerprint: a key of another type is refused
};

node_map map_nodes(const content& from, const content& to, bool allow_changed) {
    node_map map;
    map.same_tree = from.fingerprint == to.fingerprint;
    if (map.same_tree && same_shape(from, to)) {
        map.identity = true;
        return map;
    }
    if (from.fingerprint != to.fingerprint && !allow_changed) {
        refuse("it belongs to tree '" + from.tree_name + "' (fingerprint " + hex(from.fingerprint) +
               "), not to this agent's tree '" + to.tree_name + "' (fingerprint " +
               hex(to.fingerprint) +
               "); restore it with snapshot_match::changed_tree if this tree is a changed version "
               "of that one");
    }
    if (from.nodes.empty() || to.nodes.empty() || from.nodes[0].type != to.nodes[0].type) {
        refuse("it belongs to another tree: its root is a '" +
               (from.nodes.empty() ? std::string() : from.nodes[0].type) + "', this tree's a '" +
               (to.nodes.empty() ? std::string() : to.nodes[0].type) + "'");
    }
    map.source.assign(to.nodes.size(), none);
    if (keeps(from, 0, to, 0)) match_below(from, 0, to, 0, map.source);
    return map;
}

namespace {

// ---- Capturing an agent ----

blackboard board_of(const tree& t, std::byte* block) noexcept {
    return {block + t.layout().blackboard_offset, &t.layout().board};
}

std::string saved_value(const blackboard_key& key, const void* value) {
    if (key.custom->save) return key.custom->save(value);
    return key.custom->to_text(value);
}

}  // namespace

struct snapshot_access {
    static const std::byte* block(const agent& a) noexcept { return a.core_.block; }

    /// The agent's state as a snapshot keeps it, described by `shape` (describe(a.tree())).
    static void capture(const agent& a, const content& shape, unsaved_state unsaved,
                        content::agent_state& out, bool with_keys = true) {
        const tree& t = a.tree();
        const std::byte* block = a.core_.block;
        out.time_ns = a.core_.time_ns;
        out.ticks = a.core_.ticks;
        out.random = a.core_.random;
        out.image.assign(reinterpret_cast<const char*>(block), shape.block_size);
        out.parts.clear();
        // Values that share an array or object (behavior3's) are saved sharing it.
        const value_sharing_scope sharing;
        std::uint32_t restarting_until = 0;  // a branch saved idle, by unsaved_state::restart
        for (std::uint32_t i = 0; i < shape.nodes.size(); ++i) {
            const content::node& n = shape.nodes[i];
            if (n.state != content::saving::by_node) continue;
            std::fill_n(out.image.begin() + n.state_offset, n.state_size, '\0');
            std::string bytes;
            bool saved = false;
            try {
                saved = t.object(i)->save_state(block + n.state_offset, bytes);
            } catch (const std::exception& e) {
                refuse("cannot save the agent: " + node_words(shape, i) +
                       " could not save its state: " + e.what());
            }
            if (saved) {
                out.parts.emplace_back(i, std::move(bytes));
                continue;
            }
            if (i < restarting_until || !runs(static_cast<std::uint8_t>(out.image[i]))) continue;
            if (unsaved == unsaved_state::refuse) {
                refuse("cannot save the agent: " + node_words(shape, i) +
                       " is running and its state cannot be saved (its class does not save it: "
                       "node::save_state); save with unsaved_state::restart to restart that "
                       "branch when the snapshot is restored");
            }
            restarting_until = n.subtree_end;
            std::fill(out.image.begin() + i, out.image.begin() + n.subtree_end, '\0');
        }
        if (!with_keys) return;
        const std::vector<blackboard_key>& keys = t.keys();
        const blackboard board = board_of(t, const_cast<std::byte*>(block));
        for (std::uint32_t k = 0; k < keys.size(); ++k) {
            const content::key& key = shape.keys[k];
            if (plain_width(key.kind) != 0) continue;
            const std::size_t width =
                key.kind == content::key_kind::string ? sizeof(std::string) : keys[k].custom->size;
            std::fill_n(out.image.begin() + key.offset, width, '\0');
            std::string bytes;
            if (key.kind == content::key_kind::string) {
                bytes = std::string(board.get<std::string_view>(k));
            } else {
                try {
                    bytes = saved_value(keys[k], board.address(k));
                } catch (const std::exception& e) {
                    refuse("cannot save blackboard key '" + key.name + "' of type '" + key.type +
                           "': " + e.what());
                }
            }
            out.parts.emplace_back(content::key_part | k, std::move(bytes));
        }
    }

    /// A new block for `t` holding `saved` as `map` places it; the keys from the snapshot, or,
    /// when an agent moves in place, copied from its blackboard `carry_from`.
    static state_block prepare(const tree& t, const content& from, const content& to,
                               const content::agent_state& saved, const node_map& map,
                               const blackboard* carry_from = nullptr) {
        for (std::uint32_t i = 0; i < from.nodes.size(); ++i) {
            if (!is_status_code(static_cast<std::uint8_t>(saved.image[i])))
                refuse(node_words(from, i) + " has no status " +
                       std::to_string(static_cast<unsigned char>(saved.image[i])));
        }
        if (saved.random == 0) refuse("the agent's generator state is 0, which it never is");
        for (const content::key& key : from.keys) {
            if (key.kind == content::key_kind::boolean &&
                static_cast<unsigned char>(saved.image[key.offset]) > 1)
                refuse("blackboard key '" + key.name + "' holds a boolean neither true nor false");
        }
        state_block made(t);
        std::byte* block = made.get();
        const char* image = saved.image.data();
        const bool plain = !has_parts(to);
        if (map.identity && plain && carry_from == nullptr) {
            std::memcpy(block, image, to.block_size);
            return made;
        }
        const value_sharing_scope sharing;  // values saved sharing come back sharing
        std::vector<const std::string*> node_part(from.nodes.size(), nullptr);
        std::vector<const std::string*> key_part(from.keys.size(), nullptr);
        for (const auto& [index, bytes] : saved.parts) {
            if ((index & content::key_part) != 0) {
                key_part[index & ~content::key_part] = &bytes;
            } else {
                node_part[index] = &bytes;
            }
        }
        for (std::uint32_t i = 0; i < to.nodes.size(); ++i) {
            const std::uint32_t s = map.identity ? i : map.source[i];
            if (s == none) continue;
            block[i] = static_cast<std::byte>(image[s]);
            const content::node& n = from.nodes[s];
            const std::uint32_t offset = to.nodes[i].state_offset;
            if (n.state == content::saving::bytes) {
                std::memcpy(block + offset, image + n.state_offset, n.state_size);
            } else if (n.state == content::saving::by_node && node_part[s] != nullptr) {
                try {
                    t.object(i)->restore_state(block + offset, *node_part[s]);
                } catch (const std::exception& e) {
                    refuse(node_words(from, s) + " refused its saved state: " + e.what());
                }
            }
        }
        if (from.left_running_flag != 0 && t.layout().left_running_flag != 0 &&
            image[from.left_running_flag] != 0)
            block[t.layout().left_running_flag] = std::byte{1};
        if (carry_from == nullptr) {
            restore_keys(t, block, from, to, saved, key_part, map);
        } else {
            carry_shared_keys(*carry_from, board_of(t, block));
        }
        return made;
    }

    static void restore_keys(const tree& t, std::byte* block, const content& from,
                             const content& to, const content::agent_state& saved,
                             const std::vector<const std::string*>& key_part, const node_map& map) {
        blackboard board = board_of(t, block);
        const std::vector<blackboard_key>& keys = t.keys();
        const char* image = saved.image.data();
        for (std::uint32_t j = 0; j < to.keys.size(); ++j) {
            const content::key& key = to.keys[j];
            std::uint32_t k = map.identity ? j : none;
            for (std::uint32_t x = 0; k == none && x < from.keys.size(); ++x)
                if (from.keys[x].name == key.name) k = x;
            if (k == none) continue;
            const content::key& was = from.keys[k];
            if (was.type != key.type || was.kind != key.kind) {
                if (!map.same_tree) continue;  // a changed tree: the key starts afresh
                refuse("blackboard key '" + key.name + "' holds " + was.type +
                       " in the snapshot, but " + key.type + " in this tree");
            }
            const std::size_t width = plain_width(key.kind);
            if (width != 0) {
                std::memcpy(block + key.offset, image + was.offset, width);
            } else if (key_part[k] == nullptr) {
                refuse("blackboard key '" + key.name + "' has no saved value");
            } else if (key.kind == content::key_kind::string) {
                try {
                    board.set(j, std::string_view(*key_part[k]));
                } catch (const error& e) {  // a string past the blackboard's limit
                    refuse("blackboard key '" + key.name + "': " + e.what());
                }
            } else {
                restore_value(board, j, keys[j], *key_part[k]);
            }
            if (from.stamps_offset != none && to.stamps_offset != none) {
                std::memcpy(block + to.stamps_offset + std::size_t{4} * j,
                            image + from.stamps_offset + std::size_t{4} * k, 4);
            }
        }
    }

    // Whether a plain or string key holds its initial value (the zero of its type when none).
    static bool holds_initial(const blackboard& board, std::uint32_t slot) {
        const blackboard_key& key = board.keys()[slot];
        const param_value* initial = key.initial ? &*key.initial : nullptr;
        switch (key.type) {
            case param_type::integer: {
                const auto* value =
                    initial != nullptr ? std::get_if<std::int64_t>(initial) : nullptr;
                return board.get<std::int64_t>(slot) == (value != nullptr ? *value : 0);
            }
            case param_type::number: {
                double value = 0;
                if (initial != nullptr) {
                    if (const auto* real = std::get_if<double>(initial)) value = *real;
                    if (const auto* whole = std::get_if<std::int64_t>(initial))
                        value = static_cast<double>(*whole);
                }
                return board.get<double>(slot) == value;
            }
            case param_type::boolean: {
                const auto* value = initial != nullptr ? std::get_if<bool>(initial) : nullptr;
                return board.get<bool>(slot) == (value != nullptr && *value);
            }
            case param_type::string: {
                const auto* value =
                    initial != nullptr ? std::get_if<std::string>(initial) : nullptr;
                return board.get<std::string_view>(slot) ==
                       (value != nullptr ? std::string_view(*value) : std::string_view());
            }
            default: return false;  // a program type's value: kept
        }
    }

    static void restore_value(blackboard& board, std::uint32_t slot, const blackboard_key& key,
                              const std::string& bytes) {
        try {
            if (key.custom->restore) {
                key.custom->restore(board.address(slot), bytes);
            } else {
                const std::shared_ptr<const void> value = key.custom->from_text(bytes);
                key.custom->assign(board.address(slot), value.get());
            }
        } catch (const std::exception& e) {
            refuse("blackboard key '" + key.name + "' of type '" + std::string(key.type_name()) +
                   "' cannot take its saved value: " + e.what());
        }
    }

    /// Gives the agent the block, clock, tick count and generator; frees its old block.
    static void commit(agent& a, state_block& made, const content::agent_state& saved) noexcept {
        state_block::free(*a.tree_, a.core_.block);
        a.core_.block = made.release();
        a.core_.time_ns = saved.time_ns;
        a.core_.ticks = saved.ticks;
        a.core_.random = saved.random;
    }

    /// Overwrites a block of a tree with no parts from an image: the population restore's
    /// path, which allocates nothing.
    static void overwrite(agent& a, const char* record, std::uint32_t block_size) noexcept {
        std::memcpy(&a.core_.time_ns, record, 8);
        std::memcpy(&a.core_.ticks, record + 8, 8);
        std::memcpy(&a.core_.random, record + 16, 8);
        std::memcpy(a.core_.block, record + 24, block_size);
    }
    /// Writes an agent of a tree with no parts as its record: the population's path.
    static void write_plain(const agent& a, char* record, std::uint32_t block_size) noexcept {
        std::memcpy(record, &a.core_.time_ns, 8);
        std::memcpy(record + 8, &a.core_.ticks, 8);
        std::memcpy(record + 16, &a.core_.random, 8);
        std::memcpy(record + 24, a.core_.block, block_size);
    }

    static void move_keeping_place(agent& a, std::shared_ptr<const tree> next);
};

namespace {

// ---- The byte format ----

void write_shape(std::string& out, const content& c) {
    out.append(magic, sizeof magic);
    put(out, c.version);
    put(out, byte_order_mark);
    put(out, c.fingerprint);
    put_text(out, c.tree_name);
    put(out, c.block_size);
    put(out, c.stamps_offset);
    put(out, c.left_running_flag);
    put(out, static_cast<std::uint32_t>(c.nodes.size()));
    for (const content::node& n : c.nodes) {
        put_text(out, n.type);
        put_text(out, n.name);
        put(out, n.id);
        put(out, n.subtree_end);
        put(out, n.state_offset);
        put(out, n.state_size);
        put(out, static_cast<std::uint8_t>(n.state));
    }
    put(out, static_cast<std::uint32_t>(c.keys.size()));
    for (const content::key& k : c.keys) {
        put_text(out, k.name);
        put_text(out, k.type);
        put(out, static_cast<std::uint8_t>(k.kind));
        put(out, k.offset);
    }
}

void write_agent(std::string& out, const content::agent_state& s, bool parts) {
    put(out, s.time_ns);
    put(out, s.ticks);
    put(out, s.random);
    out += s.image;
    if (!parts) return;
    put(out, static_cast<std::uint32_t>(s.parts.size()));
    for (const auto& [index, bytes] : s.parts) {
        put(out, index);
        put_text(out, bytes);
    }
}

// The format's name, version and byte order: what says whether the rest can be read.
std::uint32_t read_shape_start(byte_reader& in) {
    const std::size_t at = in.at();
    if (in.left() < sizeof magic ||
        in.get_bytes(sizeof magic, "the format's name") != std::string_view(magic, sizeof magic))
        byte_reader::fail_at(at, "the format's name", "not a Canopy snapshot");
    const std::size_t version_at = in.at();
    const auto version = in.get<std::uint32_t>("the format version");
    if (version == 0 || version > snapshot_version) {
        byte_reader::fail_at(version_at, "the format version",
                             "version " + std::to_string(version) +
                                 (version == 0 ? " does not exist"
                                               : " is newer than this build reads (" +
                                                     std::to_string(snapshot_version) + ")"));
    }
    if (in.get<std::uint32_t>("the byte order") != byte_order_mark)
        in.fail("the byte order", "saved on a machine of another byte order");
    return version;
}

// The bytes before a snapshot's checksum, once it is found to match.
std::string_view checked(std::string_view bytes) {
    if (bytes.size() < sizeof magic + 8 ||
        bytes.substr(0, sizeof magic) != std::string_view(magic, sizeof magic)) {
        byte_reader in(bytes);
        (void)read_shape_start(in);  // says what is wrong
        in.fail("the checksum", "truncated");
    }
    const std::string_view body = bytes.substr(0, bytes.size() - 8);
    std::uint64_t saved = 0;
    std::memcpy(&saved, bytes.data() + body.size(), 8);
    if (saved != checksum(body)) {
        // A newer format may sum otherwise: say so rather than that the bytes are damaged.
        byte_reader in(body);
        (void)read_shape_start(in);
        throw error(error_code::snapshot,
                    "snapshot: damaged: its checksum does not match its bytes (cut short, or "
                    "changed since it was saved)");
    }
    return body;
}

content read_shape(byte_reader& in) {
    const std::string_view start = in.get_bytes(sizeof magic, "the format's name");
    if (start != std::string_view(magic, sizeof magic))
        in.fail("the format's name", "not a Canopy snapshot");
    content c;
    c.version = in.get<std::uint32_t>("the format version");
    if (c.version == 0 || c.version > snapshot_version) {
        in.fail("the format version",
                "version " + std::to_string(c.version) +
                    (c.version == 0 ? " does not exist"
                                    : " is newer than this build reads (" +
                                          std::to_string(snapshot_version) + ")"));
    }
    if (in.get<std::uint32_t>("the byte order") != byte_order_mark)
        in.fail("the byte order", "saved on a machine of another byte order");
    c.fingerprint = in.get<std::uint64_t>("the tree's fingerprint");
    c.tree_name = std::string(in.get_text("the tree's name"));
    c.block_size = in.get<std::uint32_t>("the state's size");
    c.stamps_offset = in.get<std::uint32_t>("the stamps' place");
    c.left_running_flag = in.get<std::uint32_t>("the left-running flag");
    c.nodes.resize(in.get_count(29, "the node count"));
    if (c.nodes.empty()) in.fail("the node count", "no nodes");
    if (c.nodes.size() > c.block_size) in.fail("the node count", "more nodes than state bytes");
    std::vector<std::uint32_t> open;  // the subtree ends around the node read
    for (std::uint32_t i = 0; i < c.nodes.size(); ++i) {
        content::node& n = c.nodes[i];
        n.type = std::string(in.get_text("a node's type"));
        n.name = std::string(in.get_text("a node's name"));
        n.id = in.get<std::int64_t>("a node's id");
        n.subtree_end = in.get<std::uint32_t>("a node's subtree");
        n.state_offset = in.get<std::uint32_t>("a node's state place");
        n.state_size = in.get<std::uint32_t>("a node's state size");
        const auto saving = in.get<std::uint8_t>("how a node's state is saved");
        while (!open.empty() && open.back() <= i) open.pop_back();
        if (n.subtree_end <= i || n.subtree_end > c.nodes.size() ||
            (!open.empty() && n.subtree_end > open.back()) || (i == 0) != open.empty())
            in.fail("a node's subtree", "node " + std::to_string(i) + "'s subtree is not nested");
        open.push_back(n.subtree_end);
        if (saving > static_cast<std::uint8_t>(content::saving::by_node) ||
            (saving == 0) != (n.state_size == 0) ||
            n.state_offset > c.block_size - std::min(c.block_size, n.state_size) ||
            (n.state_size != 0 && n.state_offset < c.nodes.size()))
            in.fail("a node's state", "node " + std::to_string(i) + "'s state is out of place");
        n.state = static_cast<content::saving>(saving);
    }
    if (c.nodes[0].subtree_end != c.nodes.size())
        in.fail("a node's subtree", "the root is not whole");
    if (c.left_running_flag >= c.block_size ||
        (c.left_running_flag != 0 && c.left_running_flag < c.nodes.size()))
        in.fail("the left-running flag", "out of place");
    c.keys.resize(in.get_count(13, "the key count"));
    for (content::key& k : c.keys) {
        k.name = std::string(in.get_text("a key's name"));
        k.type = std::string(in.get_text("a key's type"));
        const auto kind = in.get<std::uint8_t>("a key's kind");
        k.offset = in.get<std::uint32_t>("a key's place");
        if (kind > static_cast<std::uint8_t>(content::key_kind::custom))
            in.fail("a key's kind", "key '" + k.name + "' has no kind " + std::to_string(kind));
        k.kind = static_cast<content::key_kind>(kind);
        if (k.offset < c.nodes.size() || k.offset > c.block_size ||
            plain_width(k.kind) > c.block_size - k.offset)
            in.fail("a key's place", "key '" + k.name + "' is out of place");
    }
    if (c.stamps_offset != none &&
        (c.stamps_offset > c.block_size || c.keys.size() * 4 > c.block_size - c.stamps_offset))
        in.fail("the stamps' place", "out of place");
    return c;
}

content::agent_state read_agent(byte_reader& in, const content& c, bool parts) {
    content::agent_state s;
    s.time_ns = in.get<std::int64_t>("an agent's clock");
    s.ticks = in.get<std::uint64_t>("an agent's tick count");
    s.random = in.get<std::uint64_t>("an agent's generator");
    s.image = std::string(in.get_bytes(c.block_size, "an agent's state"));
    if (!parts) return s;
    s.parts.resize(in.get_count(8, "an agent's part count"));
    for (auto& [index, bytes] : s.parts) {
        index = in.get<std::uint32_t>("a part's owner");
        const bool key = (index & content::key_part) != 0;
        const std::uint32_t at = index & ~content::key_part;
        const bool fits =
            key ? at < c.keys.size() && plain_width(c.keys[at].kind) == 0
                : at < c.nodes.size() && c.nodes[at].state == content::saving::by_node;
        if (!fits) in.fail("a part's owner", "no node or key takes part " + std::to_string(index));
        bytes = std::string(in.get_text("a part"));
    }
    return s;
}

}  // namespace

void carry_shared_keys(const blackboard& from, blackboard to) {
    const std::vector<blackboard_key>& from_keys = from.keys();
    const std::vector<blackboard_key>& to_keys = to.keys();
    for (std::uint32_t k = 0; k < to_keys.size(); ++k) {
        for (std::uint32_t j = 0; j < from_keys.size(); ++j) {
            if (from_keys[j].name != to_keys[k].name || !from_keys[j].same_type(to_keys[k]))
                continue;
            if (from_keys[j].initial != to_keys[k].initial &&
                snapshot_access::holds_initial(from, j))
                break;
            to.carry(k, from, j);
            break;
        }
    }
}

namespace {

// How agents move from one version of a tree to the next: the same for every agent that does,
// so each thread works it out once per pair of trees, not once per agent.
struct move_plan {
    std::weak_ptr<const tree> old_tree;
    std::weak_ptr<const tree> new_tree;
    content from;
    content to;
    node_map map;
    std::vector<bool> kept;  // per old node: some new node takes its place
};

const move_plan& plan_move(const std::shared_ptr<const tree>& old_tree,
                           const std::shared_ptr<const tree>& new_tree) {
    thread_local move_plan plan;
    if (plan.old_tree.lock() == old_tree && plan.new_tree.lock() == new_tree) return plan;
    plan.old_tree = old_tree;
    plan.new_tree = new_tree;
    plan.from = describe(*old_tree);
    plan.to = describe(*new_tree);
    try {
        plan.map = map_nodes(plan.from, plan.to, true);
    } catch (const error&) {  // another root: every node starts afresh
        plan.map = node_map{};
        plan.map.source.assign(plan.to.nodes.size(), none);
    }
    plan.kept.assign(plan.from.nodes.size(), plan.map.identity);
    for (const std::uint32_t s : plan.map.source)
        if (s != none) plan.kept[s] = true;
    return plan;
}

}  // namespace

void snapshot_access::move_keeping_place(agent& a, std::shared_ptr<const tree> next) {
    try {
        a.check_runnable(*next);
    } catch (...) {
        a.halt_all();
        a.renew_states();
        throw;
    }
    const tree& old = *a.tree_;
    const move_plan& plan = plan_move(a.tree_, next);
    const content& from = plan.from;
    const content& to = plan.to;
    const node_map& map = plan.map;
    const std::vector<bool>& kept = plan.kept;
    // Halts, in the tree moved from, each running node that does not keep its place (or whose
    // state cannot move), so that every enter still meets its exit or halt.
    std::optional<error> failure;
    {
        context ctx(a, a.core_, old, 0);
        const std::uint8_t* code = a.codes();
        for (std::uint32_t i = 0; i < from.nodes.size();) {
            bool stays = !runs(code[i]) || kept[i];
            if (runs(code[i]) && stays && from.nodes[i].state == content::saving::by_node) {
                std::string trial;
                try {
                    stays = old.object(i)->save_state(a.core_.block + from.nodes[i].state_offset,
                                                      trial);
                } catch (const std::exception&) {
                    stays = false;
                }
            }
            if (stays) {
                ++i;
                continue;
            }
            try {
                ctx.clear(i);
            } catch (const error& e) {
                if (!failure) failure = e;
            }
            i = from.nodes[i].subtree_end;
        }
    }
    content::agent_state saved;
    try {
        capture(a, from, unsaved_state::restart, saved, false);
        const blackboard board = board_of(old, a.core_.block);
        state_block made = prepare(*next, from, to, saved, map, &board);
        commit(a, made, saved);
        a.tree_ = std::move(next);
    } catch (const error&) {  // a state or value that would not move: start afresh
        a.halt_all();
        a.switch_to(std::move(next), true);
    }
    if (failure) throw *failure;
}

}  // namespace detail

snapshot_content read_snapshot(std::string_view bytes) {
    detail::byte_reader in(detail::checked(bytes));
    snapshot_content c = detail::read_shape(in);
    const bool parts = detail::has_parts(c);
    c.agents.resize(in.get_count(24 + c.block_size, "the agent count"));
    for (snapshot_content::agent_state& s : c.agents) s = detail::read_agent(in, c, parts);
    if (!in.done()) in.fail("the end", "bytes after the last agent");
    return c;
}

std::string write_snapshot(const snapshot_content& content) {
    std::string out;
    detail::write_shape(out, content);
    detail::put(out, static_cast<std::uint32_t>(content.agents.size()));
    const bool parts = detail::has_parts(content);
    for (const snapshot_content::agent_state& s : content.agents) {
        if (s.image.size() != content.block_size)
            detail::refuse("an agent's image is not the state's size");
        detail::write_agent(out, s, parts);
    }
    detail::put(out, detail::checksum(out));
    return out;
}

void agent::move_to(std::shared_ptr<const canopy::tree> tree) {
    if (!tree) throw error(error_code::invalid_argument, "an agent needs a tree");
    detail::snapshot_access::move_keeping_place(*this, std::move(tree));
}

std::string agent::save(unsaved_state unsaved) const {
    return save_agents(this, 1, unsaved);
}

void agent::restore(std::string_view snapshot, snapshot_match match) {
    restore_agents(this, 1, snapshot, match);
}

std::string save_agents(const agent* agents, std::size_t count, unsaved_state unsaved) {
    std::string out;
    save_agents(agents, count, out, unsaved);
    return out;
}

void save_agents(const agent* agents, std::size_t count, std::string& out, unsaved_state unsaved) {
    if (count == 0) detail::refuse("no agents to save");
    const tree& t = agents[0].tree();
    for (std::size_t k = 1; k < count; ++k) {
        if (&agents[k].tree() != &t)
            detail::refuse("agent " + std::to_string(k) + " runs another tree than agent 0");
    }
    if (count > 0xFFFFFFFFU) detail::refuse("more agents than a snapshot holds");
    const snapshot_content shape = detail::describe(t);
    out.clear();
    detail::write_shape(out, shape);
    detail::put(out, static_cast<std::uint32_t>(count));
    if (!detail::has_parts(shape)) {
        const std::size_t record = 24 + std::size_t{shape.block_size};
        const std::size_t start = out.size();
        out.resize(start + count * record + 8);
        char* at = out.data() + start;
        for (std::size_t k = 0; k < count; ++k, at += record)
            detail::snapshot_access::write_plain(agents[k], at, shape.block_size);
        out.resize(out.size() - 8);
    } else {
        snapshot_content::agent_state state;
        for (std::size_t k = 0; k < count; ++k) {
            detail::snapshot_access::capture(agents[k], shape, unsaved, state);
            detail::write_agent(out, state, true);
        }
    }
    detail::put(out, detail::checksum(out));
}

void restore_agents(agent* agents, std::size_t count, std::string_view bytes,
                    snapshot_match match) {
    const std::string_view snapshot = detail::checked(bytes);
    detail::byte_reader in(snapshot);
    const snapshot_content from = detail::read_shape(in);
    const auto saved_count = in.get<std::uint32_t>("the agent count");
    if (saved_count != count) {
        detail::refuse("it holds " + std::to_string(saved_count) + " agent" +
                       (saved_count == 1 ? "" : "s") + ", not the " + std::to_string(count) +
                       " given");
    }
    if (count == 0) return;
    const tree* target = &agents[0].tree();
    for (std::size_t k = 1; k < count; ++k) {
        if (&agents[k].tree() != target)
            detail::refuse("agent " + std::to_string(k) + " runs another tree than agent 0");
    }
    const snapshot_content to = detail::describe(*target);
    const detail::node_map map = detail::map_nodes(from, to, match == snapshot_match::changed_tree);
    const bool parts = detail::has_parts(from);
    if (map.identity && !parts) {
        // The population's path: check every record, then copy each over its agent's block.
        const std::size_t record = 24 + std::size_t{from.block_size};
        if (in.left() != count * record) {
            in.fail("the agents",
                    in.left() < count * record ? "truncated" : "bytes after the last agent");
        }
        const char* first = snapshot.data() + in.at();
        const auto nodes = static_cast<std::uint32_t>(from.nodes.size());
        for (std::size_t k = 0; k < count; ++k) {
            const auto* at = reinterpret_cast<const std::uint8_t*>(first + k * record);
            std::uint64_t random = 0;
            std::memcpy(&random, at + 16, 8);
            std::uint32_t bad = random == 0 ? 1U : 0U;
            for (std::uint32_t i = 0; i < nodes; ++i) bad |= detail::not_a_status(at[24 + i]);
            if (bad != 0) {
                detail::byte_reader check(snapshot.substr(in.at() + k * record, record));
                const snapshot_content::agent_state s = detail::read_agent(check, from, false);
                (void)detail::snapshot_access::prepare(*target, from, to, s, map);  // says why
            }
        }
        for (std::size_t k = 0; k < count; ++k)
            detail::snapshot_access::overwrite(agents[k], first + k * record, from.block_size);
        return;
    }
    std::vector<snapshot_content::agent_state> states(count);
    for (snapshot_content::agent_state& s : states) s = detail::read_agent(in, from, parts);
    if (!in.done()) in.fail("the end", "bytes after the last agent");
    std::vector<std::optional<detail::state_block>> blocks(count);
    for (std::size_t k = 0; k < count; ++k)
        blocks[k].emplace(detail::snapshot_access::prepare(*target, from, to, states[k], map));
    for (std::size_t k = 0; k < count; ++k)
        detail::snapshot_access::commit(agents[k], *blocks[k], states[k]);
}

}  // namespace canopy
