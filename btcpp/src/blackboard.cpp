#include "behaviortree_cpp/blackboard.h"

#include <algorithm>
#include <iostream>
#include <optional>

#include "canopy/run/blackboard.hpp"
#include "tree_state.hpp"

namespace BT {

Blackboard::Ptr Blackboard::create(Ptr parent) {
    return Ptr(new Blackboard(std::move(parent)));
}

Blackboard::~Blackboard() = default;

Blackboard* Blackboard::root() {
    Blackboard* top = this;
    while (top->parent_) top = top->parent_.get();
    return top;
}

std::uint32_t Blackboard::slotOf(const std::string& key) const {
    if (tree_ == nullptr) return canopy::blackboard::npos;
    if (scoped_) {
        auto found = scope_.find(key);
        if (found != scope_.end()) return tree_->agent().blackboard().find(found->second);
        // A remapped key that only a script of the subtree names: its user's key.
        for (const Remapped& remapped : remapped_) {
            if (remapped.name == key && parent_ && parent_->tree_ == tree_)
                return parent_->slotOf(remapped.parent_name);
        }
        return canopy::blackboard::npos;
    }
    // The main tree's blackboard: not a subtree's own keys ("Sub#1/key").
    if (key.find('#') != std::string::npos) return canopy::blackboard::npos;
    return tree_->agent().blackboard().find(key);
}

Any Blackboard::getAnyCopy(const std::string& key) const {
    if (!key.empty() && key.front() == '@') {
        return const_cast<Blackboard*>(this)->root()->getAnyCopy(key.substr(1));
    }
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = slotOf(key);
        if (slot != canopy::blackboard::npos) return tree_->read_slot(slot, false);
    }
    {
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        if (auto found = values_.find(key); found != values_.end()) {
            std::lock_guard<std::mutex> hold_entry(found->second->entry_mutex);
            return found->second->value;
        }
        if (auto remapped = external_.find(key); remapped != external_.end() && parent_)
            return parent_->getAnyCopy(remapped->second);
    }
    if (parent_) return parent_->getAnyCopy(key);
    return {};
}

std::shared_ptr<Blackboard::Entry> Blackboard::getEntry(const std::string& key) const {
    if (!key.empty() && key.front() == '@') return root()->getEntry(key.substr(1));
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = slotOf(key);
        if (slot != canopy::blackboard::npos) {
            // A copy: the agent's slot is the entry.
            Any value = tree_->read_slot(slot, false);
            auto entry =
                std::make_shared<Entry>(value.empty() ? TypeInfo() : TypeInfo(value.type(), {}));
            entry->value = std::move(value);
            entry->sequence_id = tree_->agent().blackboard().stamp(slot);
            return entry;
        }
    }
    {
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        if (auto found = values_.find(key); found != values_.end()) return found->second;
        if (auto remapped = external_.find(key); remapped != external_.end() && parent_)
            return parent_->getEntry(remapped->second);
    }
    if (parent_) return parent_->getEntry(key);
    return nullptr;
}

void Blackboard::createEntry(const std::string& key, const TypeInfo& info) {
    if (!key.empty() && key.front() == '@') return root()->createEntry(key.substr(1), info);
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        if (slotOf(key) != canopy::blackboard::npos) return;
    }
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    std::shared_ptr<Entry>& entry = values_[key];
    if (!entry) entry = std::make_shared<Entry>(info);
}

void Blackboard::addSubtreeRemapping(StringView internal, StringView external) {
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    external_[std::string(internal)] = std::string(external);
    std::string type;
    if (parent_) {
        if (auto entry = parent_->getEntry(std::string(external))) type = entry->info.typeName();
    }
    remapped_.push_back({std::string(internal), std::string(external), type});
}

void Blackboard::setAnyAsIs(const std::string& key, const Any& value) {
    if (!key.empty() && key.front() == '@') return root()->setAnyAsIs(key.substr(1), value);
    if (storeInTree(key, value, true)) return;
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    std::shared_ptr<Entry>& entry = values_[key];
    if (!entry) entry = std::make_shared<Entry>(TypeInfo(value.type(), {}));
    std::lock_guard<std::mutex> hold_entry(entry->entry_mutex);
    entry->value = value;
    stampWrite(*entry);
}

bool Blackboard::storeInTree(const std::string& key, const Any& value, bool as_is) {
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = slotOf(key);
        if (slot != canopy::blackboard::npos) {
            const std::string failure = tree_->write_slot(slot, value, as_is);
            if (!failure.empty()) throw RuntimeError("Blackboard::set(", key, "): ", failure);
            return true;
        }
    }
    std::string external;
    {
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        auto remapped = external_.find(key);
        if (remapped == external_.end() || !parent_) return false;
        external = remapped->second;
    }
    if (as_is) {
        parent_->setAnyAsIs(external, value);
    } else {
        parent_->set(external, value);
    }
    return true;
}

namespace {

template <typename Number>
std::optional<Any> as_number(const Any& value, const std::type_index& type) {
    if (type != typeid(Number)) return std::nullopt;
    if (value.kind() == Any::Kind::Integer)
        return Any(static_cast<Number>(value.cast<std::int64_t>()));
    return Any(static_cast<Number>(value.cast<double>()));
}

// The number as a value of `type`, which detail::casting_safe found holds it.
std::optional<Any> number_as(const Any& value, const std::type_index& type) {
    for (auto convert :
         {&as_number<std::uint8_t>, &as_number<std::uint16_t>, &as_number<std::uint32_t>,
          &as_number<std::uint64_t>, &as_number<std::int8_t>, &as_number<std::int16_t>,
          &as_number<std::int32_t>, &as_number<std::int64_t>, &as_number<float>,
          &as_number<double>}) {
        if (auto out = convert(value, type)) return out;
    }
    return std::nullopt;
}

}  // namespace

Any Blackboard::convertForEntry(const std::string& key, const Entry& entry, const Any& value,
                                const std::type_info& written_type, bool text, bool safe_number) {
    if (text && value.isString()) {
        Any parsed = entry.info.parseString(value.cast<std::string>());
        if (!parsed.empty()) return parsed;
    }
    if (safe_number) {
        if (auto number = number_as(value, entry.info.type())) return *number;
    }
    throw LogicError("Blackboard::set(", key,
                     "): once declared, the type of a port shall not change. Previously "
                     "declared type [",
                     demangle(entry.info.type()), "], current type [", demangle(written_type), "]");
}

void Blackboard::stampWrite(Entry& entry) {
    ++entry.sequence_id;
    entry.stamp = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch());
}

void Blackboard::keep(const std::string& key, Any value) {
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    auto entry = std::make_shared<Entry>(TypeInfo(value.type(), {}));
    entry->value = std::move(value);
    stampWrite(*entry);
    values_[key] = std::move(entry);
}

AnyPtrLocked Blackboard::getAnyLocked(const std::string& key) {
    if (!key.empty() && key.front() == '@') return root()->getAnyLocked(key.substr(1));
    if (tree_ != nullptr) {
        detail::TreeState* tree = tree_;
        tree->lock().lock();
        std::shared_ptr<void> hold(static_cast<void*>(tree), [](void* held) {
            static_cast<detail::TreeState*>(held)->lock().unlock();
        });
        const std::uint32_t slot = slotOf(key);
        if (slot != canopy::blackboard::npos) {
            // The entry, seen in place; empty while it holds no value, which assign gives it.
            AnyPtrLocked::Store store = [tree, slot, key](const Any& value) {
                const std::string failure = tree->write_slot(slot, value);
                if (!failure.empty()) throw RuntimeError("Blackboard::set(", key, "): ", failure);
                return tree->read_slot(slot, true);
            };
            return {std::make_shared<Any>(tree->read_slot(slot, true)), std::move(hold),
                    std::move(store)};
        }
    }
    mutex_.lock();
    std::shared_ptr<void> hold(static_cast<void*>(&mutex_), [](void* held) {
        static_cast<std::recursive_mutex*>(held)->unlock();
    });
    auto found = values_.find(key);
    if (found == values_.end()) return {};
    // The stored value itself, changed in place.
    return {std::shared_ptr<Any>(hold, &found->second->value), hold};
}

void Blackboard::unset(const std::string& key) {
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = slotOf(key);
        if (slot != canopy::blackboard::npos) tree_->agent().blackboard().unset(slot);
    }
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    values_.erase(key);
}

std::vector<StringView> Blackboard::getKeys() const {
    auto* self = const_cast<Blackboard*>(this);
    self->key_names_.clear();
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        for (const Shown& key : own_) {
            const std::uint32_t slot = tree_->agent().blackboard().find(key.agent_name);
            if (slot != canopy::blackboard::npos && !tree_->read_slot(slot, true).empty())
                self->key_names_.push_back(key.name);
        }
    }
    {
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        for (const auto& [name, entry] : values_) self->key_names_.push_back(name);
    }
    return {key_names_.begin(), key_names_.end()};
}

void Blackboard::debugMessage() const {
    for (const Shown& key : own_) std::cout << key.name << " (" << key.type << ")" << std::endl;
    {
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        for (const auto& [key, entry] : values_)
            std::cout << key << " (" << entry->info.typeName() << ")" << std::endl;
    }
    for (const Remapped& key : remapped_) {
        std::cout << "[" << key.name << "] remapped to port of parent tree [" << key.parent_name
                  << "]";
        if (!key.type.empty()) std::cout << " (" << key.type << ")";
        std::cout << std::endl;
    }
}

void Blackboard::clear() {
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    values_.clear();
}

void Blackboard::cloneInto(Blackboard& dst) const {
    std::vector<std::string> names;
    for (StringView key : getKeys()) names.emplace_back(key);
    for (const std::string& name : names) dst.setAny(name, getAnyCopy(name));
    // What dst holds that this does not, it no longer holds, as in BehaviorTree.CPP.
    std::vector<std::string> stale;
    for (StringView key : dst.getKeys()) {
        if (std::find(names.begin(), names.end(), key) == names.end()) stale.emplace_back(key);
    }
    for (const std::string& name : stale) dst.unset(name);
}

}  // namespace BT
