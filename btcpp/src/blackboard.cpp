#include "behaviortree_cpp/blackboard.h"

#include <iostream>

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
        return found == scope_.end() ? canopy::blackboard::npos
                                     : tree_->agent().blackboard().find(found->second);
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
        if (auto found = values_.find(key); found != values_.end()) return found->second;
    }
    if (parent_) return parent_->getAnyCopy(key);
    return {};
}

std::shared_ptr<Blackboard::Entry> Blackboard::getEntry(const std::string& key) const {
    if (!key.empty() && key.front() == '@')
        return const_cast<Blackboard*>(this)->root()->getEntry(key.substr(1));
    Any value = getAnyCopy(key);
    if (value.empty()) {
        // A key of the tree's that holds nothing yet still has its entry.
        bool known = false;
        for (const Blackboard* board = this; board != nullptr && !known;
             board = board->parent_.get()) {
            known = board->tree_ != nullptr && board->slotOf(key) != canopy::blackboard::npos;
        }
        if (!known) return nullptr;
    }
    auto entry = std::make_shared<Entry>(
        value.empty() ? PortInfo() : PortInfo(PortDirection::INOUT, value.type(), {}));
    entry->value = std::move(value);
    return entry;
}

void Blackboard::setAny(const std::string& key, const Any& value) {
    store(key, value, false);
}

void Blackboard::setAnyAsIs(const std::string& key, const Any& value) {
    store(key, value, true);
}

void Blackboard::store(const std::string& key, const Any& value, bool as_is) {
    if (!key.empty() && key.front() == '@') return root()->store(key.substr(1), value, as_is);
    if (tree_ != nullptr) {
        std::lock_guard<detail::TreeLock> hold(tree_->lock());
        const std::uint32_t slot = slotOf(key);
        if (slot != canopy::blackboard::npos) {
            const std::string failure = tree_->write_slot(slot, value, as_is);
            if (!failure.empty()) throw RuntimeError("Blackboard::set(", key, "): ", failure);
            return;
        }
    }
    std::lock_guard<std::recursive_mutex> hold(mutex_);
    values_[key] = value;
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
    return {std::shared_ptr<Any>(hold, &found->second), hold};
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
        for (const auto& entry : values_) self->key_names_.push_back(entry.first);
    }
    return {key_names_.begin(), key_names_.end()};
}

void Blackboard::debugMessage() const {
    for (const Shown& key : own_) std::cout << key.name << " (" << key.type << ")" << std::endl;
    {
        std::lock_guard<std::recursive_mutex> hold(mutex_);
        for (const auto& [key, value] : values_)
            std::cout << key << " (" << demangle(value.type()) << ")" << std::endl;
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
    for (StringView key : getKeys()) {
        const std::string name(key);
        dst.setAny(name, getAnyCopy(name));
    }
}

}  // namespace BT
