#pragma once
// An agent's state block (canopy/run/agent.hpp): allocated for one tree's layout, status bytes
// zeroed, node states and blackboard values constructed; destroyed and freed as one.

#include <cstddef>

#include "canopy/run/tree.hpp"

namespace canopy::detail {

/// Owns a block until release(): a block whose construction throws, or that is dropped, is
/// destroyed and freed.
class state_block {
public:
    /// @warning throws what a node state's or blackboard value's constructor throws, having
    /// destroyed what it made and freed the block.
    explicit state_block(const tree& t);
    ~state_block() { free(*tree_, block_); }
    state_block(state_block&& other) noexcept : tree_(other.tree_), block_(other.release()) {}
    state_block(const state_block&) = delete;
    state_block& operator=(state_block&&) = delete;
    state_block& operator=(const state_block&) = delete;

    std::byte* get() const noexcept { return block_; }
    std::byte* release() noexcept {
        std::byte* block = block_;
        block_ = nullptr;
        return block;
    }
    /// Destroys the states and values of a block made for `t` and frees it; nothing for null.
    static void free(const tree& t, std::byte* block) noexcept;
    /// Destroys the node states that own something, then constructs every node state anew;
    /// a state constructor that throws here ends the program (node::construct_state).
    static void renew_states(const tree& t, std::byte* block) noexcept;

private:
    const tree* tree_;
    std::byte* block_;
};

}  // namespace canopy::detail
