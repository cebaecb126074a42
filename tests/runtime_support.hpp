#pragma once
// For the runtime tests: a scripted leaf that logs its calls, and trees from JSON text.

#include <map>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace canopy::testing {

/// What scripted leaves record: their calls, and every broken enter/exit/halt rule.
struct script_log {
    std::vector<std::string> calls;
    std::map<tree::index, bool> open;  // entered and neither exited nor halted
    int violations = 0;
    int enters = 0;
    int finishes = 0;  // exits and halts
    bool keep_calls = true;
};

/// A leaf whose tick results follow its `results` param, one letter a tick (s, f, r, and k for
/// skipped), round and round; it logs to the script_log the agent's host points at.
class script_node final : public stateful_node<std::uint32_t> {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("results", param_type::string)};
    }
    explicit script_node(const param_list& params) : results_(params.get<std::string>("results")) {}

    void enter(context& ctx) const override {
        script_log& log = ctx.host<script_log>();
        if (log.open[ctx.node()]) ++log.violations;
        log.open[ctx.node()] = true;
        ++log.enters;
        record(ctx, "enter");
    }
    status tick(context& ctx) const override {
        std::uint32_t& ticks = state(ctx);
        const char letter = results_[ticks++ % results_.size()];
        if (letter == 'k') return status::skipped;
        return letter == 's' ? status::success : letter == 'f' ? status::failure : status::running;
    }
    void exit(context& ctx, status result) const override {
        close(ctx);
        record(ctx, "exit " + std::string(to_string(result)));
    }
    void halt(context& ctx) const override {
        close(ctx);
        record(ctx, "halt");
    }

private:
    static void close(context& ctx) {
        script_log& log = ctx.host<script_log>();
        if (!log.open[ctx.node()]) ++log.violations;
        log.open[ctx.node()] = false;
        ++log.finishes;
    }
    static void record(context& ctx, const std::string& what) {
        script_log& log = ctx.host<script_log>();
        if (log.keep_calls)
            log.calls.push_back(what + " #" + std::to_string(ctx.tree().record_id(ctx.node())));
    }
    std::string results_;
};

/// Built-ins, the scripted leaf (as "Scripted", id 300) and blackboard keys of each type.
inline registry runtime_registry() {
    registry reg;
    register_builtin_nodes(reg);
    register_behavior3_nodes(reg);
    reg.add<script_node>("Scripted", 300);
    reg.add_key("health", param_type::number);
    reg.add_key("count", param_type::integer);
    reg.add_key("alarm", param_type::boolean);
    return reg;
}

/// A tree from flat JSON records; fails the test on any diagnostic.
inline std::shared_ptr<const tree> runtime_tree(const std::string& json) {
    load_result r = try_load_text(json, file_format::flat_json, runtime_registry(), "t.json");
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

/// A scripted leaf's record (see script_node): `results` one letter a tick.
inline std::string leaf(int id, int parent, const std::string& results) {
    return R"({"id": )" + std::to_string(id) + R"(, "parentId": )" + std::to_string(parent) +
           R"(, "type": "Scripted", "params": {"results": ")" + results + R"("}})";
}

/// A node record in flat JSON; `params` is a JSON object or empty.
inline std::string record(int id, int parent, const std::string& type,
                          const std::string& params = "") {
    return R"({"id": )" + std::to_string(id) + R"(, "parentId": )" + std::to_string(parent) +
           R"(, "type": ")" + type + R"(")" + (params.empty() ? "" : R"(, "params": )" + params) +
           "}";
}

/// A runtime tree (built-ins and Script) from records.
inline std::shared_ptr<const tree> make(const std::vector<std::string>& records) {
    return runtime_tree(testing::json_tree(records));
}

/// The message of the one invalid-param diagnostic that loading these records gives: what a
/// node's creator or check_children refused.
inline std::string refusal(const std::vector<std::string>& records) {
    const load_result r =
        try_load_text(json_tree(records), file_format::flat_json, runtime_registry(), "t.json");
    return only(r, diagnostic_code::invalid_param).message;
}

/// Ticks an agent n times and spells its statuses: "rrs" for running, running, success.
inline std::string run(agent& a, int n, double dt = 0.1) {
    std::string out;
    for (int k = 0; k < n; ++k) out += to_string(a.tick(dt))[0];
    return out;
}

/// The message of the canopy::error (of code `expected`) that one tick throws, or "" if none.
inline std::string tick_error(agent& a, error_code expected = error_code::script, double dt = 0.1) {
    try {
        a.tick(dt);
    } catch (const error& e) {
        CHECK(e.code() == expected);
        return e.what();
    }
    return "";
}

}  // namespace canopy::testing

namespace canopy::testing {

/// Records what every node of an agent goes through, tick by tick: "enter #2",
/// "exit success #2", "halt #3", in the order it happens, record ids after the '#'.
struct call_recorder : observer {
    void on_tick(const agent& a, tree::index node, status before, status result) override {
        const std::string id = " #" + std::to_string(a.tree().record_id(node));
        if (before != status::running) events.push_back("enter" + id);
        if (result != status::running)
            events.push_back("exit " + std::string(to_string(result)) + id);
    }
    void on_halt(const agent& a, tree::index node) override {
        events.push_back("halt #" + std::to_string(a.tree().record_id(node)));
    }
    std::vector<std::string> events;
};

/// One tick of a table-driven node test: the root's status and every node's calls in it.
struct tick_result {
    status root;
    std::vector<std::string> events;
    friend bool operator==(const tick_result& a, const tick_result& b) {
        return a.root == b.root && a.events == b.events;
    }
};

inline std::ostream& operator<<(std::ostream& out, const tick_result& t) {
    out << to_string(t.root) << ":";
    for (const std::string& e : t.events) out << " [" << e << "]";
    return out;
}

/// Ticks an agent n times with time step dt and records each tick's result and calls.
inline std::vector<tick_result> record_ticks(agent& a, int n, double dt = 0.1) {
    call_recorder recorder;
    a.set_observer(&recorder);
    std::vector<tick_result> ticks;
    for (int k = 0; k < n; ++k) {
        recorder.events.clear();
        const status root = a.tick(dt);
        ticks.push_back({root, recorder.events});
    }
    a.set_observer(nullptr);
    return ticks;
}

}  // namespace canopy::testing
