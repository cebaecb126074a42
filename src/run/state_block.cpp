#include "run/state_block.hpp"

#include <cstring>
#include <new>

#include "canopy/run/blackboard.hpp"

namespace canopy::detail {
namespace {

void destroy_states(const tree_layout& layout, std::byte* block) noexcept {
    for (tree::index k : layout.owning)
        layout.objects[k]->destroy_state(block + layout.state_offset[k]);
}

void construct_states(const tree_layout& layout, std::byte* block) noexcept {
    for (tree::index k : layout.stateful)
        layout.objects[k]->construct_state(block + layout.state_offset[k]);
}

blackboard board_of(const tree_layout& layout, std::byte* block) noexcept {
    return {block + layout.blackboard_offset, &layout.board};
}

}  // namespace

state_block::state_block(const tree& t) : tree_(&t) {
    const tree_layout& layout = t.layout();
    block_ = static_cast<std::byte*>(
        ::operator new(layout.block_size, std::align_val_t(layout.block_align)));
    std::memset(block_, 0, layout.block_size);  // idle statuses, stamps 0
    construct_states(layout, block_);
    try {
        board_of(layout, block_).construct();
    } catch (...) {
        destroy_states(layout, block_);
        ::operator delete(block_, std::align_val_t(layout.block_align));
        throw;
    }
}

void state_block::free(const tree& t, std::byte* block) noexcept {
    if (block == nullptr) return;
    const tree_layout& layout = t.layout();
    destroy_states(layout, block);
    board_of(layout, block).destroy();
    ::operator delete(block, std::align_val_t(layout.block_align));
}

void state_block::renew_states(const tree& t, std::byte* block) noexcept {
    destroy_states(t.layout(), block);
    construct_states(t.layout(), block);
}

}  // namespace canopy::detail
