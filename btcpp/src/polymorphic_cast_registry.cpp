#include "behaviortree_cpp/utils/polymorphic_cast_registry.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <string>

namespace BT {

void PolymorphicCastRegistry::add(Names derived, Names base, CastFunction up, CastFunction down) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const std::type_index from(*derived.first);
    const std::type_index to(*base.first);
    upcasts_[{from, to}] = std::move(up);
    downcasts_[{to, from}] = std::move(down);
    base_types_[from].insert(to);
    types_.emplace(from, derived);
    types_.emplace(to, base);
    ++version_;
}

std::vector<std::type_index> PolymorphicCastRegistry::pathUp(std::type_index from,
                                                             std::type_index to) const {
    // Breadth first from `from` through the bases, remembering how each type was reached.
    std::map<std::type_index, std::type_index> reached_from{{from, from}};
    std::vector<std::type_index> frontier{from};
    for (std::size_t next = 0; next < frontier.size(); ++next) {
        const std::type_index current = frontier[next];
        if (current == to) {
            std::vector<std::type_index> path{to};
            for (std::type_index at = to; at != from; at = reached_from.at(at))
                path.insert(path.begin(), reached_from.at(at));
            return path;
        }
        const auto bases = base_types_.find(current);
        if (bases == base_types_.end()) continue;
        for (const std::type_index& base : bases->second) {
            if (reached_from.emplace(base, current).second) frontier.push_back(base);
        }
    }
    return {};
}

bool PolymorphicCastRegistry::isConvertible(std::type_index from_type,
                                            std::type_index to_type) const {
    if (from_type == to_type) return true;
    std::shared_lock<std::shared_mutex> lock(mutex_);
    // As BehaviorTree.CPP: up through any chain, but down only directly.
    return !pathUp(from_type, to_type).empty() || downcasts_.count({from_type, to_type}) != 0;
}

bool PolymorphicCastRegistry::canUpcast(std::type_index from_type, std::type_index to_type) const {
    if (from_type == to_type) return true;
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return !pathUp(from_type, to_type).empty();
}

Expected<Any> PolymorphicCastRegistry::tryCast(const Any& from, std::type_index from_type,
                                               std::type_index to_type) const {
    if (from_type == to_type) return from;
    std::shared_lock<std::shared_mutex> lock(mutex_);
    try {
        if (const auto up = pathUp(from_type, to_type); !up.empty()) {
            Any value = from;
            for (std::size_t i = 0; i + 1 < up.size(); ++i)
                value = upcasts_.at({up[i], up[i + 1]})(value);
            return value;
        }
        if (const auto down = pathUp(to_type, from_type); !down.empty()) {
            Any value = from;
            for (std::size_t i = down.size() - 1; i > 0; --i)
                value = downcasts_.at({down[i], down[i - 1]})(value);
            return value;
        }
    } catch (const std::exception& e) {
        return nonstd::make_unexpected(
            std::string("Downcast failed (dynamic_pointer_cast returned null): ") + e.what());
    }
    return nonstd::make_unexpected("No registered polymorphic conversion available (from [" +
                                   demangle(from_type) + "] to [" + demangle(to_type) + "])");
}

std::set<std::type_index> PolymorphicCastRegistry::getBaseTypes(std::type_index type) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto found = base_types_.find(type);
    return found != base_types_.end() ? found->second : std::set<std::type_index>();
}

void PolymorphicCastRegistry::clear() {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    upcasts_.clear();
    downcasts_.clear();
    base_types_.clear();
    types_.clear();
    ++version_;
}

std::vector<canopy::type_id> PolymorphicCastRegistry::convertibleTo(canopy::type_id to) const {
    std::vector<canopy::type_id> from;
    std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto target = std::find_if(types_.begin(), types_.end(),
                                     [&](const auto& type) { return type.second.second == to; });
    if (target == types_.end()) return from;
    const std::type_index to_index = target->first;
    for (const auto& [index, names] : types_) {
        if (index != to_index &&
            (!pathUp(index, to_index).empty() || downcasts_.count({index, to_index}) != 0))
            from.push_back(names.second);
    }
    return from;
}

unsigned PolymorphicCastRegistry::version() const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return version_;
}

}  // namespace BT
