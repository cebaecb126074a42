#pragma once

// BT::PolymorphicCastRegistry: which std::shared_ptr<Derived> a port of std::shared_ptr<Base>
// may read (BehaviorTree.CPP's registerPolymorphicCast). A tree whose input port of
// shared_ptr<Base> names a key that holds shared_ptr<Derived> loads, and getInput and
// Blackboard::get give the pointer cast to Base; a cast down (a port of Derived on a key of
// Base) loads when registered directly and fails at run time when the object is not one.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <shared_mutex>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "behaviortree_cpp/utils/safe_any.hpp"
#include "canopy/core/type_id.hpp"

namespace BT {

namespace detail {
class FactoryState;
}

class PolymorphicCastRegistry {
public:
    /// Casts a value held as one shared_ptr type into another.
    using CastFunction = std::function<Any(const Any&)>;

    PolymorphicCastRegistry() = default;
    PolymorphicCastRegistry(const PolymorphicCastRegistry&) = delete;
    PolymorphicCastRegistry& operator=(const PolymorphicCastRegistry&) = delete;

    /// Lets shared_ptr<Derived> be read as shared_ptr<Base>, and the other way round when
    /// the object is a Derived; through other registered casts too (Sphynx to Cat to Animal).
    template <typename Derived, typename Base>
    void registerCast() {
        static_assert(std::is_base_of_v<Base, Derived>, "Derived must inherit from Base");
        static_assert(std::is_polymorphic_v<Base>,
                      "Base must be polymorphic (have virtual functions)");
        add(
            {&typeid(std::shared_ptr<Derived>), canopy::type_id_of<std::shared_ptr<Derived>>()},
            {&typeid(std::shared_ptr<Base>), canopy::type_id_of<std::shared_ptr<Base>>()},
            [](const Any& from) {
                const auto* derived = from.castPtr<std::shared_ptr<Derived>>();
                if (derived == nullptr) throw std::bad_cast();
                return Any(std::static_pointer_cast<Base>(*derived));
            },
            [](const Any& from) {
                const auto* base = from.castPtr<std::shared_ptr<Base>>();
                auto derived = base != nullptr ? std::dynamic_pointer_cast<Derived>(*base)
                                               : std::shared_ptr<Derived>();
                if (!derived) throw std::bad_cast();
                return Any(std::move(derived));
            });
    }

    /// Whether a port of `to_type` may read a key of `from_type`, as a tree is made: the same
    /// type, a registered cast up (directly or through others), or one directly down.
    [[nodiscard]] bool isConvertible(std::type_index from_type, std::type_index to_type) const;
    /// Whether `from_type` casts up to `to_type`, directly or through other casts.
    [[nodiscard]] bool canUpcast(std::type_index from_type, std::type_index to_type) const;
    /// `from` (a `from_type`) as a `to_type`: up, or down when the object is one.
    [[nodiscard]] Expected<Any> tryCast(const Any& from, std::type_index from_type,
                                        std::type_index to_type) const;
    /// The types `type` casts directly up to.
    [[nodiscard]] std::set<std::type_index> getBaseTypes(std::type_index type) const;
    void clear();

private:
    friend class detail::FactoryState;
    using Edge = std::pair<std::type_index, std::type_index>;
    // A type as BT::Any names it and as Canopy's blackboard does.
    using Names = std::pair<const std::type_info*, canopy::type_id>;

    void add(Names derived, Names base, CastFunction up, CastFunction down);
    // The registered types from `from` up to `to` (both included), or none.
    std::vector<std::type_index> pathUp(std::type_index from, std::type_index to) const;
    // The registered types that a port of `to` may read (isConvertible), `to` aside: what a
    // tree's load lets its input ports read.
    std::vector<canopy::type_id> convertibleTo(canopy::type_id to) const;
    // Changes with every registration, so that a factory knows to check its trees again.
    unsigned version() const;

    mutable std::shared_mutex mutex_;
    std::map<Edge, CastFunction> upcasts_;    // (derived, base)
    std::map<Edge, CastFunction> downcasts_;  // (base, derived)
    std::map<std::type_index, std::set<std::type_index>> base_types_;
    std::map<std::type_index, Names> types_;
    unsigned version_ = 0;
};

template <typename T>
Expected<T> Any::tryCastWithRegistry(const PolymorphicCastRegistry& registry) const {
    auto result = tryCast<T>();
    if (result || empty()) return result;
    auto cast = registry.tryCast(*this, type(), typeid(T));
    if (!cast) return nonstd::make_unexpected(cast.error());
    if (auto* pointer = cast->template castPtr<T>()) return *pointer;
    return result;
}

}  // namespace BT
