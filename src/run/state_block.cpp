#include "run/state_block.hpp"

#include "canopy/run/blackboard.hpp"
#include "run/aligned_bytes.hpp"

namespace canopy::detail {
namespace {

void destroy_states(const tree_layout& layout, std::byte* block) noexcept {
    for (tree::index k : layout.owning)
        layout.objects[k]->destroy_state(block + layout.state_offset[k]);
}

// A state's constructor may throw (a State{} that allocates): the states made before it that
// own something are destroyed again, and the error passes on.
void construct_states(const tree_layout& layout, std::byte* block) {
    std::size_t made = 0;
    try {
        for (; made < layout.stateful.size(); ++made) {
            const tree::index k = layout.stateful[made];
            layout.objects[k]->construct_state(block + layout.state_offset[k]);
        }
    } catch (...) {
        // `owning` is the part of `stateful` that needs destroying, in the same order.
        for (tree::index k : layout.owning) {
            if (k >= layout.stateful[made]) break;
            layout.objects[k]->destroy_state(block + layout.state_offset[k]);
        }
        throw;
    }
}

blackboard board_of(const tree_layout& layout, std::byte* block) noexcept {
    return {block + layout.blackboard_offset, &layout.board};
}

}  // namespace

state_block::state_block(const tree& t) : tree_(&t) {
    const tree_layout& layout = t.layout();
    aligned_bytes block = allocate_zeroed(layout.block_size, layout.block_align);  // idle, stamps 0
    construct_states(layout, block.get());
    try {
        board_of(layout, block.get()).construct();
    } catch (...) {
        destroy_states(layout, block.get());
        throw;
    }
    block_ = block.release();
}

void state_block::free(const tree& t, std::byte* block) noexcept {
    if (block == nullptr) return;
    const tree_layout& layout = t.layout();
    destroy_states(layout, block);
    board_of(layout, block).destroy();
    aligned_delete{layout.block_align}(block);
}

void state_block::renew_states(const tree& t, std::byte* block) noexcept {
    destroy_states(t.layout(), block);
    construct_states(t.layout(), block);
}

}  // namespace canopy::detail
