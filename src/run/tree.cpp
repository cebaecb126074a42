#include "canopy/run/tree.hpp"

#include <string_view>

#include "core/param_text.hpp"

namespace canopy {
namespace {

// FNV-1a over length-prefixed texts, so that ("ab", "c") and ("a", "bc") differ.
class hasher {
public:
    void add(std::string_view text) noexcept {
        add_number(text.size());
        for (const char c : text) byte(static_cast<unsigned char>(c));
    }
    void add_number(std::uint64_t number) noexcept {
        for (int k = 0; k < 8; ++k) byte(static_cast<unsigned char>(number >> (8 * k)));
    }
    std::uint64_t value() const noexcept { return hash_; }

private:
    void byte(unsigned char c) noexcept {
        hash_ ^= c;
        hash_ *= 1099511628211ULL;
    }
    std::uint64_t hash_ = 14695981039346656037ULL;
};

}  // namespace

tree::tree(detail::tree_parts&& parts)
    : layout_(std::move(parts.layout)),
      parent_(std::move(parts.parent)),
      child_count_(std::move(parts.child_count)),
      type_(std::move(parts.type)),
      owned_objects_(std::move(parts.owned_objects)),
      owned_scripts_(std::move(parts.owned_scripts)),
      record_of_(std::move(parts.record_of)),
      records_(std::move(parts.records)),
      param_values_(std::move(parts.param_values)),
      params_begin_(std::move(parts.params_begin)),
      types_(std::move(parts.types)) {}

tree::~tree() = default;

const script* tree::condition(index i, std::size_t which) const noexcept {
    if ((layout_.hooks[i] & detail::conditions_hook) == 0) return nullptr;
    const detail::node_conditions& c = layout_.conditions[layout_.condition_index[i]];
    return which < pre_condition_count ? c.pre[which] : c.post[which - pre_condition_count];
}

std::size_t tree::depth(index i) const {
    std::size_t depth = 0;
    for (index at = parent_[i]; at != no_parent; at = parent_[at]) ++depth;
    return depth;
}

param_list tree::params(index i) const {
    const std::uint32_t record = record_of_[i];
    return {param_values_.data() + params_begin_[record],
            params_begin_[record + 1] - params_begin_[record]};
}

std::uint64_t tree::fingerprint() const noexcept {
    if (const std::uint64_t known = fingerprint_.value.load(std::memory_order_acquire))
        return known;
    hasher h;
    h.add_number(layout_.fails_as_btcpp ? 1 : 0);
    h.add_number(layout_.interrupts_on_error ? 1 : 0);
    const std::vector<blackboard_key>& all_keys = keys();
    for (const blackboard_key& key : all_keys) {
        h.add(key.name);
        h.add(key.type_name());
        h.add(key.initial ? detail::value_text(*key.initial) : std::string());
        h.add_number(key.starts_unset ? 1 : 0);
    }
    for (index i = 0; i < size(); ++i) {
        h.add(type_name(i));
        h.add(describe(i));
        h.add_number(subtree_end(i) - i);
        for (const param& p : params(i)) {
            h.add(p.name);
            h.add(p.key < all_keys.size() ? "{" + all_keys[p.key].name + "}"
                                          : detail::value_text(p.value));
            h.add_number(p.output ? 1 : 0);
        }
        for (std::size_t which = 0; which < std::size(condition_params); ++which) {
            const script* condition = this->condition(i, which);
            h.add(condition != nullptr ? std::string_view(condition->text()) : std::string_view());
        }
    }
    const std::uint64_t computed = h.value() == 0 ? 1 : h.value();
    fingerprint_.value.store(computed, std::memory_order_release);
    return computed;
}

const node* tree::object(index i) const {
    return layout_.objects.empty() ? nullptr : layout_.objects[i];
}

}  // namespace canopy
