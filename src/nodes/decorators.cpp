// Not, the repeaters, Retry, ForceSuccess/ForceFailure, Timeout and Cooldown.
#include <limits>
#include <stdexcept>

#include "builtin.hpp"
#include "canopy/context.hpp"

namespace canopy::detail {
namespace {

// In preorder a decorator's one child comes right after it.
tree::index only_child(const context& ctx) {
    return ctx.node() + 1;
}

class invert final : public node {
public:
    invert() : node({}) {}
    status tick(context& ctx) const override {
        switch (ctx.tick(only_child(ctx))) {
            case status::success: return status::failure;
            case status::failure: return status::success;
            default: return status::running;
        }
    }
};

// ForceSuccess and ForceFailure: the child's result once it finishes, replaced.
template <status forced>
class force final : public node {
public:
    force() : node({}) {}
    status tick(context& ctx) const override {
        return ctx.tick(only_child(ctx)) == status::running ? status::running : forced;
    }
};

std::int64_t positive_or_forever(const param_list& params, const char* name) {
    const std::int64_t value = params.get<std::int64_t>(name);
    if (value == 0 || value < -1 || value > std::numeric_limits<std::uint32_t>::max()) {
        throw std::invalid_argument(std::string("'") + name +
                                    "' must be from 1 to 4294967295, or -1 for ever");
    }
    return value;
}

// Repeat (count successes, seed 003's loop) and Retry (count failures): tick the child again,
// within the same tick, until it has finished `count` times with `again`; any other finish
// ends the node with that result. -1 repeats for ever.
template <status again>
class repeat final : public stateful_node<std::uint32_t> {
public:
    explicit repeat(const param_list& params)
        : stateful_node({hook::enter}),
          count_(positive_or_forever(params, again == status::success ? "count" : "attempts")) {}

    void enter(context& ctx) const override { ctx.state<std::uint32_t>() = 0; }

    status tick(context& ctx) const override {
        auto& done = ctx.state<std::uint32_t>();
        for (;;) {
            const status result = ctx.tick(only_child(ctx));
            if (result != again) return result;
            if (count_ != -1 && ++done >= count_) return again;
            // A child that finishes at once is ticked again now; one that runs, next tick.
            if (count_ == -1) return status::running;  // never spin for ever within one tick
        }
    }

private:
    std::int64_t count_;
};

// RepeatUntilSuccess (seed 004) and RepeatUntilFailure: tick the child on every tick until it
// returns `until`, which the node then returns as success.
template <status until>
class repeat_until final : public node {
public:
    repeat_until() : node({}) {}
    status tick(context& ctx) const override {
        return ctx.tick(only_child(ctx)) == until ? status::success : status::running;
    }
};

// Fails, halting the child, once the child has run longer than `seconds` of agent time.
class timeout final : public stateful_node<std::int64_t> {
public:
    explicit timeout(const param_list& params)
        : stateful_node({hook::enter}), seconds_(params.get<double>("seconds")) {
        if (seconds_ < 0) throw std::invalid_argument("'seconds' must not be negative");
    }
    void enter(context& ctx) const override { ctx.state<std::int64_t>() = ctx.time_ns(); }
    status tick(context& ctx) const override {
        if (ctx.time_ns() - ctx.state<std::int64_t>() > seconds_to_ns(seconds_)) {
            ctx.halt(only_child(ctx));
            return status::failure;
        }
        return ctx.tick(only_child(ctx));
    }

private:
    double seconds_;
};

// After its child finishes, either way, fails without ticking it until `seconds` of agent
// time have passed.
class cooldown final : public stateful_node<std::int64_t> {
public:
    explicit cooldown(const param_list& params)
        : stateful_node({}), seconds_(params.get<double>("seconds")) {
        if (seconds_ < 0) throw std::invalid_argument("'seconds' must not be negative");
    }
    void construct_state(void* storage) const override {
        ::new (storage) std::int64_t(std::numeric_limits<std::int64_t>::min());
    }
    status tick(context& ctx) const override {
        auto& ready_at = ctx.state<std::int64_t>();
        if (!ctx.is_running(only_child(ctx)) && ctx.time_ns() < ready_at) {
            return status::failure;
        }
        const status result = ctx.tick(only_child(ctx));
        if (result != status::running) ready_at = ctx.time_ns() + seconds_to_ns(seconds_);
        return result;
    }

private:
    double seconds_;
};

}  // namespace

void register_decorators(registry& reg) {
    reg.add<invert>("Not", 3, arity::decorator);
    reg.add<repeat<status::success>>("Repeat", 10, arity::decorator,
                                     {param_spec::required("count", param_type::integer)});
    reg.add<repeat_until<status::success>>("RepeatUntilSuccess", 11, arity::decorator);
    reg.add<repeat_until<status::failure>>("RepeatUntilFailure", 12, arity::decorator);
    reg.add<repeat<status::failure>>("Retry", 13, arity::decorator,
                                     {param_spec::required("attempts", param_type::integer)});
    reg.add<force<status::success>>("ForceSuccess", 14, arity::decorator);
    reg.add<force<status::failure>>("ForceFailure", 15, arity::decorator);
    reg.add<timeout>("Timeout", 16, arity::decorator,
                     {param_spec::required("seconds", param_type::number)});
    reg.add<cooldown>("Cooldown", 17, arity::decorator,
                      {param_spec::required("seconds", param_type::number)});
    reg.add_alias("Inverter", "Not");
}

}  // namespace canopy::detail
