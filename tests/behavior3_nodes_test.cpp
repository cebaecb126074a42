// The behavior3 node family (src/dialects/behavior3/nodes): each node's statuses tick by tick as
// behavior3-ts gives them, from trees read as behavior3 JSON; bad arguments; round trips.
//
// The expected statuses come from behavior3-ts's source (zhongfq/behavior3-ts,
// src/behavior3/nodes/**), traced by hand through its tick loop (src/behavior3/tree.ts: the
// deepest running node on the stack is ticked first, and when it finishes its parent's onTick
// runs again with the child's status, in the same tick). The comment at each case names the
// node's source and the step of the trace that matters.
#include <doctest/doctest.h>

#include <algorithm>
#include <canopy/views/write.hpp>
#include <set>
#include <string>

#include "runtime_support.hpp"

using namespace canopy;
using namespace canopy::testing;

namespace {

load_result load_b3(const std::string& root) {
    return try_load_text(R"({"name": "t", "root": )" + root + "}", file_format::behavior3,
                         runtime_registry(), "t.json");
}

std::shared_ptr<const tree> b3_tree(const std::string& root) {
    load_result r = load_b3(root);
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

// A behavior3 node: name, args (a JSON object or empty) and children, ids left to the reader
// (preorder).
std::string b3(const std::string& name, const std::string& args = "",
               const std::vector<std::string>& children = {}) {
    std::string text = R"({"name": ")" + name + "\"";
    if (!args.empty()) text += R"(, "args": )" + args;
    if (!children.empty()) {
        text += R"(, "children": [)";
        for (std::size_t i = 0; i < children.size(); ++i) text += (i ? ", " : "") + children[i];
        text += "]";
    }
    return text + "}";
}

// A scripted leaf (runtime_support.hpp): one letter a tick, s, f or r, round and round.
std::string scripted(const std::string& results) {
    return b3("Scripted", R"({"results": ")" + results + "\"}");
}

const std::string just_success = b3("JustSuccess");
const std::string just_failure = b3("JustFailure");

std::string run_b3(const std::string& root, int ticks, double dt = 0.1) {
    script_log log;
    agent a(b3_tree(root), &log);
    const std::string statuses = run(a, ticks, dt);
    CHECK(log.violations == 0);
    return statuses;
}

}  // namespace

TEST_SUITE("behavior3 nodes") {
    // decorators/repeat.ts: `for (; i < count; i++)` ticks the child again at once after each
    // success, so iterations that finish at once all run in one tick.
    TEST_CASE("Repeat runs every iteration that finishes at once within one tick") {
        CHECK(run_b3(b3("Repeat", R"({"count": 2})", {just_success}), 3) == "sss");
        CHECK(run_b3(b3("Repeat", R"({"count": 5})", {just_failure}), 2) == "ff");
        // count 0: the loop runs no iteration.
        CHECK(run_b3(b3("Repeat", R"({"count": 0})", {just_failure}), 1) == "s");
    }

    // repeat.ts, resumed with the child's success: i++ and the loop goes on in the same tick,
    // so a new iteration starts in the tick the last one ended.
    TEST_CASE("Repeat starts the next iteration in the tick the running child finished") {
        script_log log;
        agent a(b3_tree(b3("Repeat", R"({"count": 3})", {scripted("rs")})), &log);
        CHECK(run(a, 4) == "rrrs");
        CHECK(log.enters == 3);
        CHECK(log.violations == 0);
    }

    TEST_CASE("Repeat without a count bounds the iterations of one tick instead of hanging") {
        script_log log;
        log.keep_calls = false;
        agent a(b3_tree(b3("Repeat", "", {scripted("s")})), &log);
        CHECK(a.tick(0.1) == status::running);
        CHECK(log.enters == 65536);
        CHECK(a.tick(0.1) == status::running);
        CHECK(log.enters == 2 * 65536);
    }

    TEST_CASE("Repeats nested in one another share the bound of one tick") {
        script_log log;
        log.keep_calls = false;
        // 65,536 over 65,536 over a leaf that succeeds at once: 2^32 iterations, were each
        // Repeat bounded alone.
        agent a(b3_tree(b3("Repeat", R"({"count": 65536})",
                           {b3("Repeat", R"({"count": 65536})", {scripted("s")})})),
                &log);
        // Each tick runs at most 65,536 iterations in all (the outer Repeat's own among them).
        for (int tick = 1; tick <= 3; ++tick) {
            const int before = log.enters;
            CHECK(a.tick(0.1) == status::running);
            CHECK(log.enters - before <= 65536);
            CHECK(log.enters - before >= 65534);
        }
    }

    TEST_CASE("Repeat reads its count from its input at each resumption") {
        agent a(
            b3_tree(R"({"name": "Repeat", "input": ["n"], "children": [)" + just_success + "]}"));
        testing::set_at(a.blackboard(), "n", dynamic_value(4.0));
        CHECK(a.tick(0.1) == status::success);
        // below 0: no iteration, as in behavior3-ts
        testing::set_at(a.blackboard(), "n", dynamic_value(-2.0));
        CHECK(a.tick(0.1) == status::success);
        // repeat.ts loops while `i < count`: "2" counts as 2, 1.5 as 2 (i = 0, 1).
        for (const dynamic_value& count : {dynamic_value("2"), dynamic_value(1.5)}) {
            testing::set_at(a.blackboard(), "n", count);
            CHECK(a.tick(0.1) == status::success);
        }
    }

    // decorators/retry-until-success.ts: a first try that fails yields running; resumed, the
    // node gives up once `count >= maxTryTimes`, else tries again. The first try is always
    // made, so count 0 is 1.
    TEST_CASE("RetryUntilSuccess returns running after a failed try and gives up a tick later") {
        CHECK(run_b3(b3("RetryUntilSuccess", R"({"count": 1})", {just_failure}), 4) == "rfrf");
        CHECK(run_b3(b3("RetryUntilSuccess", R"({"count": 0})", {just_failure}), 4) == "rfrf");
        CHECK(run_b3(b3("RetryUntilSuccess", R"({"count": 2})", {just_failure}), 3) == "rrf");
        CHECK(run_b3(b3("RetryUntilSuccess", "", {scripted("fs")}), 2) == "rs");
        CHECK(run_b3(b3("RetryUntilSuccess", R"({"count": 3})", {just_success}), 2) == "ss");
    }

    // retry-until-success.ts, resumed with a failure from a child that was running: the next
    // try starts in the same tick.
    TEST_CASE("RetryUntilSuccess tries again in the tick a running try failed") {
        script_log log;
        agent a(b3_tree(b3("RetryUntilSuccess", R"({"count": 3})", {scripted("rf")})), &log);
        CHECK(run(a, 4) == "rrrf");
        CHECK(log.enters == 3);
    }

    // decorators/retry-until-failure.ts and the older repeat-until-failure.ts,
    // repeat-until-success.ts (argument maxLoop): the same loop, ended by the other result.
    TEST_CASE("RetryUntilFailure, RepeatUntilFailure and RepeatUntilSuccess") {
        CHECK(run_b3(b3("RetryUntilFailure", R"({"count": 2})", {just_success}), 3) == "rrf");
        CHECK(run_b3(b3("RetryUntilFailure", "", {just_failure}), 1) == "s");
        CHECK(run_b3(b3("RepeatUntilFailure", R"({"maxLoop": 1})", {just_success}), 2) == "rf");
        CHECK(run_b3(b3("RepeatUntilFailure", "", {scripted("sf")}), 2) == "rs");
        CHECK(run_b3(b3("RepeatUntilSuccess", R"({"maxLoop": 1})", {just_failure}), 2) == "rf");
        CHECK(run_b3(b3("RepeatUntilSuccess", "", {scripted("fs")}), 2) == "rs");
    }

    // actions/wait.ts: the first tick yields `context.time + time` and returns running; later
    // ticks succeed once the time is reached. So time 0 runs for one tick.
    TEST_CASE("Wait runs for one tick with time 0, and until its time has passed") {
        CHECK(run_b3(b3("Wait", R"({"time": 0})"), 3) == "rsr");
        CHECK(run_b3(b3("Wait"), 2) == "rs");
        CHECK(run_b3(b3("Wait", R"({"time": 1})"), 4, 0.5) == "rrsr");
        agent a(b3_tree(R"({"name": "Wait", "input": ["t"]})"));
        testing::set_at(a.blackboard(), "t", dynamic_value(0.25));
        CHECK(run(a, 4) == "rrrs");
    }

    TEST_CASE("Wait's random spread comes from the agent's seed") {
        std::set<int> lengths;
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            agent a(b3_tree(b3("Wait", R"({"time": 1, "random": 1})")), {}, seed);
            int ticks = 1;
            while (a.tick(0.01) == status::running) ++ticks;
            // Between 0.5 and 1.5 seconds after the first tick, in steps of 0.01.
            CHECK(ticks >= 51);
            CHECK(ticks <= 151);
            lengths.insert(ticks);
        }
        CHECK(lengths.size() > 5);
    }

    // decorators/timeout.ts: the child is ticked first; once it returns running the deadline is
    // `time` from then, and a resumed Timeout past it drops the child's saved stack
    // (`StackSlice.clear()`, which pops nothing) and fails: the child is not halted.
    TEST_CASE("Timeout fails at its deadline, leaving the child as it is; time 0 allows one tick") {
        script_log log;
        agent a(b3_tree(b3("Timeout", R"({"time": 1})", {scripted("r")})), &log);
        CHECK(run(a, 3, 0.5) == "rrf");
        CHECK(log.calls == std::vector<std::string>{"enter #2"});
        CHECK(run_b3(b3("Timeout", R"({"time": 0})", {scripted("r")}), 2) == "rf");
        CHECK(run_b3(b3("Timeout", R"({"time": 1})", {scripted("rs")}), 2) == "rs");
        CHECK(run_b3(b3("Timeout", R"({"time": 1})", {just_failure}), 1) == "f");
    }

    // behavior3-ts's own test tree test-timeout.json (its copy in the corpus):
    // Timeout 3 over RetryUntilSuccess 10 over a child that always fails ends, by timeout, 3
    // seconds after it started (its Assert checks `curr_time - start_time == 3`); over
    // Sequence [Wait 1, Log] the retry succeeds one second in.
    TEST_CASE("Timeout over RetryUntilSuccess as behavior3-ts's test-timeout tree runs it") {
        CHECK(run_b3(b3("Timeout", R"({"time": 3})",
                        {b3("RetryUntilSuccess", R"({"count": 10})", {just_failure})}),
                     5, 1.0) == "rrrfr");
        CHECK(run_b3(b3("Timeout", R"({"time": 3})",
                        {b3("RetryUntilSuccess", R"({"count": 10})",
                            {b3("Sequence", "", {b3("Wait", R"({"time": 1})"), just_success})})}),
                     2, 1.0) == "rs");
    }

    // composites/parallel.ts: each child with a saved stack is resumed, a finished one is not
    // ticked again, and the node succeeds once all have finished, whatever they returned.
    TEST_CASE("Parallel runs every child to its end and succeeds") {
        script_log log;
        agent a(b3_tree(b3("Parallel", "", {scripted("s"), scripted("rrs"), just_failure})), &log);
        CHECK(run(a, 3) == "rrs");
        CHECK(log.calls == std::vector<std::string>{"enter #2", "exit success #2", "enter #3",
                                                    "exit success #3"});
        CHECK(run_b3(b3("Parallel", "", {just_failure, just_failure}), 1) == "s");
    }

    // composites/race.ts, which the reader maps to Canopy's Parallel(1, -1): the first success
    // wins; the other children's saved stacks are dropped without popping (`StackSlice.clear()`),
    // so they are not halted; failure once all have failed.
    TEST_CASE("Race: the first success wins, failure when all fail") {
        script_log log;
        agent a(b3_tree(b3("Race", "", {scripted("rrf"), scripted("rs")})), &log);
        CHECK(run(a, 2) == "rs");
        CHECK(std::count(log.calls.begin(), log.calls.end(), "halt #2") == 0);
        CHECK(run_b3(b3("Race", "", {just_failure, scripted("rf")}), 2) == "rf");
    }

    // composites/switch.ts: each Case's first child is tested in turn; the first that
    // succeeds runs the Case's second child, whose status is the Switch's; none: failure.
    TEST_CASE("Switch runs the body of the first Case whose condition succeeds") {
        const std::string first_fails = b3("Case", "", {just_failure, b3("Log")});
        CHECK(run_b3(b3("Switch", "",
                        {first_fails, b3("Case", "", {just_success, scripted("rs")}),
                         b3("Case", "", {just_success, just_failure})}),
                     2) == "rs");
        // The chosen Case's body fails: the Switch fails, without trying the next Case.
        CHECK(run_b3(b3("Switch", "",
                        {b3("Case", "", {just_success, just_failure}),
                         b3("Case", "", {just_success, just_success})}),
                     1) == "f");
        CHECK(run_b3(b3("Switch", "", {first_fails}), 1) == "f");
        // A running condition is resumed; when it then fails the next Case is tried.
        CHECK(run_b3(b3("Switch", "",
                        {b3("Case", "", {scripted("rf"), just_success}),
                         b3("Case", "", {just_success, just_success})}),
                     2) == "rs");
    }

    // decorators/always-running.ts: onTick ticks the child and returns running. Resumed after
    // the running child finished, onTick runs again and starts the child anew, in that tick.
    TEST_CASE("AlwaysRunning restarts its child in the tick the child finished") {
        script_log log;
        agent a(b3_tree(b3("AlwaysRunning", "", {scripted("rs")})), &log);
        CHECK(run(a, 3) == "rrr");
        CHECK(log.enters == 3);
        CHECK(run_b3(b3("AlwaysRunning", "", {just_success}), 2) == "rr");
    }

    // decorators/once.ts: success when the child first finishes, whatever it returned; then
    // failure for ever (its key is private to the tree, never cleared by a new run).
    TEST_CASE("Once succeeds when its child first finishes, then fails") {
        script_log log;
        agent a(b3_tree(b3("Once", "", {scripted("rf")})), &log);
        CHECK(run(a, 4) == "rsff");
        CHECK(log.enters == 1);
    }

    // composites/watchdog.ts: the condition is ticked first on every tick; on failure the
    // third child is ticked and the node fails, leaving the guarded child (its saved stack is
    // dropped, not popped).
    TEST_CASE("Watchdog checks its condition every tick before the guarded child") {
        script_log log;
        agent a(b3_tree(b3("Watchdog", "", {scripted("ssf"), scripted("r"), scripted("s")})), &log);
        CHECK(run(a, 3) == "rrf");
        CHECK(std::count(log.calls.begin(), log.calls.end(), "halt #3") == 0);
        CHECK(std::count(log.calls.begin(), log.calls.end(), "enter #4") == 1);
        CHECK(log.violations == 0);
        CHECK(run_b3(b3("Watchdog", "", {just_success, just_success, just_failure}), 1) == "s");
    }

    // stack.ts (1.3.0): Timeout on expiry, Race when a child succeeds and Watchdog when its
    // condition fails drop the running child's StackSlice with `clear()`, which empties the
    // array without popping, so the nodes keep their `YIELD` variable and their next tick
    // resumes it. Traced with behavior3 1.3.0 (dist/index.mjs), 0.5 s a tick.
    TEST_CASE("a node that Timeout, Race or Watchdog abandons keeps its state for its next run") {
        // Expiry at 1.5 s leaves the Wait's deadline (2.0 s): the next run succeeds at once.
        CHECK(run_b3(b3("Timeout", R"({"time": 1})", {b3("Wait", R"({"time": 1.5})")}), 9, 0.5) ==
              "rrfsrrfsr");
        // The leaf wins at 1.0 s; at 1.5 s the Wait, ticked again, is at its old deadline.
        CHECK(run_b3(b3("Race", "", {b3("Wait", R"({"time": 1})"), scripted("rsff")}), 3, 0.5) ==
              "rss");
        // The condition fails at 1.0 s; at 1.5 s the guarded Wait resumes its deadline.
        CHECK(run_b3(
                  b3("Watchdog", "", {scripted("sfs"), b3("Wait", R"({"time": 1})"), just_success}),
                  3, 0.5) == "rfs");
        // A reset clears the abandoned nodes too (behavior3-ts's interruption deletes every
        // YIELD variable): the Wait starts afresh.
        agent a(b3_tree(b3("Timeout", R"({"time": 1})", {b3("Wait", R"({"time": 1.5})")})));
        CHECK(run(a, 3, 0.5) == "rrf");
        a.reset();
        CHECK(run(a, 2, 0.5) == "rr");
    }

    // node.ts (1.3.0): `tick()` runs `onTick(tree, tree.__lastStatus)`, and a composite or
    // decorator whose YIELD variable is set takes that status as its running child's result.
    // One abandoned by a Timeout, Race or Watchdog, ticked again by its parent, so goes on
    // with the status of the node that ticked last, without ticking the child, which keeps
    // its state in turn. Traced with behavior3 1.3.0 (dist/index.mjs), 0.5 s a tick.
    TEST_CASE(
        "an abandoned composite or decorator resumes with the status of the node that "
        "ticked last") {
        // The Invert inverts the Timeout's own failure (2.0 s), then the Wait, afresh, is at
        // its old deadline (2.5 s).
        CHECK(run_b3(b3("Timeout", R"({"time": 1})",
                        {b3("Invert", "", {b3("Wait", R"({"time": 1.5})")})}),
                     12, 0.5) == "rrfsfrrfsfrr");
        // The Selector takes the expiry's failure as its child's and fails: the leaf is not
        // ticked then, and its next tick is its second letter.
        CHECK(run_b3(b3("Timeout", R"({"time": 0})", {b3("Selector", "", {scripted("rsf")})}), 12,
                     0.5) == "rffsfrffsfrf");
        // A retry resumed with the expiry's failure: RetryUntilFailure succeeds at once.
        CHECK(run_b3(b3("Timeout", R"({"time": 0.5})",
                        {b3("RetryUntilFailure", R"({"count": 1})", {scripted("frs")})}),
                     12, 0.5) == "srfsrfssrfsr");
        // The inner retry, abandoned under the outer one, is resumed afresh at 2.5 s with the
        // root's success of 2.0 s.
        CHECK(run_b3(b3("Timeout", R"({"time": 1})",
                        {b3("RetryUntilFailure", R"({"count": 2})",
                            {b3("RetryUntilSuccess", R"({"count": 3})", {scripted("f")})})}),
                     12, 0.5) == "rrfsrrfsrrfs");
        // A Case is no node of behavior3-ts's stack: the Switch, resumed with the expiry's
        // failure, fails; afresh, it ticks the condition again, and the body, still abandoned,
        // is resumed with the condition's status.
        CHECK(
            run_b3(b3("Timeout", R"({"time": 0.5})",
                      {b3("Switch", "",
                          {b3("Case", "",
                              {scripted("sfs"), b3("Invert", "", {b3("Wait", R"({"time": 1})")})}),
                           b3("Case", "", {just_success, just_failure})})}),
                   8, 0.5) == "rffffffr");
        // The Watchdog's condition leaves the last status as it was: the Sequence it abandoned
        // is resumed, under the next success, with its Wait's deadline met.
        CHECK(run_b3(b3("Watchdog", "",
                        {scripted("sfs"),
                         b3("Sequence", "", {b3("Wait", R"({"time": 1})"), scripted("f")}),
                         just_success}),
                     8, 0.5) == "rffffrrf");
    }

    // A node abandoned under a Race that succeeded is ticked first in the retry's next try,
    // when the last status is the tree's own running: behavior3-ts's Invert refuses it
    // ("unexpected status error") and the tree is interrupted.
    TEST_CASE("an abandoned node resumed with running interrupts the tree") {
        agent a(b3_tree(b3(
            "RetryUntilFailure", R"({"count": 5})",
            {b3("Race", "", {b3("Invert", "", {b3("Wait", R"({"time": 1})")}), just_success})})));
        CHECK(a.tick(0.5) == status::running);
        CHECK(a.interruption().empty());
        CHECK(a.tick(0.5) == status::idle);
        CHECK(a.interruption().find("unexpected status error") != std::string::npos);
        CHECK(a.tick(0.5) == status::running);
        CHECK(a.tick(0.5) == status::idle);
    }

    // tree.ts resumes the deepest running node and climbs: a Canopy Sequence above family nodes
    // resumes at its running child, so both give the same statuses.
    TEST_CASE("a behavior3 tree of built-ins and family nodes runs as behavior3-ts runs it") {
        const std::string tree =
            b3("Sequence", "",
               {b3("Repeat", R"({"count": 2})", {just_success}), b3("Wait", R"({"time": 0})"),
                b3("RetryUntilSuccess", R"({"count": 2})", {scripted("fs")}),
                b3("Once", "", {just_success})});
        // Tick 1: Repeat succeeds twice, Wait starts: running. Tick 2: Wait succeeds, the
        // retry's first try fails: running. Tick 3: its second try succeeds, and Once
        // succeeds. Ticks 4 to 6 again, but Once now fails.
        CHECK(run_b3(tree, 6) == "rrsrrf");
    }

    // actions/wait-for-event.ts: the first tick subscribes and returns running; the event's
    // callback sets the trigger, and the next tick succeeds.
    TEST_CASE("WaitForEvent runs until the program posts its event to the agent") {
        agent a(b3_tree(b3("WaitForEvent", R"({"event": "hit"})")));
        a.post_event("hit");  // before the node waits: not seen
        CHECK(run(a, 2) == "rr");
        a.post_event("miss");
        CHECK(run(a, 1) == "r");
        a.post_event("hit");
        CHECK(run(a, 2) == "sr");  // then a new run waits again
        a.post_event("hit");
        CHECK(run(a, 1) == "s");
    }

    TEST_CASE("an event posted to a vector of agents reaches each that waits, once") {
        const std::shared_ptr<const tree> t =
            b3_tree(b3("Sequence", "",
                       {b3("WaitForEvent", R"({"event": "go"})"), b3("Wait", R"({"time": 1})")}));
        std::vector<agent> agents;
        agents.emplace_back(t);
        agents.emplace_back(t);
        CHECK(agents[0].tick(0.1) == status::running);
        post_event(agents, "go");  // agent 1 has not started waiting
        CHECK(agents[1].tick(0.1) == status::running);
        CHECK(agents[0].tick(0.1) == status::running);  // now in Wait
        CHECK(agents[0].is_running(2));
        CHECK_FALSE(agents[0].is_running(1));
        post_event(agents, "go");
        CHECK(agents[1].tick(0.1) == status::running);
        CHECK(agents[1].is_running(2));
    }

    // decorators/listen.ts (1.3.0): onTick subscribes a callback on the context and returns
    // success; the callback ticks the child and, if it is running, pops it off the stack.
    TEST_CASE("Listen runs its child once each time the event comes, from its first tick on") {
        script_log log;
        agent a(b3_tree(b3("Sequence", "",
                           {b3("Listen", R"({"event": "hit"})", {scripted("s")}), scripted("r")})),
                &log);
        a.post_event("hit");  // not listening yet
        CHECK(log.calls.empty());
        CHECK(run(a, 2) == "rr");  // the Sequence resumes at its running child
        log.calls.clear();         // the running leaf's enter
        a.post_event("miss");
        CHECK(log.calls.empty());
        a.post_event("hit");
        a.post_event("hit");
        CHECK(log.calls == std::vector<std::string>{"enter #3", "exit success #3", "enter #3",
                                                    "exit success #3"});
        // A reset forgets the subscription, as behavior3-ts's clear() takes every listener off.
        a.reset();
        log.calls.clear();
        a.post_event("hit");
        CHECK(log.calls.empty());
        CHECK(log.violations == 0);
    }

    TEST_CASE("a child that would run on is halted: its run between ticks ends there") {
        script_log log;
        agent a(b3_tree(b3("Listen", R"({"event": "hit"})", {scripted("r")})), &log);
        CHECK(run(a, 1) == "s");
        a.post_event("hit");
        CHECK(log.calls == std::vector<std::string>{"enter #2", "halt #2"});
        CHECK_FALSE(a.is_running(1));
        CHECK(log.violations == 0);
    }

    // listen.ts (1.3.0): with input 1, `context.on(event, target, callback)` per target (each
    // element of an array); without, on the context itself. context.ts's dispatch(event,
    // target, ...args) calls the listeners of that target, or of the context when the target
    // is undefined. The callback writes the target to output 1 and the arguments to the
    // outputs after it before it ticks the child.
    TEST_CASE("Listen hears the events of its target, and writes the target and arguments") {
        const std::shared_ptr<const tree> t =
            b3_tree(b3("Sequence", "",
                       {R"({"name": "Let", "args": {"value": ["orc", 7]}, "output": ["foes"]})",
                        R"({"name": "Let", "args": {"value": 0}, "output": ["total"]})",
                        R"({"name": "Listen", "args": {"event": "hit"}, "input": ["foes"],
                 "output": ["who", "damage", "where"], "children": [{"name": "Calculate",
                 "args": {"value": "total + damage"}, "output": ["total"]}]})",
                        R"({"name": "Listen", "args": {"event": "hit"}, "output": ["", "any"],
                 "children": [{"name": "JustSuccess"}]})"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        const blackboard board = a.blackboard();
        auto text = [&](const char* key) { return board.text(board.slot(key)); };
        a.post_event("hit", {"orc", {5.0, "head"}});
        CHECK(testing::number_at(board, "total") == 5);
        CHECK(text("who") == R"("orc")");
        CHECK(text("where") == R"("head")");
        CHECK(text("any") == "null");       // the Listen without a target did not hear it
        a.post_event("hit", {7.0, {2.0}});  // the array's other element
        CHECK(testing::number_at(board, "total") == 7);
        CHECK(text("where") == "null");         // an argument not posted
        a.post_event("hit", {"elf", {100.0}});  // not a foe
        CHECK(testing::number_at(board, "total") == 7);
        a.post_event("hit", {nullptr, {3.0}});  // no target: the other Listen hears it
        CHECK(testing::number_at(board, "total") == 7);
        CHECK(text("any") == "3");
        a.post_event("hit");
        CHECK(text("any") == "null");
    }

    TEST_CASE("a Listen writes whatever an event carries to its output variables") {
        script_log log;
        const std::shared_ptr<const tree> t = b3_tree(b3(
            "Sequence", "",
            {R"({"name": "Listen", "args": {"event": "hit"}, "output": ["", "n"],
                 "children": [)" +
                 scripted("s") + "]}",
             R"({"name": "Listen", "args": {"event": "hit"}, "children": [)" + scripted("s") + "]}",
             // After the Listens: a Listen's tick leaves its outputs undefined.
             R"({"name": "Let", "args": {"value": 1}, "output": ["n"]})"}));
        agent a(t, &log);
        CHECK(a.tick(0.1) == status::success);
        log.calls.clear();
        // A behavior3 file's variable holds any value: text where a number was.
        a.post_event("hit", {nullptr, {"text"}});
        CHECK(log.calls == std::vector<std::string>{"enter #3", "exit success #3", "enter #5",
                                                    "exit success #5"});
        CHECK(a.blackboard().text(a.blackboard().slot("n")) == R"("text")");
        a.post_event("hit", {nullptr, {2.0}});
        CHECK(testing::number_at(a.blackboard(), "n") == 2);
    }

    TEST_CASE("a Listen for a tree event takes no target") {
        const load_result r = load_b3(
            R"({"name": "Listen", "args": {"event": "treeAfterTicked"}, "input": ["foe"],
                "children": [{"name": "JustSuccess"}]})");
        CHECK_FALSE(r);
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(to_string(r.diagnostics[0]).find("has no target: leave input 1 out") !=
              std::string::npos);
    }

    // tree.ts (1.3.0): treeBeforeTicked is dispatched before the root's tick when the stack is
    // empty, treeAfterTicked and treeTickedSuccess or treeTickedFailure after a tick that
    // finished; clear() dispatches treeCleaned, then treeInterrupted if the tree runs.
    TEST_CASE("Listen hears the tree's own events, by the names of each behavior3 version") {
        auto heard = [](const std::string& listen, const std::string& rest, int ticks,
                        bool reset = false) {
            script_log log;
            agent a(b3_tree(b3("Sequence", "", {listen, scripted(rest)})), &log);
            const std::string statuses = run(a, ticks);
            if (reset) a.reset();
            int runs = 0;
            for (const std::string& call : log.calls) runs += call == "enter #3" ? 1 : 0;
            return statuses + ":" + std::to_string(runs);
        };
        auto on = [](const std::string& event) {
            return b3("Listen", R"({"event": ")" + event + "\"}", {scripted("s")});
        };
        // Subscribed during the first tick's root tick: the first treeBeforeTicked is missed.
        CHECK(heard(on("treeBeforeTicked"), "s", 3) == "sss:2");
        CHECK(heard(on("treeAfterTicked"), "s", 3) == "sss:3");
        CHECK(heard(on("treeTickedSuccess"), "sf", 4) == "sfsf:2");
        CHECK(heard(on("treeTickedFailure"), "sf", 4) == "sfsf:2");
        // Only a run that starts is announced: ticks 2 and 3 resume the running one.
        CHECK(heard(on("treeBeforeTicked"), "rrs", 6) == "rrsrrs:1");
        CHECK(heard(on("treeInterrupted"), "r", 1, true) == "r:1");
        CHECK(heard(on("treeInterrupted"), "s", 1, true) == "s:0");
        CHECK(heard(on("treeCleaned"), "s", 1, true) == "s:1");
        // behavior3-ts before 1.3 named them otherwise, and Listen's argument `builtin`;
        // ListenTree is the older name.
        CHECK(heard(b3("Listen", R"({"builtin": "afterRunFailure"})", {scripted("s")}), "f", 2) ==
              "ff:2");
        CHECK(heard(b3("ListenTree", R"({"builtin": "afterRunTreeSuccess"})", {scripted("s")}), "s",
                    2) == "ss:2");
    }

    // decorators/delay.ts and context.ts (1.3.0): onTick puts a timer `delay` seconds from the
    // context's time and returns success; the context's update(dt), which a host calls before
    // ticking its trees, runs the timers due, in order.
    TEST_CASE("Delay runs its child once per tick that scheduled it, the delay later") {
        script_log log;
        agent a(b3_tree(b3("Delay", R"({"delay": 0.25})", {scripted("s")})), &log);
        CHECK(run(a, 3) == "sss");  // runs due at 0.35, 0.45 and 0.55
        CHECK(log.calls.empty());
        CHECK(run(a, 1) == "s");  // at 0.4: the first
        CHECK(log.calls == std::vector<std::string>{"enter #2", "exit success #2"});
        CHECK(run(a, 2) == "ss");
        CHECK(log.calls.size() == 6);
        a.reset();  // takes the timers off, as clear()
        log.calls.clear();
        CHECK(run(a, 2, 0.1) == "ss");
        CHECK(log.calls.empty());
        CHECK(log.violations == 0);
    }

    // node.ts resumes a node with tree.__lastStatus, the status of the node that ticked last:
    // a Delay's child run from the context's timers, before the tick, is that node. The retry
    // loops, which wait for the next tick with their child finished, see it.
    TEST_CASE("a retry loop resumes with the status of a child a Delay ran between ticks") {
        const std::string delayed_success =
            b3("Invert", "", {b3("Delay", R"({"delay": 0})", {just_success})});
        // behavior3-ts: running, then success (the Delay's JustSuccess ran last).
        CHECK(run_b3(b3("RetryUntilSuccess", R"({"count": 2})", {delayed_success}), 4, 0.5) ==
              "rsrs");
        const std::string delayed_failure = b3("Delay", R"({"delay": 0})", {just_failure});
        CHECK(run_b3(b3("RetryUntilFailure", R"({"count": 2})", {delayed_failure}), 4, 0.5) ==
              "rsrs");
        // Without a run between ticks, the node resumes with its own running: the next try.
        CHECK(run_b3(b3("RetryUntilSuccess", R"({"count": 2})", {just_failure}), 4, 0.5) == "rrfr");
    }

    TEST_CASE("Delay takes its delay from input 1, and fails rather than drop a run") {
        script_log log;
        const std::shared_ptr<const tree> t = b3_tree(
            b3("Sequence", "",
               {R"({"name": "Let", "args": {"value": 0.5}, "output": ["d"]})",
                R"({"name": "Delay", "input": ["d"], "children": [)" + scripted("s") + "]}"}));
        agent a(t, &log);
        CHECK(run(a, 5, 0.1) == "sssss");
        CHECK(log.calls.empty());
        CHECK(run(a, 1, 0.1) == "s");  // at 0.6 the run due at 0.6
        CHECK(log.calls.size() == 2);

        agent full(b3_tree(b3("Delay", R"({"delay": 100})", {scripted("s")})), &log);
        CHECK(run(full, 17) == "ssssssssssssssssf");
    }

    // delay.ts: `cacheArgs = keys.map(key => blackboard.get(key))` when scheduling; the timer's
    // callback saves the current values, sets the cached ones, ticks the child, then sets the
    // saved ones back.
    TEST_CASE("Delay's cacheVars run the child with the values they had at scheduling") {
        const std::shared_ptr<const tree> t =
            b3_tree(b3("Sequence", "",
                       {R"({"name": "Calculate", "args": {"value": "n + 1"}, "output": ["n"]})",
                        R"({"name": "Let", "args": {"value": ["a"]}, "output": ["tag"]})",
                        R"({"name": "Push", "input": ["tag", "n"]})",
                        R"({"name": "Delay", "args": {"delay": 0.15, "cacheVars": ["n", "tag"]},
                 "children": [{"name": "Push", "input": ["seen", "n"], "children": []}]})"}));
        agent a(t);
        blackboard board = a.blackboard();
        board.set(board.slot("seen"), dynamic_value(dynamic_value::array_type{}));
        board.set(board.slot("n"), dynamic_value(0.0));
        CHECK(run(a, 3, 0.1) == "sss");  // schedules with n = 1, 2, 3; the first runs at 0.3
        auto text = [&](const char* key) { return board.text(board.slot(key)); };
        CHECK(text("seen") == "[1]");
        CHECK(text("n") == "3");  // put back after the run
        CHECK(text("tag") == R"(["a",3])");
        CHECK(run(a, 2, 0.1) == "ss");
        CHECK(text("seen") == "[1,2,3]");
        // The same written back: the listed variables again, in order.
        const std::string written = write_text(*t, file_format::behavior3);
        CHECK(written.find(R"("cacheVars": ["n","tag"])") != std::string::npos);
    }

    TEST_CASE("Delay's cacheVars are variable names, refused otherwise where they stand") {
        const load_result r =
            load_b3(b3("Delay", R"({"delay": 1, "cacheVars": ["n", 3]})", {just_success}));
        CHECK_FALSE(r);
        const diagnostic d = only(r, diagnostic_code::wrong_param_type);
        CHECK(d.message.find("argument 'cacheVars' lists variable names; entry 2 is an integer") !=
              std::string::npos);
        CHECK(d.where.column > 40);
    }

    TEST_CASE("the agent's own events cannot be posted by the program") {
        agent a(b3_tree(just_success));
        CHECK_THROWS_WITH_AS(a.post_event("canopy:tick"),
                             doctest::Contains("one of the agent's own events"), error);
    }

    TEST_CASE("a negative count or time loads and runs as behavior3-ts runs it") {
        // Repeat of -1 runs no iteration; a retry of -2 tries once, then gives up; Wait and
        // Timeout of a time past finish at their next tick.
        CHECK(run_b3(b3("Repeat", R"({"count": -1})", {just_failure}), 1) == "s");
        CHECK(run_b3(b3("Sequence", "",
                        {b3("Wait", R"({"time": -0.5})"),
                         b3("RetryUntilSuccess", R"({"count": -2})", {just_failure})}),
                     3) == "rrf");
        agent timed(b3_tree(b3("Timeout", R"({"time": -1})", {b3("Wait", R"({"time": 1})")})));
        CHECK(timed.tick(0.1) == status::running);
        CHECK(timed.tick(0.1) == status::failure);
    }

    // node.ts's Node.create: fewer children than the descriptor's count throws; more, or any
    // under an action, only warns, and the node ticks the ones it uses.
    TEST_CASE("children a node does not use load with a warning and are never ticked") {
        const std::string extra = scripted("f");  // logs each run it starts
        load_result r =
            load_b3(b3("Sequence", "",
                       {b3("Invert", "", {just_failure, extra}),
                        b3("Watchdog", "", {just_success, just_success, just_failure, extra}),
                        b3("Switch", "", {b3("Case", "", {just_success, just_success, extra})}),
                        b3("JustSuccess", "", {extra})}));
        REQUIRE(r);
        CHECK(only(r, diagnostic_code::decorator_child_count).severity ==
              diagnostic_severity::warning);
        CHECK(only(r, diagnostic_code::leaf_with_children).message.find("never ticked") !=
              std::string::npos);
        std::size_t unused = 0;
        for (const diagnostic& d : r.diagnostics) {
            CHECK(d.severity == diagnostic_severity::warning);
            if (d.code == diagnostic_code::invalid_param) {
                CHECK(d.message.find("the others are never ticked") != std::string::npos);
                ++unused;
            }
        }
        CHECK(unused == 2);  // Watchdog and Case
        script_log log;
        agent a(r.tree, &log);
        CHECK(a.tick(0.1) == status::success);
        CHECK(log.enters == 0);
    }

    TEST_CASE("rejects bad arguments with located diagnostics") {
        auto refused = [](const std::string& root, diagnostic_code code) {
            load_result r = load_b3(root);
            CHECK_FALSE(r);
            return only(r, code);
        };
        diagnostic d = refused(b3("RetryUntilSuccess", R"({"count": "x"})", {just_success}),
                               diagnostic_code::wrong_param_type);
        CHECK(d.where.line == 1);
        d = refused(b3("Watchdog", "", {just_success, just_success}),
                    diagnostic_code::invalid_param);
        CHECK(d.message.find("exactly 3 children") != std::string::npos);
        d = refused(b3("Switch", "", {b3("Case", "", {just_success})}),
                    diagnostic_code::invalid_param);
        CHECK(d.message.find("exactly 2 children") != std::string::npos);
        d = refused(b3("Once"), diagnostic_code::decorator_child_count);
        d = refused(b3("WaitForEvent"), diagnostic_code::missing_param);
        CHECK(d.message.find("event") != std::string::npos);
        // Both the argument and its input slot: behavior3-ts reads the input (_checkOneof),
        // behavior3editor refuses both; a warning.
        load_result both = load_b3(R"({"name": "Repeat", "args": {"count": 2}, "input": ["n"],
            "children": [)" + just_success +
                                   "]}");
        CHECK(both);
        d = only(both, diagnostic_code::duplicate_field);
        CHECK(d.severity == diagnostic_severity::warning);
    }

    TEST_CASE("family nodes round-trip through the behavior3 writer and every other format") {
        const std::string root =
            b3("Sequence", "",
               {// Keys the registry declares, so that the formats without implicit keys read them.
                R"({"name": "Repeat", "input": ["count"], "children": [)" + just_success + "]}",
                b3("RetryUntilSuccess", R"({"count": 3})", {just_failure}),
                b3("RetryUntilFailure", "", {just_failure}),
                b3("RepeatUntilSuccess", R"({"maxLoop": 2})", {just_failure}),
                b3("RepeatUntilFailure", "", {just_failure}),
                b3("Wait", R"({"time": 1.5, "random": 0.5})"),
                R"({"name": "Timeout", "input": ["health"], "children": [)" + just_success + "]}",
                b3("Parallel", "", {just_success, just_failure}),
                b3("Switch", "", {b3("Case", "", {just_success, just_failure})}),
                b3("AlwaysRunning", "", {just_success}), b3("Once", "", {just_success}),
                b3("WaitForEvent", R"({"event": "hit"})"),
                b3("Watchdog", "", {just_success, just_success, just_failure})});
        const std::string text = R"({"name": "t", "root": )" + root + "}";
        read_result first = read_records(text, file_format::behavior3, "t.json");
        REQUIRE(first.complete);
        const write_result written = info(file_format::behavior3).write(first.document);
        for (const diagnostic& d : written.problems) FAIL_CHECK(to_string(d));
        INFO(written.text);
        CHECK(written.text.find(R"("name": "Repeat")") != std::string::npos);
        CHECK(written.text.find(R"("input": ["count"])") != std::string::npos);
        CHECK(written.text.find("behavior3.") == std::string::npos);
        read_result again = read_records(written.text, file_format::behavior3, "t.json");
        REQUIRE(again.complete);
        const write_result twice = info(file_format::behavior3).write(again.document);
        CHECK(twice.text == written.text);

        const std::shared_ptr<const tree> loaded = b3_tree(root);
        for (file_format format :
             {file_format::flat_json, file_format::flat_xml, file_format::btcpp_xml}) {
            CAPTURE(info(format).name);
            const std::string other = write_text(*loaded, format);
            CHECK(other.find("behavior3.Repeat") != std::string::npos);
            load_result back = try_load_text(other, format, runtime_registry(), "t");
            for (const diagnostic& d : back.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(back);
            CHECK(to_canopy_text(*back.tree) == to_canopy_text(*loaded));
        }
    }
}
