#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "canopy/core/param.hpp"
#include "canopy/core/value_type.hpp"

namespace canopy {

class key_slot;

/// A blackboard key: what nodes and the host may read and write per agent. A program declares
/// keys with registry::add_key; a tree file may declare its own (docs/formats.md).
struct blackboard_key {
    std::string name;
    param_type type = param_type::number;  ///< integer, number, boolean, string or custom
    /// What each agent's value starts as; absent: 0, 0.0, false, "" or a default-made value.
    /// For a custom key, the text its value was read from.
    std::optional<param_value> initial;
    /// Whether the tree's file declares it (a program key it declares again included), so
    /// that writing the tree writes the declaration.
    bool from_file = false;
    /// A custom key's type (registry::add_type); null for the others.
    std::shared_ptr<const value_type> custom = nullptr;
    /// A custom key's initial value, read from `initial` with the type's from_text.
    std::shared_ptr<const void> initial_object = nullptr;
    /// Whether the key holds no value until its first write (blackboard::is_set is false):
    /// BehaviorTree.CPP's entries that a tree makes, which exist from the tick something
    /// writes them. A script that reads it before then fails, as there.
    bool starts_unset = false;
    /// Whether the key is one a script creates (`:=`), or a name a script reads that the
    /// program provides, and starts unset: BehaviorTree.CPP has no entry for it until it is
    /// written, where a port's `{key}` makes an empty one, so `=` to it fails before then.
    bool made_by_script = false;
    /// Whether the key is a name a BehaviorTree.CPP script reads that neither the file nor the
    /// program declares: one the program is expected to provide (docs/btcpp-xml.md).
    bool provided = false;

    /// The name of the key's type: "integer", ..., or the custom type's name.
    std::string_view type_name() const noexcept {
        return custom != nullptr ? std::string_view(custom->name) : to_string(type);
    }
    /// Whether two keys hold the same type of value.
    bool same_type(const blackboard_key& other) const noexcept {
        return type == other.type &&
               (type != param_type::custom || custom->cpp_type == other.custom->cpp_type);
    }
};

/// One agent's blackboard: a typed value per key of its tree, each at a place fixed when the
/// tree was built, so reading or writing by slot does no string lookup. A view: cheap to
/// copy, valid while its agent lives.
///
/// Every value lives in the agent's own state block: integers, numbers and booleans in 8
/// bytes, a string as a std::string (short ones, up to 15 bytes with libstdc++, without an
/// allocation), a custom type as itself, constructed and destroyed with the agent.
///
/// Each key also has an update stamp, which every write changes (BehaviorTree.CPP's
/// sequence_id), and may be unset (UnsetBlackboard): it then reads as its initial value until
/// the next write.
class blackboard {
public:
    /// Where each key of a tree lives in an agent's blackboard; the tree makes it.
    struct layout {
        std::vector<blackboard_key> keys;    ///< in slot order
        std::vector<std::uint32_t> offsets;  ///< per slot: the value's byte offset
        /// Where the per-key update stamps start, or no_stamps in a tree whose nodes read
        /// none (node_type::watches_updates) and whose keys all start set.
        std::uint32_t stamps_offset = no_stamps;
        static constexpr std::uint32_t no_stamps = 0xFFFFFFFF;
        std::size_t bytes = 0;  ///< the blackboard's size
        std::size_t align = alignof(std::int64_t);
        /// Whether values need constructing and destroying (a string or a custom type that
        /// is not trivial); a block of integers, numbers and booleans needs neither.
        bool needs_lifetime = false;

        /// A number no other layout of this process has: what a key_slot remembers its
        /// tree's layout by.
        std::uint64_t serial = 0;

        /// Places `keys` (given in slot order), with an update stamp each if `stamps` or if
        /// a key starts unset, and sets every other member.
        void place(std::vector<blackboard_key> in_slot_order, bool stamps);
    };

    blackboard(std::byte* base, const layout* l) : base_(base), layout_(l) {}

    /// The slot of a key, or npos when the tree has no such key.
    std::uint32_t find(std::string_view name) const noexcept;
    static constexpr std::uint32_t npos = 0xFFFFFFFF;
    /// The slot of a key. A slot number belongs to the tree it came from: after the agent
    /// moves to another version of its tree (a reload), the same number may name another
    /// key. A program that keeps a key across ticks keeps a key_slot.
    /// @warning throws canopy::error for a key the tree does not have.
    std::uint32_t slot(std::string_view name) const;
    /// Which tree's layout this blackboard has (layout::serial).
    std::uint64_t layout_serial() const noexcept { return layout_->serial; }

    /// The value as T: bool for a boolean key, std::int64_t for an integer key, double for a
    /// number or integer key, std::string_view for a string key (valid until the value
    /// changes), or a copy of a custom key's value, whose registered type T is.
    /// @warning throws canopy::error for any other T.
    template <typename T>
    T get(std::uint32_t slot) const;
    /// The value as get<T> gives it, or nothing where get<T> would throw: no such key
    /// (npos, as find() gives it), a key of another type. For a program built without
    /// exceptions (docs/engines.md).
    template <typename T>
    std::optional<T> try_get(std::uint32_t slot) const;
    template <typename T>
    std::optional<T> try_get(std::string_view name) const {
        return try_get<T>(find(name));
    }
    /// A custom key's value, without a copy; valid until the agent is gone.
    /// @warning throws canopy::error if the key's type is not T.
    template <typename T>
    const T& get_ref(std::uint32_t slot) const {
        check_custom(slot, type_id_of<T>());
        return *std::launder(reinterpret_cast<const T*>(at(slot)));
    }
    /// A custom key's value, to change in place (a queue a node pops, say); unlike set, this
    /// leaves the key's stamp as it is.
    /// @warning throws canopy::error if the key's type is not T.
    template <typename T>
    T& get_mutable(std::uint32_t slot) {
        check_custom(slot, type_id_of<T>());
        return *std::launder(reinterpret_cast<T*>(at(slot)));
    }
    /// Stores a value: bool into a boolean key, an integer into an integer or number key, a
    /// floating-point value into a number key, a string into a string key, a T into a custom
    /// key of type T, and any of the first four into a key whose type takes them
    /// (value_type::takes_plain: a BehaviorTree.CPP file's dynamic entry). Changes the key's
    /// stamp and makes it set.
    /// @warning throws canopy::error for any other combination.
    template <typename T>
    void set(std::uint32_t slot, const T& value);

    template <typename T>
    T get(std::string_view name) const {
        return get<T>(slot(name));
    }
    /// get() and set() of a key_slot's key, in whichever tree this blackboard's is.
    template <typename T>
    T get(const key_slot& key) const;
    template <typename T>
    void set(const key_slot& key, const T& value);
    template <typename T>
    void set(std::string_view name, const T& value) {
        set(slot(name), value);
    }

    /// Copies the value of `from_slot` of `from` (maybe this blackboard) into `slot`; the two
    /// keys have the same type (blackboard_key::same_type). Changes the stamp as set does.
    void copy(std::uint32_t slot, const blackboard& from, std::uint32_t from_slot);
    /// Copies as copy() does, and the key's stamp and unset state with the value: what an
    /// agent moving to another tree keeps of the keys both trees have.
    void carry(std::uint32_t slot, const blackboard& from, std::uint32_t from_slot) {
        copy(slot, from, from_slot);
        if (has_stamps()) stamps()[slot] = from.has_stamps() ? from.stamps()[from_slot] : 0;
    }
    /// Stores a registered type's value given by address (a literal the loader read, say):
    /// `type` must be the key's C++ type. Changes the stamp as set does.
    /// @warning throws canopy::error for another type.
    void set_object(std::uint32_t slot, type_id type, const void* value) {
        set_custom(slot, type, value);
    }
    /// Where a custom key's value lives, for code that knows its type only at run time
    /// (through the key's value_type).
    void* address(std::uint32_t slot) const noexcept { return at(slot); }
    /// Whether a custom key's value equals `value`, a value of the key's type; false for a
    /// type without operator==.
    bool equals_object(std::uint32_t slot, const void* value) const {
        const value_type& type = *keys()[slot].custom;
        return type.equal != nullptr && type.equal(at(slot), value);
    }
    /// Whether a key's value equals another key's (of the same type); false for a custom type
    /// without operator==.
    bool equal(std::uint32_t slot, const blackboard& other, std::uint32_t other_slot) const;

    /// The value as text: an integer as an integer, a number in the shortest form that reads
    /// back the same, true or false, a string as it is, a custom value through its to_text.
    std::string text(std::uint32_t slot) const;

    /// A number every write to the key changes, and unset too; 0 until the first. Nodes keep
    /// the last one they saw to tell whether the key was written since.
    /// Kept only in trees with a node type that watches updates (node_type::watches_updates);
    /// always 0 in others.
    std::uint32_t stamp(std::uint32_t slot) const noexcept {
        return has_stamps() ? stamps()[slot] & ~unset_bit : 0;
    }
    /// Whether the key holds a value written or initial, not unset since the last write.
    bool is_set(std::uint32_t slot) const noexcept {
        return !has_stamps() || (stamps()[slot] & unset_bit) == 0;
    }
    /// is_set() of both keys, in one test.
    bool are_set(std::uint32_t first, std::uint32_t second) const noexcept {
        if (!has_stamps()) return true;
        const std::uint32_t* stamp = stamps();
        return ((stamp[first] | stamp[second]) & unset_bit) == 0;
    }
    /// Makes is_set() false and keeps the value: what a BehaviorTree.CPP file's dynamic
    /// entry is when it exists without a value (docs/btcpp-xml.md, "Dynamic entries"). Only in
    /// a tree whose key starts unset (blackboard_key::starts_unset); else it does nothing.
    void mark_empty(std::uint32_t slot) noexcept {
        if (has_stamps()) stamps()[slot] |= unset_bit;
    }
    /// Unsets the key: its value goes back to its initial one, is_set() is false until the
    /// next write, and its stamp changes (in a tree without stamps, only the value changes).
    void unset(std::uint32_t slot);
    /// Whether this tree's agents keep update stamps.
    bool has_stamps() const noexcept { return layout_->stamps_offset != layout::no_stamps; }

    const std::vector<blackboard_key>& keys() const noexcept { return layout_->keys; }
    param_type type(std::uint32_t slot) const noexcept { return layout_->keys[slot].type; }

    /// Constructs every key's value in zeroed storage, from its initial value if it has one.
    /// The runtime calls it when it makes an agent; if a constructor throws, the values
    /// made so far are destroyed.
    void construct();
    /// Destroys every value; the runtime calls it before freeing an agent's block.
    void destroy() noexcept;

private:
    // The bit of a key's update stamp that says it holds no value (is_set() false).
    static constexpr std::uint32_t unset_bit = 0x80000000U;
    [[noreturn]] void wrong_type(std::uint32_t slot, param_type asked) const;
    // A plain value into a key whose type takes them (value_type::takes_plain), else
    // wrong_type.
    void set_plain(std::uint32_t slot, bool value);
    void set_plain(std::uint32_t slot, std::int64_t value);
    void set_plain(std::uint32_t slot, double value);
    void set_plain(std::uint32_t slot, std::string_view value);
    template <typename V, typename Write>
    void write_plain(std::uint32_t slot, V value, Write write, param_type as);
    void check_custom(std::uint32_t slot, type_id asked) const;
    void set_string(std::uint32_t slot, std::string_view value);
    void set_custom(std::uint32_t slot, type_id asked, const void* value);
    void construct_one(std::uint32_t slot);
    std::byte* at(std::uint32_t slot) const noexcept { return base_ + layout_->offsets[slot]; }
    std::uint32_t* stamps() const noexcept {
        return reinterpret_cast<std::uint32_t*>(base_ + layout_->stamps_offset);
    }
    void touch(std::uint32_t slot) noexcept {
        if (!has_stamps()) return;
        std::uint32_t& stamp = stamps()[slot];
        stamp = (stamp + 1) & ~unset_bit;
    }
    std::string& string_at(std::uint32_t slot) const noexcept {
        return *std::launder(reinterpret_cast<std::string*>(at(slot)));
    }
    template <typename V>
    V load(std::uint32_t slot) const noexcept {
        V value;
        std::memcpy(&value, at(slot), sizeof value);
        return value;
    }
    template <typename V>
    void store(std::uint32_t slot, V value) noexcept {
        std::memcpy(at(slot), &value, sizeof value);
        touch(slot);
    }

    std::byte* base_;
    const layout* layout_;
};

/// A blackboard key named once and kept by a program across ticks: it finds its slot in each
/// tree it is used with, so it names the same key after the agent moves to a new version of
/// its tree, whatever order that version declares its keys in. The lookup by name happens
/// once per tree; each use after that costs one comparison. Copyable; usable from several
/// threads at once.
///
///     canopy::key_slot health("health");
///     guard.blackboard().set(health, 10.0);
class key_slot {
public:
    explicit key_slot(std::string name) : name_(std::move(name)) {}
    key_slot(const key_slot& other) : name_(other.name_), cached_(other.cached_.load()) {}
    key_slot& operator=(const key_slot& other) {
        name_ = other.name_;
        cached_ = other.cached_.load();
        return *this;
    }

    /// The key's slot in `board`.
    /// @warning throws canopy::error when board's tree has no key of this name.
    std::uint32_t in(const blackboard& board) const {
        const std::uint64_t cached = cached_.load(std::memory_order_relaxed);
        if ((cached >> slot_bits) == (board.layout_serial() & serial_mask))
            return static_cast<std::uint32_t>(cached & slot_mask);
        const std::uint32_t slot = board.slot(name_);
        if (slot <= slot_mask) {
            cached_.store(((board.layout_serial() & serial_mask) << slot_bits) | slot,
                          std::memory_order_relaxed);
        }
        return slot;
    }
    const std::string& name() const noexcept { return name_; }

private:
    // The layout's serial and the slot in one word, read and written whole.
    static constexpr int slot_bits = 24;
    static constexpr std::uint64_t slot_mask = (std::uint64_t{1} << slot_bits) - 1;
    static constexpr std::uint64_t serial_mask = (std::uint64_t{1} << (64 - slot_bits)) - 1;
    std::string name_;
    mutable std::atomic<std::uint64_t> cached_{0};  // serials start at 1: 0 is no tree
};

template <typename T>
T blackboard::get(const key_slot& key) const {
    return get<T>(key.in(*this));
}
template <typename T>
void blackboard::set(const key_slot& key, const T& value) {
    set(key.in(*this), value);
}

template <typename T>
T blackboard::get(std::uint32_t slot) const {
    const param_type type = this->type(slot);
    if constexpr (std::is_same_v<T, bool>) {
        if (type == param_type::boolean) return load<bool>(slot);
        wrong_type(slot, param_type::boolean);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        if (type == param_type::integer) return load<std::int64_t>(slot);
        wrong_type(slot, param_type::integer);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        if (type != param_type::string) wrong_type(slot, param_type::string);
        return string_at(slot);
    } else if constexpr (std::is_same_v<T, double>) {
        if (type == param_type::number) return load<double>(slot);
        if (type == param_type::integer) return static_cast<double>(load<std::int64_t>(slot));
        wrong_type(slot, param_type::number);
    } else {
        static_assert(!std::is_arithmetic_v<T> && !std::is_same_v<T, std::string>,
                      "blackboard values are bool, std::int64_t, double, std::string_view or a "
                      "type registered with registry::add_type");
        return get_ref<T>(slot);
    }
}

template <typename T>
std::optional<T> blackboard::try_get(std::uint32_t slot) const {
    if (slot >= keys().size()) return std::nullopt;
    const param_type type = this->type(slot);
    if constexpr (std::is_same_v<T, bool>) {
        if (type == param_type::boolean) return load<bool>(slot);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        if (type == param_type::integer) return load<std::int64_t>(slot);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        if (type == param_type::string) return string_at(slot);
    } else if constexpr (std::is_same_v<T, double>) {
        if (type == param_type::number) return load<double>(slot);
        if (type == param_type::integer) return static_cast<double>(load<std::int64_t>(slot));
    } else {
        static_assert(!std::is_arithmetic_v<T> && !std::is_same_v<T, std::string>,
                      "blackboard values are bool, std::int64_t, double, std::string_view or a "
                      "type registered with registry::add_type");
        const value_type* custom = keys()[slot].custom.get();
        if (custom != nullptr && custom->cpp_type == type_id_of<T>())
            return *std::launder(reinterpret_cast<const T*>(at(slot)));
    }
    return std::nullopt;
}

template <typename T>
void blackboard::set(std::uint32_t slot, const T& value) {
    const param_type type = this->type(slot);
    if constexpr (std::is_same_v<T, bool>) {
        if (type != param_type::boolean) return set_plain(slot, value);
        store(slot, value);
    } else if constexpr (std::is_integral_v<T>) {
        if (type == param_type::integer) {
            store(slot, static_cast<std::int64_t>(value));
        } else if (type == param_type::number) {
            store(slot, static_cast<double>(value));
        } else {
            set_plain(slot, static_cast<std::int64_t>(value));
        }
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        set_string(slot, std::string_view(value));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (type != param_type::number) return set_plain(slot, static_cast<double>(value));
        store(slot, static_cast<double>(value));
    } else {
        set_custom(slot, type_id_of<T>(), &value);
    }
}

}  // namespace canopy
