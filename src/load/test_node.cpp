#include "load/test_node.hpp"

#include <cmath>
#include <memory>

#include "builder/scripts.hpp"
#include "canopy/core/error.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/stateful_node.hpp"

namespace canopy::detail {
namespace {

constexpr std::string_view success_script_param = "_test.success_script";
constexpr std::string_view failure_script_param = "_test.failure_script";
constexpr std::string_view post_script_param = "_test.post_script";

struct test_state {
    std::int64_t started_ns = 0;
    bool stuck = false;          // finished running without a delay: running for ever, as there
    status kept = status::idle;  // entered still holding this result (context::kept_result)
};

// BehaviorTree.CPP's TestNode (docs/testing.md): finishes on its first tick, or once
// `delay_ns` of the agent's clock has passed since it started; then its status is the
// script's value or the configured one, and the scripts for it run. Entered with a result
// its parent did not reset (context::kept_result), it returns that result and runs nothing,
// as 4.10's TestNode, a StatefulActionNode, does.
class test_node final : public stateful_node<test_state> {
public:
    test_node(const param_list& params, std::optional<status> result, std::int64_t delay_ns)
        : result_(result),
          delay_ns_(delay_ns),
          status_script_(compiled(params, test_status_script_param)),
          success_script_(compiled(params, success_script_param)),
          failure_script_(compiled(params, failure_script_param)),
          post_script_(compiled(params, post_script_param)) {}

    void enter(context& ctx) const override {
        state(ctx) = {ctx.time_ns(), false, ctx.kept_result()};
    }
    status tick(context& ctx) const override {
        test_state& s = state(ctx);
        if (s.kept != status::idle) return s.kept;
        if (s.stuck || (delay_ns_ > 0 && ctx.time_ns() - s.started_ns < delay_ns_))
            return status::running;
        const blackboard board = ctx.blackboard();
        const status result = status_script_ != nullptr ? scripted(board) : *result_;
        if (result == status::success && success_script_ != nullptr) success_script_->run(board);
        if (result == status::failure && failure_script_ != nullptr) failure_script_->run(board);
        if (post_script_ != nullptr) post_script_->run(board);
        s.stuck = result == status::running && delay_ns_ <= 0;
        return result;
    }

private:
    static const script* compiled(const param_list& params, std::string_view name) {
        const param* found = params.find_param(name);
        return found != nullptr ? found->compiled : nullptr;
    }

    // The status script's value as BehaviorTree.CPP converts it: a whole number that is a
    // status other than IDLE.
    status scripted(const blackboard& board) const {
        if (status_script_->result_type() == param_type::string) {
            throw error(error_code::script,
                        "return_status_script gives a string; give the status by its name "
                        "(SUCCESS, not 'SUCCESS')");
        }
        const double value = status_script_->number(board);
        if (value != std::trunc(value)) {
            throw error(error_code::script,
                        "return_status_script gives " + std::to_string(value) +
                            ", which is not a whole number (Invalid floating point to integer "
                            "conversion)");
        }
        switch (static_cast<long long>(value)) {
            case 1: return status::running;
            case 2: return status::success;
            case 3: return status::failure;
            case 4: return status::skipped;
            default:
                throw error(error_code::script,
                            "TestNode return_status_script resolved to invalid status (integer "
                            "value: " +
                                std::to_string(static_cast<long long>(value)) + ")");
        }
    }

    std::optional<status> result_;
    std::int64_t delay_ns_;
    const script* status_script_;
    const script* success_script_;
    const script* failure_script_;
    const script* post_script_;
};

}  // namespace
}  // namespace canopy::detail

namespace canopy {

node_type make_test_node_type(std::string name, const node_type& original,
                              const test_node_config& config) {
    node_type made;
    made.name = std::move(name);
    made.arity = original.arity;
    made.params = original.params;
    made.condition = original.condition;
    made.hooks = detail::overridden_hooks<detail::test_node>();
    auto add_script = [&](std::string_view param, const std::string& text) {
        if (text.empty()) return;
        param_spec spec = param_spec::script(std::string(param), script_dialect::btcpp);
        spec.default_value = text;
        made.params.push_back(std::move(spec));
    };
    add_script(detail::test_status_script_param, config.return_status_script);
    add_script(detail::success_script_param, config.success_script);
    add_script(detail::failure_script_param, config.failure_script);
    add_script(detail::post_script_param, config.post_script);
    const std::optional<status> result = config.return_status;
    const auto delay_ns = static_cast<std::int64_t>(std::llround(config.async_delay * 1e9));
    made.create = [result, delay_ns](const param_list& params) {
        return std::make_unique<detail::test_node>(params, result, delay_ns);
    };
    return made;
}

}  // namespace canopy

namespace canopy::detail {

node_type replacing_type(std::string name, const node_type& original,
                         const node_type& replacement) {
    node_type made = replacement;
    made.name = std::move(name);
    made.id.reset();
    made.params = original.params;
    made.arity = original.arity;
    return made;
}

}  // namespace canopy::detail
