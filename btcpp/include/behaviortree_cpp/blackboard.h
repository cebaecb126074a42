#pragma once

// BT::Blackboard: the keys and values a tree's nodes share, by name. A tree's blackboard is
// its Canopy agent's, whose keys the tree file and the node types' ports declare; a
// blackboard keeps beside them, by name, what the program sets that the tree has no key
// for. One made with Blackboard::create() before the tree holds what the program sets until
// a tree is made with it (BehaviorTreeFactory::createTree), which then starts from it.

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <typeindex>
#include <vector>

#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/utils/polymorphic_cast_registry.hpp"

namespace BT {

namespace detail {
class TreeState;

// BehaviorTree.CPP 4.10's test of a number written into an entry of another numeric type
// (its isCastingSafe): within the target's limits as 4.10 computes them, in the source's
// type, and the same value converted there and back. The limits wrap where the source is the
// narrower: an `int` never goes into an `int64_t` entry there, and so not here either.
template <typename Source, typename Target>
bool valid_cast(Source value) {
    if constexpr (std::is_integral_v<Target> && !std::is_same_v<Target, bool>) {
        constexpr bool max_rounds_up =
            std::is_floating_point_v<Source> &&
            std::numeric_limits<Target>::digits > std::numeric_limits<Source>::digits;
        const auto max_limit = static_cast<Source>(std::numeric_limits<Target>::max());
        const bool over = max_rounds_up ? value >= max_limit : value > max_limit;
        if (over || value < static_cast<Source>(std::numeric_limits<Target>::lowest()))
            return false;
    }
    return static_cast<Source>(static_cast<Target>(value)) == value;
}

template <typename Source>
bool casting_safe(const std::type_index& type, Source value) {
    if (type == typeid(Source)) return true;
    if (type == typeid(std::uint8_t)) return valid_cast<Source, std::uint8_t>(value);
    if (type == typeid(std::uint16_t)) return valid_cast<Source, std::uint16_t>(value);
    if (type == typeid(std::uint32_t)) return valid_cast<Source, std::uint32_t>(value);
    if (type == typeid(std::uint64_t)) return valid_cast<Source, std::uint64_t>(value);
    if (type == typeid(std::int8_t)) return valid_cast<Source, std::int8_t>(value);
    if (type == typeid(std::int16_t)) return valid_cast<Source, std::int16_t>(value);
    if (type == typeid(std::int32_t)) return valid_cast<Source, std::int32_t>(value);
    if (type == typeid(std::int64_t)) return valid_cast<Source, std::int64_t>(value);
    if (type == typeid(float)) return valid_cast<Source, float>(value);
    if (type == typeid(double)) return valid_cast<Source, double>(value);
    return false;
}
}  // namespace detail

/// A value seen in place (getAnyLocked): the tree's blackboards stay locked while it lives.
class AnyPtrLocked {
public:
    /// Stores a value in the entry and gives the value as the entry now holds it.
    using Store = std::function<Any(const Any&)>;

    AnyPtrLocked() = default;
    AnyPtrLocked(std::shared_ptr<Any> value, std::shared_ptr<void> hold, Store store = {})
        : value_(std::move(value)), hold_(std::move(hold)), store_(std::move(store)) {}
    Any* get() const { return value_.get(); }
    Any* operator->() const { return value_.get(); }
    Any& operator*() const { return *value_; }
    explicit operator bool() const { return value_ != nullptr; }
    /// Makes the entry hold `value`.
    template <typename T>
    void assign(const T& value) {
        const Any any(value);
        *value_ = store_ ? store_(any) : any;
    }

private:
    std::shared_ptr<Any> value_;
    std::shared_ptr<void> hold_;  // releases the lock last
    Store store_;
};

class Blackboard {
public:
    using Ptr = std::shared_ptr<Blackboard>;

    /// A blackboard whose keys not found here are looked up in `parent` (BehaviorTree.CPP's
    /// hierarchy: `@key` names a key of the outermost one).
    static Ptr create(Ptr parent = {});
    virtual ~Blackboard();
    Blackboard(const Blackboard&) = delete;
    Blackboard& operator=(const Blackboard&) = delete;

    /// Stores `value` in the key. A key of the tree's takes it as a port's write does. Any
    /// other is an entry as BehaviorTree.CPP keeps it: made by its first value, of no type
    /// yet when that is a std::string, else of the value's type; an entry of no type takes
    /// the type of the next value; a typed entry takes only values of its type, text its
    /// type reads, and numbers its type holds exactly.
    /// @warning throws LogicError for a value a typed entry does not take, and RuntimeError
    /// when the tree's key cannot hold it.
    template <typename T>
    void set(const std::string& key, const T& value) {
        if (!key.empty() && key.front() == '@') return root()->set(key.substr(1), value);
        Any written;
        if constexpr (std::is_same_v<T, Any>) {
            written = value;
        } else {
            written = Any(value);
        }
        if (storeInTree(key, written, false)) return;
        using Written = std::decay_t<T>;  // a string literal's array as a pointer
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        std::shared_ptr<Entry>& entry = values_[key];
        if (!entry) {
            entry = std::make_shared<Entry>(
                std::is_same_v<Written, std::string>
                    ? TypeInfo()
                    : TypeInfo(written.type(), detail::string_converter<Written>()));
        } else if (!entry->info.isStronglyTyped()) {
            entry->info = TypeInfo::Create<Written>();
        } else if (entry->info.type() != typeid(Written) && entry->info.type() != written.type()) {
            bool safe_number = false;
            if constexpr (std::is_arithmetic_v<Written>)
                safe_number = detail::casting_safe(entry->info.type(), Written(value));
            written = convertForEntry(key, *entry, written, typeid(Written),
                                      std::is_constructible_v<StringView, Written>, safe_number);
        }
        std::lock_guard<std::mutex> hold_entry(entry->entry_mutex);
        entry->value = std::move(written);
        stampWrite(*entry);
    }
    /// Makes the key an entry of `info`'s type that holds no value yet (a key of the tree's
    /// is left as it is).
    void createEntry(const std::string& key, const TypeInfo& info);
    /// Whether the key holds a value, then read as T into `value`.
    /// @warning throws RuntimeError when the value is not a T.
    template <typename T>
    bool get(const std::string& key, T& value) const {
        const Any any = getAnyCopy(key);
        if (any.empty()) return false;
        value = castOrThrow<T>(key, any);
        return true;
    }
    /// @warning throws RuntimeError for a key without a value or not a T.
    template <typename T>
    T get(const std::string& key) const {
        const Any any = getAnyCopy(key);
        if (any.empty()) {
            throw RuntimeError("Blackboard::get() error. Missing key [", key, "]");
        }
        return castOrThrow<T>(key, any);
    }
    /// The key's value and when it was written last.
    template <typename T>
    Expected<StampedValue<T>> getStamped(const std::string& key) const {
        StampedValue<T> out{};
        auto stamp = getStamped(key, out.value);
        if (!stamp) return nonstd::make_unexpected(stamp.error());
        out.stamp = *stamp;
        return out;
    }
    /// Reads the key's value into `value`; gives when it was written last.
    template <typename T>
    Expected<Timestamp> getStamped(const std::string& key, T& value) const {
        auto entry = getEntry(key);
        if (!entry) {
            return nonstd::make_unexpected(
                StrCat("Blackboard::getStamped() error. Missing key [", key, "]"));
        }
        std::unique_lock<std::mutex> hold(entry->entry_mutex);
        if (entry->value.empty()) {
            return nonstd::make_unexpected(StrCat("Blackboard::getStamped() error. Entry [", key,
                                                  "] hasn't been initialized, yet"));
        }
        auto cast = tryCastWithPolymorphicFallback<T>(&entry->value);
        if (!cast) return nonstd::make_unexpected(cast.error());
        value = std::move(cast).value();
        return Timestamp{entry->sequence_id, entry->stamp};
    }

    /// A key's entry as BehaviorTree.CPP's blackboard keeps it: its value (empty when the
    /// key holds none), its type, and when it was written. For a key of the tree's, a copy
    /// made when asked (the value's type, and its update count when the tree keeps them):
    /// changing it changes nothing on the blackboard (set and getAnyLocked do).
    struct Entry {
        Any value;
        TypeInfo info;
        StringConverter string_converter;
        mutable std::mutex entry_mutex;
        std::uint64_t sequence_id = 0;
        std::chrono::nanoseconds stamp{0};

        explicit Entry(const TypeInfo& entry_info) : info(entry_info) {}
        Entry(const Entry&) = delete;
        Entry& operator=(const Entry&) = delete;
    };
    /// The key's entry, or null when the blackboard (or its parents) has no such key: neither
    /// a key of the tree's nor a value the program set.
    [[nodiscard]] std::shared_ptr<Entry> getEntry(const std::string& key) const;
    /// The type of the key's entry (getEntry's info), or null when there is no such key.
    [[nodiscard]] std::shared_ptr<const TypeInfo> entryInfo(const std::string& key) const {
        auto entry = getEntry(key);
        if (!entry) return nullptr;
        return {entry, &entry->info};
    }

    /// The value of a key, to read or change in place while the result lives.
    [[nodiscard]] AnyPtrLocked getAnyLocked(const std::string& key);
    /// A copy of the key's value, empty when it has none.
    Any getAnyCopy(const std::string& key) const;
    /// set() of a value held as an Any.
    void setAny(const std::string& key, const Any& value) { set(key, value); }
    void unset(const std::string& key);
    /// The names of the keys that hold a value.
    std::vector<StringView> getKeys() const;
    /// Prints each key and its type, one per line.
    void debugMessage() const;
    void clear();
    /// Copies every key's value into `dst` (BlackboardBackup).
    void cloneInto(Blackboard& dst) const;
    Ptr parent() const { return parent_; }
    /// Makes `internal` here name the parent's key `external` (what a SubTree's port does).
    void addSubtreeRemapping(StringView internal, StringView external);

    std::recursive_mutex& entryMutex() const { return mutex_; }

    /// The casts between shared_ptr types that get() and the nodes' getInput may make
    /// (BehaviorTreeFactory::registerPolymorphicCast); a blackboard without its own uses its
    /// parent's. createTree gives the factory's to the tree's blackboard.
    void setPolymorphicCastRegistry(std::shared_ptr<PolymorphicCastRegistry> registry) {
        polymorphic_registry_ = std::move(registry);
    }
    [[nodiscard]] const PolymorphicCastRegistry* polymorphicCastRegistry() const {
        for (const Blackboard* board = this; board != nullptr; board = board->parent_.get()) {
            if (board->polymorphic_registry_) return board->polymorphic_registry_.get();
        }
        return nullptr;
    }
    /// `any` as T; a shared_ptr of a registered derived or base type cast to T.
    template <typename T>
    [[nodiscard]] Expected<T> tryCastWithPolymorphicFallback(const Any* any) const {
        if constexpr (is_shared_ptr<T>::value) {
            if (const PolymorphicCastRegistry* registry = polymorphicCastRegistry())
                return any->tryCastWithRegistry<T>(*registry);
        }
        return any->tryCast<T>();
    }

protected:
    explicit Blackboard(Ptr parent) : parent_(std::move(parent)) {}

private:
    friend class detail::TreeState;
    friend void ImportBlackboardFromJSON(const nlohmann::json& json, Blackboard& blackboard);

    // setAny, but a key the tree's ports disagree on takes the value whatever its type.
    void setAnyAsIs(const std::string& key, const Any& value);
    // Stores the value in the tree's key, or in the parent's key `key` is remapped to;
    // false when neither has the key.
    bool storeInTree(const std::string& key, const Any& value, bool as_is);
    // A value of another type than a typed entry's, as BehaviorTree.CPP's set() takes it:
    // text its type reads, a number casting_safe found it holds.
    static Any convertForEntry(const std::string& key, const Entry& entry, const Any& value,
                               const std::type_info& written_type, bool text, bool safe_number);
    static void stampWrite(Entry& entry);
    // Keeps a value the tree's key held, once the tree is gone.
    void keep(const std::string& key, Any value);

    template <typename T>
    T castOrThrow(const std::string& key, const Any& any) const {
        auto value = tryCastWithPolymorphicFallback<T>(&any);
        if (!value) {
            throw RuntimeError("Blackboard::get(", key, "): ", value.error());
        }
        return std::move(value).value();
    }
    Blackboard* root();
    const Blackboard* root() const { return const_cast<Blackboard*>(this)->root(); }
    // The agent's slot of a key as this blackboard names it, or none.
    std::uint32_t slotOf(const std::string& key) const;

    // One key of a tree's blackboard as this blackboard shows it: its name here, the agent's
    // name for it, and the C++ type its first port gave it.
    struct Shown {
        std::string name;
        std::string agent_name;
        std::string type;
    };
    // A key of a subtree's blackboard that is its user's key, by that tree's name.
    struct Remapped {
        std::string name;
        std::string parent_name;
        std::string type;
    };

    Ptr parent_;
    std::shared_ptr<PolymorphicCastRegistry> polymorphic_registry_;
    std::map<std::string, std::shared_ptr<Entry>> values_;  // the keys the agent lacks
    std::map<std::string, std::string> external_;           // addSubtreeRemapping
    std::vector<std::string> key_names_;                    // what getKeys() last gave
    mutable std::recursive_mutex mutex_;
    detail::TreeState* tree_ = nullptr;  // the tree whose agent holds its keys, if any
    // A subtree's blackboard sees only the keys its nodes name (scoped_), each by the agent's
    // name for it: its own, and its user's that it remaps. A main tree's sees the agent's
    // keys but those private to a subtree.
    bool scoped_ = false;
    std::map<std::string, std::string> scope_;  // name here -> agent's name
    std::vector<Shown> own_;                    // newest first, as debugMessage lists them
    std::vector<Remapped> remapped_;            // as the SubTree wrote them
};

}  // namespace BT

// ExportBlackboardToJSON and ImportBlackboardFromJSON, which programs reach through this header.
#include "behaviortree_cpp/json_export.h"
