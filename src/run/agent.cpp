// An agent: its state block over a shared tree, made, reset and freed. The walk over the tree
// is the tick engine's, in canopy/run/context.hpp and src/run/context.cpp.
#include "canopy/run/agent.hpp"

#include <exception>
#include <optional>
#include <string>

#include "canopy/core/error.hpp"
#include "canopy/run/event.hpp"
#include "core/param_text.hpp"
#include "run/key_carry.hpp"
#include "run/node_named.hpp"
#include "run/sleep_access.hpp"
#include "run/state_block.hpp"
#include "run/time_step.hpp"
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

// The one check of an agent's host: actions taking `Host&` then read it without comparing.
void check_host(const tree& t, host_ref host) {
    for (const detail::host_need& need : t.layout().hosts) {
        if (host.type() == need.type) continue;
        const std::string expected = detail::host_type_name(need.type);
        std::string message = "node type '" + need.node_type +
                              "' takes the agent's host as a type of its own, '" + expected +
                              "', and this agent's host ";
        message += host ? "is a '" + detail::host_type_name(host.type()) + "'" : "is missing";
        message += ": give the agent a pointer to a '" + expected + "'";
        throw host_error(message);
    }
}

// The root's result as the program receives it: a root that sees errors may return one, and
// behavior3-ts's tree reports it as failure.
constexpr status root_result(status result) noexcept {
    return result == status::error ? status::failure : result;
}

// A node's error for people: the node named with its location, then the message, unless
// the message names the node already (a condition's or a key's error does), where the
// location is added to its naming.
std::string error_text(const context& ctx, const std::string& message) {
    const tree& t = ctx.tree();
    const std::string named = detail::node_named(ctx);
    const std::string plain = "node " + std::to_string(t.record_id(ctx.node())) + " ('" +
                              std::string(t.type_name(ctx.node())) + "')";
    if (message.compare(0, named.size(), named) == 0) return message;
    if (message.compare(0, plain.size(), plain) == 0) return named + message.substr(plain.size());
    return named + ": " + message;
}

}  // namespace

std::string_view to_string(error_policy policy) noexcept {
    switch (policy) {
        case error_policy::rethrow: return "rethrow";
        case error_policy::fail: return "fail";
        case error_policy::halt: return "halt";
    }
    return "rethrow";
}

// A tick of a tree with nodes that listen while idle: they hear the tick start, and the
// moments of a run that behavior3's tree events name, around the root's tick. Out of line and
// with a context of its own, so that the common tick keeps its context in registers.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
status
agent::tick_telling_listeners(std::int64_t dt_ns) {
    const bool root_was_running = is_running(tree::root);
    context ctx(*this, core_, *tree_, dt_ns);
    try {
        ctx.deliver_agent_event(agent_event::tick);
        if (!root_was_running) ctx.deliver_agent_event(agent_event::run_starting);
        const status result = root_result(ctx.tick(tree::root));
        if (result == status::success || result == status::failure) {
            ctx.deliver_agent_event(agent_event::run_finished);
            ctx.deliver_agent_event(result == status::success ? agent_event::run_succeeded
                                                              : agent_event::run_failed);
        }
        return result;
    } catch (...) {
        return contain_thrown(ctx);
    }
}

agent::agent(std::shared_ptr<const canopy::tree> tree, host_ref host, std::uint64_t seed)
    : tree_(std::move(tree)) {
    if (!tree_) throw error(error_code::invalid_argument, "an agent needs a tree");
    core_.host = host;
    core_.random = mix(seed) | 1;  // xorshift needs a non-zero state
    allocate();
}

agent::agent(const tree_handle& handle, host_ref host, std::uint64_t seed) {
    if (!handle)
        throw error(error_code::invalid_argument, "an agent needs a tree: the handle is empty");
    auto [tree, version] = handle.shared_state()->read();
    tree_ = std::move(tree);
    if (!tree_) throw error(error_code::invalid_argument, "an agent needs a tree");
    core_.host = host;
    core_.random = mix(seed) | 1;
    extras_ = std::make_unique<extras>();
    extras_->handle = handle.shared_state();
    extras_->version = version;
    allocate();
}

agent::agent(agent&& other) noexcept
    : tree_(std::move(other.tree_)), core_(other.core_), extras_(std::move(other.extras_)) {
    other.core_.block = nullptr;
}

agent& agent::operator=(agent&& other) noexcept {
    if (this != &other) {
        release();
        tree_ = std::move(other.tree_);
        core_ = other.core_;
        extras_ = std::move(other.extras_);
        other.core_.block = nullptr;
    }
    return *this;
}

agent::~agent() {
    release();
}

void agent::allocate() {
    check_runnable(*tree_);
    core_.block = detail::state_block(*tree_).release();
}

void agent::check_runnable(const canopy::tree& t) const {
    if (!t.layout().runnable) {
        for (tree::index i = 0; i < t.size(); ++i) {
            if (t.object(i) == nullptr) {
                throw error(error_code::not_runnable,
                            "node type '" + std::string(t.type_name(i)) +
                                "' has no behaviour, so its trees cannot run; register it with "
                                "add_action, add_condition or add<YourNode>, not add_leaf");
            }
        }
    }
    check_host(t, core_.host);
}

void agent::renew_states() {
    detail::state_block::renew_states(*tree_, core_.block);
}

void agent::release() noexcept {
    if (core_.block == nullptr) return;  // moved from: no tree either
    detail::state_block::free(*tree_, core_.block);
    core_.block = nullptr;
}

void agent::set_host(host_ref host) {
    check_host(*tree_, host);
    core_.host = host;
}

void agent::halt() {
    halt_all();
}

void* agent::node_state(tree::index node) noexcept {
    const detail::tree_layout& layout = tree_->layout();
    if (node >= tree_->size() || layout.objects[node] == nullptr ||
        layout.objects[node]->state().size == 0)
        return nullptr;
    return core_.block + layout.state_offset[node];
}

void agent::halt_all() {
    context ctx(*this, core_, *tree_, 0);
    ctx.clear_all(tree::root);
}

// Inline in tick() below, where `sleep` is null, so that an agent outside a world pays nothing for
// the world's reports; sleep_access::tick has its own copy.
inline status agent::tick_ns(std::int64_t dt_ns, detail::sleep_report* sleep) {
    if (extras_ != nullptr) {
        extras_->error.reset();
        if (extras_->handle != nullptr &&
            extras_->handle->version.load(std::memory_order_acquire) != extras_->version) {
            follow_new_tree();
        }
    }
    core_.time_ns += dt_ns;
    ++core_.ticks;
    if (CANOPY_UNLIKELY(!tree_->layout().listeners.empty())) return tick_telling_listeners(dt_ns);
    context ctx(*this, core_, *tree_, dt_ns, sleep);
    // A handler costs the tick nothing until a node throws (table-based unwinding); what
    // follows a throw is out of line, in contain().
    try {
        return root_result(ctx.tick(tree::root));
    } catch (...) {
        return contain_thrown(ctx);
    }
}

agent::extras& agent::more() {
    if (extras_ == nullptr) extras_ = std::make_unique<extras>();
    return *extras_;
}

// Called in tick()'s handler: sorts the exception being handled for contain(). An exception
// that is not a std::exception passes on untouched.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
status
agent::contain_thrown(const context& ctx) {
    try {
        throw;
    } catch (const param_error& e) {
        return contain(ctx, e.what(), e.code(), true);
    } catch (const error& e) {
        return contain(ctx, e.what(), e.code());
    } catch (const std::exception& e) {
        return contain(ctx, e.what(), std::nullopt);
    }
}

status agent::tick(double dt) {
    return tick_ns(detail::time_step_ns(dt, "agent::tick"), nullptr);
}

void detail::refuse_time_step(double dt, const char* caller) {
    throw error(error_code::invalid_argument,
                std::string(caller) + ": dt must be a number of seconds from 0 to a year, not " +
                    detail::value_text(dt));
}

status detail::sleep_access::tick(agent& a, std::int64_t dt_ns, sleep_report& report,
                                  std::int64_t& until) {
    until = sleep_report::awake;
    report.clear();
    const status result = a.tick_ns(dt_ns, &report);
    const detail::tree_layout& layout = a.tree_->layout();
    const bool may_sleep =
        result == status::running && a.core_.watcher == nullptr &&
        (a.extras_ == nullptr || (a.extras_->handle == nullptr && !a.extras_->error)) &&
        layout.listeners.empty() && !layout.abandons;
    if (!may_sleep) return result;
    const std::int64_t said = report.until(layout, a.codes());
    // A time the clock has reached already is the next tick's: no tick to skip.
    if (said > a.core_.time_ns) until = said;
    return result;
}

// Called in a handler of tick(): the context still names the node that threw (each step
// restores the node it entered only when its child returns), and `throw;` passes the
// exception on. behavior3-ts catches what a node throws, reports it and interrupts the tree:
// error_policy::halt does the same, halting the running nodes where behavior3-ts drops them.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
status
agent::contain(const context& ctx, const char* message, std::optional<error_code> code,
               bool names_no_node) {
    node_error& kept = more().error.emplace();
    kept.node = ctx.node();
    kept.tick = core_.ticks;
    kept.code = code;
    kept.message = message;
    kept.text = error_text(ctx, kept.message);
    if (core_.watcher != nullptr) core_.watcher->on_error(*this, kept);
    const canopy::error_policy policy = error_policy();
    if (policy == error_policy::rethrow) {
        // A port's error (param_error) names the node, as those found when the tree is built
        // do; other errors pass on as they were thrown.
        if (names_no_node) throw param_error(kept.text);
        throw;
    }
    try {
        halt_all();
    } catch (const std::exception&) {
        // An _onHalted script or a halt() that fails as well: every node is halted all the
        // same, and the error that stopped the tick is the one the agent reports.
    }
    if (policy == error_policy::halt) return status::idle;
    codes()[tree::root] = static_cast<std::uint8_t>(status::failure);
    return status::failure;
}

void agent::set_error_policy(canopy::error_policy policy) {
    more().policy = policy;
}

canopy::error_policy agent::error_policy() const noexcept {
    if (extras_ != nullptr && extras_->policy) return *extras_->policy;
    return tree_->layout().interrupts_on_error ? error_policy::halt : error_policy::rethrow;
}

const node_error* agent::last_error() const noexcept {
    return extras_ != nullptr && extras_->error ? &*extras_->error : nullptr;
}

const std::string& agent::interruption() const noexcept {
    static const std::string none;
    const node_error* e = last_error();
    return e != nullptr ? e->text : none;
}

void agent::set_observer(observer* o) noexcept {
    if (extras_ != nullptr) extras_->observers.clear();
    core_.watcher = o;
}

void agent::add_observer(observer* o) {
    if (o == nullptr || o == core_.watcher) return;
    if (core_.watcher == nullptr) {
        core_.watcher = o;
        return;
    }
    observer_list& list = more().observers;
    if (core_.watcher != &list) list = observer_list{core_.watcher};
    list.add(o);
    core_.watcher = &list;
}

bool agent::remove_observer(const observer* o) noexcept {
    if (o == nullptr) return false;
    if (core_.watcher == o) {
        core_.watcher = nullptr;
        return true;
    }
    if (extras_ == nullptr || core_.watcher != &extras_->observers) return false;
    observer_list& list = extras_->observers;
    if (!list.remove(o)) return false;
    // One left: the engine calls it directly again.
    if (list.size() <= 1) {
        core_.watcher = list.empty() ? nullptr : list.observers().front();
        list.clear();
    }
    return true;
}

std::vector<observer*> agent::observers() const {
    if (core_.watcher == nullptr) return {};
    if (extras_ != nullptr && core_.watcher == &extras_->observers)
        return extras_->observers.observers();
    return {core_.watcher};
}

std::vector<tree::index> agent::running_path() const {
    std::vector<tree::index> path;
    const std::uint8_t* code = codes();
    const auto size = static_cast<tree::index>(tree_->size());
    constexpr auto running = static_cast<std::uint8_t>(status::running);
    // A node that is not running has no running descendant to show: its subtree is skipped.
    for (tree::index k = 0; k < size;) {
        if (code[k] == running) {
            path.push_back(k);
            ++k;
        } else {
            k = tree_->subtree_end(k);
        }
    }
    return path;
}

void agent::post_event(std::string_view event) {
    post_event(event, event_values{});
}

void agent::post_event(std::string_view event, const event_values& values) {
    if (agent_event::is_own(event)) {
        throw error(error_code::invalid_argument,
                    "agent::post_event: '" + std::string(event) +
                        "' is one of the agent's own events (agent_event); a program's event "
                        "names do not start with 'canopy:'");
    }
    context ctx(*this, core_, *tree_, 0);
    ctx.deliver_event(event, values);
}

void post_event(std::vector<agent>& agents, std::string_view event) {
    post_event(agents, event, event_values{});
}

void post_event(std::vector<agent>& agents, std::string_view event, const event_values& values) {
    // One agent's refusal does not keep the event from the others.
    std::exception_ptr failure;
    for (agent& a : agents) {
        try {
            a.post_event(event, values);
        } catch (const error&) {
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
}

void agent::reset() {
    // An _onHalted that fails still leaves every node halted: the reset completes, then
    // says so.
    std::exception_ptr failure;
    if (!tree_->layout().listeners.empty()) {
        // behavior3's tree events of a clear; a listener's run that fails still lets the
        // reset go on.
        try {
            context ctx(*this, core_, *tree_, 0);
            ctx.deliver_agent_event(agent_event::cleared);
            if (is_running(tree::root)) ctx.deliver_agent_event(agent_event::interrupted);
        } catch (const error&) {
            failure = std::current_exception();
        }
    }
    try {
        halt_all();
    } catch (const error&) {
        if (!failure) failure = std::current_exception();
    }
    core_.time_ns = 0;
    core_.ticks = 0;
    if (const std::uint32_t flag = tree_->layout().left_running_flag) codes()[flag] = 0;
    renew_states();
    if (failure) std::rethrow_exception(failure);
}

void agent::replace_tree(std::shared_ptr<const canopy::tree> tree) {
    if (!tree) throw error(error_code::invalid_argument, "an agent needs a tree");
    halt_all();
    core_.time_ns = 0;
    core_.ticks = 0;
    switch_to(std::move(tree), false);
}

void agent::follow_new_tree() {
    auto [tree, version] = extras_->handle->read();
    extras_->version = version;
    if (tree != tree_) move_to(std::move(tree));
}

tree_handle agent::followed() const {
    if (extras_ == nullptr || extras_->handle == nullptr) return {};
    return tree_handle(extras_->handle);
}

void agent::switch_to(std::shared_ptr<const canopy::tree> tree, bool keep_shared_keys) {
    std::shared_ptr<const canopy::tree> old = std::move(tree_);
    std::byte* old_block = core_.block;
    tree_ = std::move(tree);
    try {
        allocate();
        if (keep_shared_keys) {
            const detail::tree_layout& old_layout = old->layout();
            detail::carry_shared_keys({old_block + old_layout.blackboard_offset, &old_layout.board},
                                      blackboard());
        }
    } catch (...) {  // the tree cannot run, or a value's copy threw: the old block stays
        if (core_.block != old_block) release();
        tree_ = std::move(old);
        core_.block = old_block;
        renew_states();
        throw;
    }
    detail::state_block::free(*old, old_block);
}

canopy::blackboard agent::blackboard() noexcept {
    const detail::tree_layout& layout = tree_->layout();
    return {core_.block + layout.blackboard_offset, &layout.board};
}

status agent::last_status(tree::index node) const noexcept {
    return static_cast<status>(detail::status_of_code(codes()[node]));
}

bool agent::is_running(tree::index node) const noexcept {
    return codes()[node] == static_cast<std::uint8_t>(status::running);
}

std::size_t agent::state_bytes() const noexcept {
    return tree_->layout().block_size;
}

}  // namespace canopy
