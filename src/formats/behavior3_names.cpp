// The mapping tables of docs/behavior3.md. Each row was checked against the runtime's source:
// behavior3js 0.2 (src/core/BehaviorTree.js, src/actions, src/decorators) for the classic
// flavour; behavior3-ts (src/behavior3/nodes) and behavior3lua for the nested one.
#include "formats/behavior3_names.hpp"

#include <iterator>

namespace canopy::detail::behavior3 {
namespace {

constexpr arg_rule none{};

// Names the runtimes share with Canopy but that behave otherwise stay apart as
// "behavior3.<name>", so that the loader reports them unknown instead of running Canopy's.
const node_rule rules[] = {
    // behavior3js: Sequence and Priority tick from the first child every tick; the Mem
    // variants resume at the running child.
    // Without children, behavior3js's Sequence loops over none and succeeds; Priority fails.
    {flavour::classic, "Sequence", "ReactiveSequence", none, {}, {}, "AlwaysSuccess"},
    {flavour::classic, "Priority", "ReactiveSelector", none, {}, {}, "AlwaysFailure"},
    {flavour::classic, "MemSequence", "Sequence", none, {}, {}, "AlwaysSuccess"},
    {flavour::classic, "MemPriority", "Selector", none, {}, {}, "AlwaysFailure"},
    {flavour::classic, "Inverter", "Not", none},
    {flavour::classic, "Succeeder", "AlwaysSuccess", none},
    {flavour::classic, "Failer", "AlwaysFailure", none},
    {flavour::classic, "Runner", "AlwaysRunning", none},
    // Wait: `this.endTime = settings.milliseconds || 0`.
    {flavour::classic,
     "Wait",
     "Wait",
     {"milliseconds", "seconds", -1, conversion::milliseconds, 0}},
    {flavour::classic,
     "MaxTime",
     "MaxTime",
     {"maxTime", "seconds", -1, conversion::milliseconds, no_default}},
    {flavour::classic,
     "Limiter",
     "Limiter",
     {"maxLoop", "max_loop", -1, conversion::same, no_default}},
    // `this.maxLoop = settings.maxLoop || -1`, and a negative maxLoop loops for ever.
    {flavour::classic, "Repeater", "Repeat", {"maxLoop", "count", -1, conversion::js_loop, -1}},
    // Until failure, at most maxLoop successes, then success: Canopy's Repeat.
    {flavour::classic,
     "RepeatUntilFailure",
     "Repeat",
     {"maxLoop", "count", -1, conversion::js_loop, -1},
     "RepeatUntilFailure"},
    // Until success, at most maxLoop failures, then failure: Canopy's Retry.
    {flavour::classic,
     "RepeatUntilSuccess",
     "Retry",
     {"maxLoop", "attempts", -1, conversion::js_loop, -1},
     "RepeatUntilSuccess"},

    // behavior3 Lua/TS: Sequence and Selector resume at the running child.
    // Without children (behavior3-ts loops over none): Sequence succeeds, Selector fails.
    {flavour::nested, "Sequence", "Sequence", none, {}, {}, "AlwaysSuccess"},
    {flavour::nested, "Selector", "Selector", none, {}, {}, "AlwaysFailure"},
    // Race ticks its unfinished children in order each tick: the first success wins (the
    // others are stopped), failure once all have failed. That is Canopy's Parallel with a
    // success threshold of 1 and a failure threshold of every child (-1). Without children
    // it fails. behavior3-ts ticks Race on every tick and resumes each running child's own
    // stack; Canopy's Parallel, ticked from the root, resumes each running child: the same
    // statuses tick by tick, so it needs no node of the family.
    {flavour::nested,
     "Race",
     "Parallel",
     none,
     {},
     {},
     "AlwaysFailure",
     {{"success_threshold", 1}, {"failure_threshold", -1}}},
    {flavour::nested, "IfElse", "IfThenElse", none},
    {flavour::nested, "Invert", "Not", none},
    {flavour::nested, "Inverter", "Not", none},
    {flavour::nested, "Not", "Not", none},
    // Decorators here, leaves in Canopy: ForceSuccess and ForceFailure are these.
    {flavour::nested, "AlwaysSuccess", "ForceSuccess", none},
    {flavour::nested, "AlwaysFailure", "ForceFailure", none},
    {flavour::nested, "AlwaysFail", "ForceFailure", none},
    {flavour::nested, "JustSuccess", "AlwaysSuccess", none},
    {flavour::nested, "JustFailure", "AlwaysFailure", none},
    // The behavior3 node family (src/dialects/behavior3/nodes): nodes whose tick-by-tick results
    // differ from Canopy's node of the same name. They take behavior3's argument names; the
    // argument's input slot gives the same parameter as "{var}".
    // Wait runs for one tick even with `time` 0 (Canopy's succeeds at once); `random` passes
    // through as an argument of its own.
    {flavour::nested, "Wait", "behavior3.Wait", {"time", "time", 0, conversion::same, no_default}},
    // Timeout ticks the child before the first time check, so `time` 0 runs it once.
    {flavour::nested,
     "Timeout",
     "behavior3.Timeout",
     {"time", "time", 0, conversion::same, no_default}},
    // Repeat runs every iteration that finishes at once within one tick (Canopy's, one).
    {flavour::nested,
     "Repeat",
     "behavior3.Repeat",
     {"count", "count", 0, conversion::same, no_default}},
    // The retries return running after each try that did not end the node and give up one
    // tick later (Canopy's Retry, failure at once).
    {flavour::nested,
     "RetryUntilSuccess",
     "behavior3.RetryUntilSuccess",
     {"count", "count", 0, conversion::same, no_default}},
    {flavour::nested,
     "RetryUntilFailure",
     "behavior3.RetryUntilFailure",
     {"count", "count", 0, conversion::same, no_default}},
    // Older behavior3 Lua/TS (and behavior3editor's sample settings): maxLoop tries.
    {flavour::nested,
     "RepeatUntilSuccess",
     "behavior3.RepeatUntilSuccess",
     {"maxLoop", "maxLoop", 0, conversion::same, no_default}},
    // Returns success when the child fails (Canopy's, failure).
    {flavour::nested,
     "RepeatUntilFailure",
     "behavior3.RepeatUntilFailure",
     {"maxLoop", "maxLoop", 0, conversion::same, no_default}},
    // Prints `message` and input 1; `level` picks the console stream.
    {flavour::nested,
     "Log",
     "Log",
     {"message", "message", 0, conversion::same, no_default},
     {},
     "level"},
    // Parallel waits for every child and always succeeds (Canopy's counts thresholds);
    // Switch picks among Case children by their conditions; AlwaysRunning is a decorator
    // (Canopy's, a leaf); Once succeeds the first time and fails ever after (Canopy's RunOnce
    // skips); Watchdog checks its condition before the guarded node on every tick.
    {flavour::nested, "Parallel", "behavior3.Parallel", none, {}, {}, "AlwaysSuccess"},
    {flavour::nested, "Switch", "behavior3.Switch", none, {}, {}, "AlwaysFailure"},
    {flavour::nested, "Case", "behavior3.Case", none},
    {flavour::nested, "AlwaysRunning", "behavior3.AlwaysRunning", none},
    {flavour::nested, "Once", "behavior3.Once", none},
    {flavour::nested, "Watchdog", "behavior3.Watchdog", none},
    // WaitForEvent waits for an event the program posts (agent::post_event).
    {flavour::nested, "WaitForEvent", "behavior3.WaitForEvent", none},
    // Expressions and values (src/dialects/behavior3/nodes): behavior3-ts's own nodes, no Canopy
    // node
    // of these names. Let's input 1 is its `value` ("oneof"): that variable's value instead;
    // a whole number is a JavaScript number, so that the variable it makes is a number that
    // Calculate may write.
    {flavour::nested, "Check", "behavior3.Check", none},
    {flavour::nested, "Calculate", "behavior3.Calculate", none},
    // Let with no value (or `value: null`, read as none) clears its variable, as Clear does.
    {flavour::nested,
     "Let",
     "behavior3.Let",
     {"value", "value", 0, conversion::js_number, no_default},
     "behavior3.Clear"},
    {flavour::nested, "Clear", "behavior3.Clear", none},
    {flavour::nested, "Assert", "behavior3.Assert", none},
    {flavour::nested, "Now", "behavior3.Now", none},
    {flavour::nested, "Math", "behavior3.Math", none},
    {flavour::nested, "IsNull", "behavior3.IsNull", none},
    {flavour::nested, "NotNull", "behavior3.NotNull", none},
    // Arrays and objects (canopy::dynamic_value, `json` keys). Index's `index` and the field
    // of GetField and SetField may come from input 2 instead.
    {flavour::nested, "Push", "behavior3.Push", none},
    {flavour::nested,
     "Index",
     "behavior3.Index",
     {"index", "index", 1, conversion::same, no_default}},
    {flavour::nested,
     "GetField",
     "behavior3.GetField",
     {"field", "field", 1, conversion::same, no_default}},
    {flavour::nested,
     "SetField",
     "behavior3.SetField",
     {"field", "field", 1, conversion::same, no_default}},
    {flavour::nested, "Includes", "behavior3.Includes", none},
    {flavour::nested, "Concat", "behavior3.Concat", none},
    {flavour::nested, "RandomIndex", "behavior3.RandomIndex", none},
    {flavour::nested, "ForEach", "behavior3.ForEach", none},
    {flavour::nested, "Filter", "behavior3.Filter", none},
    // Delay and Listen succeed at once and run the child later, between ticks. Listen's event
    // is `event` in behavior3-ts 1.3, `builtin` before; ListenTree is the older name of
    // Listen for the tree's own events.
    {flavour::nested,
     "Delay",
     "behavior3.Delay",
     {"delay", "delay", 0, conversion::same, no_default},
     {},
     {},
     {},
     {},
     "cacheVars"},
    {flavour::nested,
     "Listen",
     "behavior3.Listen",
     {"builtin", "event", -1, conversion::same, no_default}},
    {flavour::nested,
     "ListenTree",
     "behavior3.Listen",
     {"builtin", "event", -1, conversion::same, no_default}},
};

struct builtin_row {
    std::string_view name;
    builtin_kind kind;
};
// The built-ins of behavior3-ts (src/behavior3/nodes) and behavior3lua (behavior3/nodes) that
// the table above does not map, by the type their node definitions give. Left out: names whose
// type changed between versions (Once, Foreach, Loop and Filter were composites or actions
// before they were decorators), which a tree's own shape decides.
constexpr builtin_row builtins[] = {
    {"Parallel", builtin_kind::composite},
    {"Switch", builtin_kind::composite},
    {"Case", builtin_kind::composite},
    {"Watchdog", builtin_kind::composite},
    {"AlwaysRunning", builtin_kind::decorator},
    {"Assert", builtin_kind::decorator},
    {"Delay", builtin_kind::decorator},
    {"Listen", builtin_kind::decorator},
    {"ListenTree", builtin_kind::decorator},
    {"RepeatUntilFailure", builtin_kind::decorator},
    {"RetryUntilFailure", builtin_kind::decorator},
    {"Check", builtin_kind::condition},
    {"Cmp", builtin_kind::condition},
    {"Includes", builtin_kind::condition},
    {"IsNull", builtin_kind::condition},
    {"NotNull", builtin_kind::condition},
    {"IsStatus", builtin_kind::condition},
    {"Assign", builtin_kind::action},
    {"Calculate", builtin_kind::action},
    {"Clear", builtin_kind::action},
    {"Concat", builtin_kind::action},
    {"GetField", builtin_kind::action},
    {"GetTime", builtin_kind::action},
    {"Index", builtin_kind::action},
    {"Let", builtin_kind::action},
    {"Math", builtin_kind::action},
    {"Now", builtin_kind::action},
    {"Push", builtin_kind::action},
    {"Random", builtin_kind::action},
    {"RandomIndex", builtin_kind::action},
    {"SetField", builtin_kind::action},
    {"WaitForCount", builtin_kind::action},
    {"WaitForEvent", builtin_kind::action},
};

// What the writer calls each Canopy type that has a behavior3 (Lua/TS) counterpart.
struct writer_row {
    std::string_view canopy_name;
    std::string_view b3_name;
};
constexpr writer_row writer_names[] = {
    {"Sequence", "Sequence"},
    {"Selector", "Selector"},
    {"IfThenElse", "IfElse"},
    {"Not", "Invert"},
    {"ForceSuccess", "AlwaysSuccess"},
    {"ForceFailure", "AlwaysFailure"},
    {"AlwaysSuccess", "JustSuccess"},
    {"AlwaysFailure", "JustFailure"},
    // The family's nodes whose argument has an input slot: "{var}" goes back to the slot.
    // (The others are written by their behavior3 name through kept_prefix.)
    {"behavior3.Wait", "Wait"},
    {"behavior3.Timeout", "Timeout"},
    {"behavior3.Repeat", "Repeat"},
    {"behavior3.RetryUntilSuccess", "RetryUntilSuccess"},
    {"behavior3.RetryUntilFailure", "RetryUntilFailure"},
    {"behavior3.RepeatUntilSuccess", "RepeatUntilSuccess"},
    {"behavior3.RepeatUntilFailure", "RepeatUntilFailure"},
    {"Log", "Log"},
    {"behavior3.Let", "Let"},  // so that a variable goes back to input 1
    {"behavior3.Index", "Index"},
    {"behavior3.GetField", "GetField"},
    {"behavior3.SetField", "SetField"},
    {"behavior3.Delay", "Delay"},
};

}  // namespace

const node_rule* find_rule(flavour in, std::string_view b3_name) {
    for (const node_rule& rule : rules) {
        if (rule.in == in && rule.b3_name == b3_name) return &rule;
    }
    return nullptr;
}

const node_rule* find_fixed_rule(std::string_view canopy_name) {
    for (const node_rule& rule : rules) {
        if (rule.in == flavour::nested && rule.canopy_name == canopy_name &&
            !rule.fixed[0].name.empty()) {
            return &rule;
        }
    }
    return nullptr;
}

builtin_kind find_builtin(std::string_view b3_name) {
    for (const builtin_row& row : builtins) {
        if (row.name == b3_name) return row.kind;
    }
    return builtin_kind::unknown;
}

const node_rule* find_rule_for_canopy(std::string_view canopy_name) {
    for (const writer_row& row : writer_names) {
        if (row.canopy_name == canopy_name) return find_rule(flavour::nested, row.b3_name);
    }
    return nullptr;
}

std::string written_name(std::string_view canopy_name, const node_rule* rule) {
    if (rule != nullptr) return std::string(rule->b3_name);
    // Kept apart on reading: the behavior3 node itself.
    if (canopy_name.substr(0, kept_prefix.size()) == kept_prefix) {
        const std::string_view b3_name = canopy_name.substr(kept_prefix.size());
        const node_rule* kept = find_rule(flavour::nested, b3_name);
        if (kept != nullptr && kept->canopy_name == canopy_name) return std::string(b3_name);
    }
    // A name behavior3 gives another node, or one that reads as an escape: escaped.
    const bool taken = find_rule(flavour::nested, canopy_name) != nullptr ||
                       canopy_name.substr(0, escape_prefix.size()) == escape_prefix;
    return taken ? std::string(escape_prefix) + std::string(canopy_name) : std::string(canopy_name);
}

namespace {

std::string type_word(std::string_view registered) {
    return written_name(registered, find_rule_for_canopy(registered));
}

template <flavour in>
std::string_view param_word(std::string_view written_type, std::string_view param) {
    const node_rule* rule = find_rule(in, written_type);
    return rule != nullptr && !rule->arg.arg.empty() && rule->arg.param == param
               ? rule->arg.arg
               : std::string_view();
}

}  // namespace

const vocabulary classic_words{type_word, param_word<flavour::classic>};
const vocabulary nested_words{type_word, param_word<flavour::nested>};

}  // namespace canopy::detail::behavior3
