#include "run/sleep_report.hpp"

#include <algorithm>

#include "canopy/core/status.hpp"

namespace canopy::detail {
namespace {

constexpr auto running_code = static_cast<std::uint8_t>(status::running);

bool has_running_child(const tree_layout& layout, const std::uint8_t* codes, tree::index node) {
    const std::uint32_t* subtree_end = layout.subtree_end.data();
    for (tree::index c = node + 1; c < subtree_end[node]; c = subtree_end[c]) {
        if (codes[c] == running_code) return true;
    }
    return false;
}

// A `_while` pre-condition is checked on every tick of a running node (step_with_conditions);
// the others only on a node that is not running, and post-conditions only when it finishes.
bool checks_each_tick(const tree_layout& layout, tree::index node) {
    if ((layout.hooks[node] & conditions_hook) == 0 ||
        (layout.hooks[node] & inline_condition_hook) != 0)
        return false;
    const node_conditions& c = layout.conditions[layout.condition_index[node]];
    return c.pre[node_conditions::while_true] != nullptr;
}

}  // namespace

void sleep_report::note(tree::index node, std::int64_t until) noexcept {
    for (std::size_t k = 0; k < count_; ++k) {
        if (entries_[k].node == node) {
            entries_[k].until = until;
            return;
        }
    }
    if (count_ == capacity) {
        overflowed_ = true;
        return;
    }
    entries_[count_++] = {node, until};
}

void sleep_report::forget(tree::index first, tree::index end) noexcept {
    const entry* kept_end = std::remove_if(entries_, entries_ + count_, [&](const entry& e) {
        return e.node >= first && e.node < end;
    });
    count_ = static_cast<std::size_t>(kept_end - entries_);
}

const sleep_report::entry* sleep_report::find(tree::index node) const noexcept {
    for (std::size_t k = 0; k < count_; ++k) {
        if (entries_[k].node == node) return &entries_[k];
    }
    return nullptr;
}

std::int64_t sleep_report::until(const tree_layout& layout,
                                 const std::uint8_t* codes) const noexcept {
    // A running tree has a running node without a running child, which must have reported:
    // a tick without reports, as every tick of a tree of nodes that never report, ends here.
    if (count_ == 0 || overflowed_ || layout.waits_on_children.size() != layout.size())
        return awake;
    std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
    const std::uint32_t* subtree_end = layout.subtree_end.data();
    // The running nodes in preorder: a node that is not running has none below it.
    for (tree::index k = 0; k < layout.size();) {
        if (codes[k] != running_code) {
            k = subtree_end[k];
            continue;
        }
        if (checks_each_tick(layout, k)) return awake;
        if (const entry* said = find(k)) {
            earliest = std::min(earliest, said->until);
        } else if (layout.waits_on_children[k] == 0 || !has_running_child(layout, codes, k)) {
            return awake;  // it said nothing of its next tick, or has no child to wait on
        }
        ++k;
    }
    return earliest;
}

}  // namespace canopy::detail
