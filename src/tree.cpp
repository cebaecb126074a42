#include "canopy/tree.hpp"

namespace canopy {

tree::~tree() = default;

std::string_view tree::describe(index i) const {
    std::uint64_t begin = i == 0 ? 0 : describe_end_[i - 1];
    return std::string_view(text_).substr(begin, describe_end_[i] - begin);
}

std::size_t tree::depth(index i) const {
    std::size_t depth = 0;
    for (index at = parent_[i]; at != no_parent; at = parent_[at]) ++depth;
    return depth;
}

param_list tree::params(index i) const {
    std::uint32_t begin = i == 0 ? 0 : params_end_[i - 1];
    return {params_.data() + begin, params_end_[i] - begin};
}

const node* tree::object(index i) const {
    return objects_.empty() ? nullptr : objects_[i].get();
}

}  // namespace canopy
