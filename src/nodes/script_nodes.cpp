// Script and ScriptCondition: BehaviorTree.CPP's leaves that run a script (docs/scripting.md)
// on the agent's blackboard. The builder compiled the script when it built the tree, so a tick
// looks nothing up by name. Precondition, the decorator that tests a script, is with the other
// decorators.
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/script.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// Runs `code` and succeeds. A script that fails as it runs (a fraction stored in an integer
// key, say) throws canopy::error (code `script`) out of the tick, as BehaviorTree.CPP's does.
class script_action final : public node {
public:
    static constexpr bool runs_scripts_whole = true;
    static std::vector<param_spec> parameters() {
        return {param_spec::required("code", param_type::script)};
    }
    explicit script_action(const param_list& params) : code_(params.script("code")) {}
    status tick(context& ctx) const override {
        code_.run(ctx.blackboard());
        return status::success;
    }

private:
    const script& code_;
};

// Success when `code`'s value is true, else failure.
class script_condition final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("code", param_type::script)};
    }
    explicit script_condition(const param_list& params) : code_(params.script("code")) {}
    status tick(context& ctx) const override {
        return code_.test(ctx.blackboard()) ? status::success : status::failure;
    }

private:
    const script& code_;
};

}  // namespace

void register_script_nodes(registry& reg) {
    reg.add<script_action>("Script", 35);
    node_type condition{"ScriptCondition", 36, arity::leaf, script_condition::parameters(),
                        [](const param_list& params) -> std::unique_ptr<node> {
                            return std::make_unique<script_condition>(params);
                        }};
    condition.condition = true;
    condition.hooks = overridden_hooks<script_condition>();
    reg.add(std::move(condition));
}

}  // namespace canopy::detail
