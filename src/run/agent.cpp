// An agent: its state block over a shared tree, made, reset and freed. The walk over the tree
// is the tick engine's, in canopy/run/context.hpp and src/run/context.cpp.
#include "canopy/run/agent.hpp"

#include <cstring>
#include <new>
#include <string>

#include "canopy/core/error.hpp"
#include "core/param_text.hpp"
#include "run/tree_handle_state.hpp"

namespace canopy {
namespace {

std::uint64_t mix(std::uint64_t seed) {
    // splitmix64: a well-spread first state from any seed, 0 included.
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

agent::agent(std::shared_ptr<const canopy::tree> tree, void* host, std::uint64_t seed)
    : tree_(std::move(tree)),
      host_(host),
      random_(mix(seed) | 1) {  // xorshift needs a non-zero state
    if (!tree_) throw error(error_code::invalid_argument, "an agent needs a tree");
    allocate();
}

agent::agent(const tree_handle& handle, void* host, std::uint64_t seed)
    : host_(host), random_(mix(seed) | 1) {
    if (!handle)
        throw error(error_code::invalid_argument, "an agent needs a tree: the handle is empty");
    auto [tree, version] = handle.shared_->read();
    tree_ = std::move(tree);
    if (!tree_) throw error(error_code::invalid_argument, "an agent needs a tree");
    follow_ = std::make_unique<following>(following{handle.shared_, version});
    allocate();
}

agent::agent(agent&& other) noexcept
    : tree_(std::move(other.tree_)),
      block_(other.block_),
      host_(other.host_),
      observer_(other.observer_),
      time_ns_(other.time_ns_),
      random_(other.random_),
      follow_(std::move(other.follow_)) {
    other.block_ = nullptr;
}

agent& agent::operator=(agent&& other) noexcept {
    if (this != &other) {
        release();
        tree_ = std::move(other.tree_);
        block_ = other.block_;
        host_ = other.host_;
        observer_ = other.observer_;
        time_ns_ = other.time_ns_;
        random_ = other.random_;
        follow_ = std::move(other.follow_);
        other.block_ = nullptr;
    }
    return *this;
}

agent::~agent() {
    release();
}

void agent::allocate() {
    const canopy::tree& t = *tree_;
    if (!t.runnable_) {
        for (tree::index i = 0; i < t.size(); ++i) {
            if (t.object(i) == nullptr) {
                throw error(error_code::not_runnable,
                            "node type '" + std::string(t.type_name(i)) +
                                "' has no behaviour, so its trees cannot run; register it with "
                                "add_action, add_condition or add<YourNode>, not add_leaf");
            }
        }
    }
    block_ =
        static_cast<std::byte*>(::operator new(t.block_size_, std::align_val_t(t.block_align_)));
    std::memset(block_, 0, t.block_size_);  // idle statuses
    construct_states();
    blackboard().initialize();
}

void agent::construct_states() {
    const canopy::tree& t = *tree_;
    for (tree::index k : t.stateful_) t.objects_[k]->construct_state(block_ + t.state_offset_[k]);
}

void agent::release() noexcept {
    if (block_ != nullptr) {
        ::operator delete(block_, std::align_val_t(tree_->block_align_));
        block_ = nullptr;
    }
}

status agent::tick(double dt) {
    constexpr double longest_step = 365.0 * 24 * 3600;  // keeps the clock far from overflow
    if (!(dt >= 0.0 && dt <= longest_step)) {           // NaN fails both
        throw error(error_code::invalid_argument,
                    "agent::tick: dt must be a number of seconds from 0 to a year, not " +
                        detail::value_text(dt));
    }
    // Rounded to the nearest nanosecond; dt is not negative, so adding a half and truncating
    // rounds as std::llround would (but for ties too close to tell apart), without its library
    // call on every agent tick.
    // NOLINTNEXTLINE(bugprone-incorrect-roundings)
    const auto dt_ns = static_cast<std::int64_t>(dt * 1e9 + 0.5);
    if (follow_ != nullptr &&
        follow_->handle->version.load(std::memory_order_acquire) != follow_->version) {
        follow_new_tree();
    }
    time_ns_ += dt_ns;
    context ctx(*this, dt_ns);
    return ctx.tick(tree::root);
}

void agent::reset() {
    context ctx(*this, 0);
    ctx.halt_subtree(tree::root);
    time_ns_ = 0;
    construct_states();
}

void agent::replace_tree(std::shared_ptr<const canopy::tree> tree) {
    if (!tree) throw error(error_code::invalid_argument, "an agent needs a tree");
    reset();
    std::shared_ptr<const canopy::tree> old = std::move(tree_);
    std::byte* old_block = block_;
    tree_ = std::move(tree);
    try {
        allocate();
    } catch (...) {
        tree_ = std::move(old);
        block_ = old_block;
        throw;
    }
    ::operator delete(old_block, std::align_val_t(old->block_align_));
}

void agent::follow_new_tree() {
    auto [tree, version] = follow_->handle->read();
    follow_->version = version;
    if (tree != tree_) move_to(std::move(tree));
}

tree_handle agent::followed() const {
    tree_handle handle;
    if (follow_ != nullptr) handle.shared_ = follow_->handle;
    return handle;
}

namespace {

// Copies the values of the keys two layouts share, by name and type.
void carry_keys(canopy::blackboard from, const std::vector<blackboard_key>& from_keys,
                canopy::blackboard to, const std::vector<blackboard_key>& to_keys) {
    for (std::size_t k = 0; k < to_keys.size(); ++k) {
        for (std::size_t j = 0; j < from_keys.size(); ++j) {
            if (from_keys[j].name != to_keys[k].name || from_keys[j].type != to_keys[k].type)
                continue;
            const auto a = static_cast<std::uint32_t>(j);
            const auto b = static_cast<std::uint32_t>(k);
            switch (to_keys[k].type) {
                case param_type::integer: to.set(b, from.get<std::int64_t>(a)); break;
                case param_type::number: to.set(b, from.get<double>(a)); break;
                case param_type::boolean: to.set(b, from.get<bool>(a)); break;
                default: to.set(b, from.get<std::string_view>(a)); break;
            }
            break;
        }
    }
}

}  // namespace

void agent::move_to(std::shared_ptr<const canopy::tree> tree) {
    if (!tree) throw error(error_code::invalid_argument, "an agent needs a tree");
    {
        context ctx(*this, 0);
        ctx.halt_subtree(tree::root);
    }
    std::shared_ptr<const canopy::tree> old = std::move(tree_);
    std::byte* old_block = block_;
    tree_ = std::move(tree);
    try {
        allocate();
    } catch (...) {
        tree_ = std::move(old);
        block_ = old_block;
        construct_states();
        throw;
    }
    carry_keys({old_block + old->blackboard_offset_, &old->board_}, old->keys(), blackboard(),
               tree_->keys());
    ::operator delete(old_block, std::align_val_t(old->block_align_));
}

canopy::blackboard agent::blackboard() noexcept {
    return {block_ + tree_->blackboard_offset_, &tree_->board_};
}

status agent::last_status(tree::index node) const noexcept {
    return static_cast<status>(codes()[node]);
}

bool agent::is_running(tree::index node) const noexcept {
    return codes()[node] == static_cast<std::uint8_t>(status::running);
}

std::size_t agent::state_bytes() const noexcept {
    return tree_->block_size_;
}

}  // namespace canopy
