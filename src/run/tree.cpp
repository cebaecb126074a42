#include "canopy/run/tree.hpp"

namespace canopy {

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

const node* tree::object(index i) const {
    return layout_.objects.empty() ? nullptr : layout_.objects[i];
}

}  // namespace canopy
