#pragma once

// BT::Blackboard: the keys and values a tree's nodes share, by name. A tree's blackboard is
// its Canopy agent's, whose keys the tree file and the node types' ports declare; a
// blackboard keeps beside them, by name, what the program sets that the tree has no key
// for. One made with Blackboard::create() before the tree holds what the program sets until
// a tree is made with it (BehaviorTreeFactory::createTree), which then starts from it.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/utils/polymorphic_cast_registry.hpp"

namespace BT {

namespace detail {
class TreeState;
}

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

    template <typename T>
    void set(const std::string& key, const T& value) {
        if constexpr (std::is_same_v<T, Any>) {
            setAny(key, value);
        } else {
            setAny(key, Any(value));
        }
    }
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
    template <typename T>
    Expected<StampedValue<T>> getStamped(const std::string& key) const {
        const Any any = getAnyCopy(key);
        if (any.empty()) return nonstd::make_unexpected(StrCat("Missing key [", key, "]"));
        auto value = tryCastWithPolymorphicFallback<T>(&any);
        if (!value) return nonstd::make_unexpected(value.error());
        return StampedValue<T>{std::move(value).value(), {}};
    }

    /// A key's entry as BehaviorTree.CPP's blackboard keeps it, here a copy made when asked:
    /// its value (empty when the key holds none) and the value's type. Changing it changes
    /// nothing on the blackboard (set and getAnyLocked do).
    struct Entry {
        Any value;
        PortInfo info;
        StringConverter string_converter;
        mutable std::mutex entry_mutex;
        std::uint64_t sequence_id = 0;
        std::chrono::nanoseconds stamp{0};

        explicit Entry(const PortInfo& entry_info) : info(entry_info) {}
        Entry(const Entry&) = delete;
        Entry& operator=(const Entry&) = delete;
    };
    /// The key's entry, or null when the blackboard (or its parents) has no such key: neither
    /// a key of the tree's nor a value the program set.
    [[nodiscard]] std::shared_ptr<Entry> getEntry(const std::string& key) const;

    /// The value of a key, to read or change in place while the result lives.
    [[nodiscard]] AnyPtrLocked getAnyLocked(const std::string& key);
    /// A copy of the key's value, empty when it has none.
    Any getAnyCopy(const std::string& key) const;
    /// Stores `value` in the key: into the tree's key when it has one, converting as a
    /// port's write does, else beside them.
    /// @warning throws RuntimeError when the tree's key cannot hold the value.
    void setAny(const std::string& key, const Any& value);
    void unset(const std::string& key);
    /// The names of the keys that hold a value.
    std::vector<StringView> getKeys() const;
    /// Prints each key and its type, one per line.
    void debugMessage() const;
    void clear();
    /// Copies every key's value into `dst` (BlackboardBackup).
    void cloneInto(Blackboard& dst) const;
    Ptr parent() const { return parent_; }

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
        auto result = any->tryCast<T>();
        if constexpr (is_shared_ptr<T>::value) {
            const PolymorphicCastRegistry* registry = polymorphicCastRegistry();
            if (!result && registry != nullptr) {
                auto cast = registry->tryCast(*any, any->type(), typeid(T));
                if (cast) {
                    if (auto* pointer = cast->castPtr<T>()) return *pointer;
                }
            }
        }
        return result;
    }

protected:
    explicit Blackboard(Ptr parent) : parent_(std::move(parent)) {}

private:
    friend class detail::TreeState;
    friend void ImportBlackboardFromJSON(const nlohmann::json& json, Blackboard& blackboard);

    // setAny, but a key the tree's ports disagree on takes the value whatever its type.
    void setAnyAsIs(const std::string& key, const Any& value);
    void store(const std::string& key, const Any& value, bool as_is);

    template <typename T>
    T castOrThrow(const std::string& key, const Any& any) const {
        auto value = tryCastWithPolymorphicFallback<T>(&any);
        if (!value) {
            throw RuntimeError("Blackboard::get(", key, "): ", value.error());
        }
        return std::move(value).value();
    }
    Blackboard* root();
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
    std::map<std::string, Any> values_;   // the keys the agent lacks
    std::vector<std::string> key_names_;  // what getKeys() last gave
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
