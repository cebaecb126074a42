// BehaviorTree.CPP 4's nodes about blackboard entries: UnsetBlackboard, WasEntryUpdated,
// SkipUnlessUpdated and WaitValueUpdate. docs/nodes.md gives each one's semantics.
//
// An update is a change of the key's stamp (blackboard::stamp), which every write makes, as
// BehaviorTree.CPP's entries count writes in their sequence_id. Each node keeps, per agent,
// the last stamp it saw; it starts at 0, the stamp of a key never written since the agent was
// made, so a key's initial value is not an update, and a program's write before the first
// tick is.
#include <cstdint>
#include <vector>

#include "canopy/run/context.hpp"
#include "canopy/run/stateful_node.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

std::uint32_t key_param(const param_list& params, std::string_view name) {
    return static_cast<std::uint32_t>(params.get<std::int64_t>(name));
}

// Unsets `key` (blackboard::unset) and succeeds.
class unset_blackboard final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("key", param_type::key)};
    }
    explicit unset_blackboard(const param_list& params) : key_(key_param(params, "key")) {}
    status tick(context& ctx) const override {
        ctx.blackboard().unset(key_);
        return status::success;
    }

private:
    std::uint32_t key_;
};

// Whether the key's stamp differs from the one the node saw last, which it then remembers: an
// unset key has no entry in BehaviorTree.CPP, which answers "not updated" without remembering.
bool updated_since(const blackboard& board, std::uint32_t key, std::uint32_t& seen) {
    if (!board.is_set(key)) return false;
    const std::uint32_t stamp = board.stamp(key);
    const bool updated = stamp != seen;
    seen = stamp;
    return updated;
}

// WasEntryUpdated: success when `entry` was written since the node's last tick, else failure.
class was_entry_updated final : public stateful_node<std::uint32_t> {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("entry", param_type::key)};
    }
    explicit was_entry_updated(const param_list& params) : key_(key_param(params, "entry")) {}
    status tick(context& ctx) const override {
        return updated_since(ctx.blackboard(), key_, state(ctx)) ? status::success
                                                                 : status::failure;
    }

private:
    std::uint32_t key_;
};

// SkipUnlessUpdated (skipped) and WaitValueUpdate (running): tick the child when `entry` was
// written since the node last looked, else return `otherwise`; a running child is ticked on
// without looking.
template <status otherwise>
class entry_updated final : public stateful_node<std::uint32_t> {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("entry", param_type::key)};
    }
    explicit entry_updated(const param_list& params) : key_(key_param(params, "entry")) {}
    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        if (!ctx.is_running(child) && !updated_since(ctx.blackboard(), key_, state(ctx)))
            return otherwise;
        return ctx.tick(child);
    }

private:
    std::uint32_t key_;
};

}  // namespace

void register_blackboard_nodes(registry& reg) {
    reg.add<unset_blackboard>("UnsetBlackboard", 62);
    reg.add<was_entry_updated>("WasEntryUpdated", 63);
    reg.add<entry_updated<status::skipped>>("SkipUnlessUpdated", 49, arity::decorator);
    reg.add<entry_updated<status::running>>("WaitValueUpdate", 50, arity::decorator);
}

}  // namespace canopy::detail
