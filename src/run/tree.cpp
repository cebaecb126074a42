#include "canopy/run/tree.hpp"

namespace canopy {

tree::~tree() = default;

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
    return objects_.empty() ? nullptr : objects_[i];
}

}  // namespace canopy
