// The tick engine: one agent's walk over its shared tree, keeping all it changes in the
// agent's state block. Its inner step is inline in canopy/run/context.hpp; what runs less often
// (halting, the observed step, the context's accessors) is here.
#include "canopy/run/context.hpp"

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/observer.hpp"

namespace canopy {
namespace {

constexpr auto idle_code = static_cast<std::uint8_t>(status::idle);

}  // namespace

std::uint64_t context::random() const noexcept {
    // xorshift64*: one multiply per number, no allocation, plenty for picking children.
    std::uint64_t& x = core_->random;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545f4914f6cdd1dULL;
}

void context::throw_host_mismatch() const {
    throw host_error("node " + std::to_string(tree_->record_id(node_)) + " ('" +
                     std::string(tree_->type_name(node_)) + "') asked for the agent's host as " +
                     (core_->host ? "a type it is not" : "an object, but the agent has none") +
                     ": make the agent with a pointer to the host's own type");
}

// In reverse preorder every descendant comes before its ancestors, so children are halted
// before their parents. Finished nodes in the subtree become idle too.
void context::halt_subtree(tree::index node) {
    const tree::index outer = node_;
    std::uint8_t* code = codes();
    for (tree::index k = layout_->subtree_end[node]; k-- > node;) {
        if (code[k] != static_cast<std::uint8_t>(status::running)) {
            code[k] = idle_code;
            continue;
        }
        node_ = k;
        if (uses(k, node::hook::halt)) nodes_[k]->halt(*this);
        code[k] = idle_code;
        if (observer_ != nullptr) observer_->on_halt(*agent_, k);
    }
    node_ = outer;
}

// context::tick with an observer told of each step: rarely taken, so out of line.
status context::tick_observed(tree::index child) {
    return step<true>(child);
}

void context::notify_visit(tree::index node) {
    observer_->on_visit(*agent_, node);
}

void context::notify_tick(tree::index node, bool was_running, status result) {
    // A node that was not running was entered: it comes from idle, whatever it last said.
    observer_->on_tick(*agent_, node, was_running ? status::running : status::idle, result);
}

}  // namespace canopy
