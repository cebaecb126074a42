// The trace recorder: the last N ticks of one agent, and the trace file format it writes and
// reads back, refusing files that are not traces or that name another tree, located.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "canopy/canopy.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

// A root Sequence, a WaitTicks that runs for two ticks, then a success: a period of three.
std::shared_ptr<const tree> waiting_tree() {
    return testing::runtime_tree(R"({"name": "waiting", "nodes": [
        {"id": 1, "type": "Sequence", "describe": "wait, then succeed"},
        {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}},
        {"id": 3, "parentId": 1, "type": "AlwaysSuccess"}
    ]})");
}

recorded_trace round_trip(const recorded_trace& trace) {
    std::stringstream text;
    write_trace(trace, text);
    return read_trace(text, "round.trace");
}

// The line and message of the error reading `text` as a trace gives.
trace_error read_error(const std::string& text) {
    std::istringstream in(text);
    try {
        read_trace(in, "bad.trace");
    } catch (const trace_error& e) {
        return e;
    }
    FAIL("the trace was read without error:\n" << text);
    return trace_error("", 0, "");
}

// Version 1, which traces written before "skipped" have: still read.
const std::string trace_header = "canopy-trace 1\ntree 3 0123456789abcdef waiting\n";
const std::string header_2 = "canopy-trace 2\ntree 3 0123456789abcdef waiting\n";
const std::string header_3 = "canopy-trace 3\ntree 3 0123456789abcdef waiting\n";

}  // namespace

TEST_SUITE("trace recorder") {
    TEST_CASE("keeps the last N ticks, oldest dropped first, numbered from the first it saw") {
        auto t = waiting_tree();
        agent a(t);
        trace_recorder recorder(t, 3);
        a.set_observer(&recorder);
        CHECK(recorder.recording().ticks.empty());
        for (int k = 0; k < 7; ++k) a.tick(0.25);
        const recorded_trace trace = recorder.recording();
        REQUIRE(trace.ticks.size() == 3);
        CHECK(trace.ticks[0].number == 5);
        CHECK(trace.ticks[1].number == 6);
        CHECK(trace.ticks[2].number == 7);
        CHECK(trace.ticks[2].time_ns == 1750000000);
        CHECK(trace.tree_size == 3);
        CHECK(trace.tree_name == "waiting");
        CHECK(trace.tree_checksum == tree_checksum(*t));
    }

    TEST_CASE("records visits and results with the status before, parents around children") {
        auto t = waiting_tree();
        agent a(t);
        trace_recorder recorder(t, 10);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.tick(0.1);
        a.tick(0.1);
        const recorded_trace trace = recorder.recording();
        REQUIRE(trace.ticks.size() == 3);
        using k = trace_event::kind;
        const std::vector<trace_event> first = {{k::visit, status::idle, status::idle, 0},
                                                {k::visit, status::idle, status::idle, 1},
                                                {k::result, status::idle, status::running, 1},
                                                {k::result, status::idle, status::running, 0}};
        CHECK(trace.ticks[0].events == first);
        const std::vector<trace_event> third = {{k::visit, status::idle, status::idle, 0},
                                                {k::visit, status::idle, status::idle, 1},
                                                {k::result, status::running, status::success, 1},
                                                {k::visit, status::idle, status::idle, 2},
                                                {k::result, status::idle, status::success, 2},
                                                {k::result, status::running, status::success, 0}};
        CHECK(trace.ticks[2].events == third);
    }

    TEST_CASE("records halts between ticks at the start of the next tick") {
        auto t = waiting_tree();
        agent a(t);
        trace_recorder recorder(t, 10);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.reset();  // halts the running WaitTicks, then the Sequence
        a.tick(0.1);
        const recorded_trace trace = recorder.recording();
        REQUIRE(trace.ticks.size() == 2);
        const std::vector<trace_event>& events = trace.ticks[1].events;
        REQUIRE(events.size() >= 3);
        CHECK(events[0].what == trace_event::kind::halt);
        CHECK(events[0].node == 1);
        CHECK(events[1].what == trace_event::kind::halt);
        CHECK(events[1].node == 0);
        CHECK(events[2].what == trace_event::kind::visit);
    }

    TEST_CASE("a written trace reads back the same") {
        auto t = waiting_tree();
        agent a(t);
        trace_recorder recorder(t, 4);
        a.set_observer(&recorder);
        for (int k = 0; k < 6; ++k) a.tick(0.1);
        a.reset();
        a.tick(0.1);
        const recorded_trace written = recorder.recording();
        const recorded_trace read = round_trip(written);
        CHECK(read.tree_size == written.tree_size);
        CHECK(read.tree_checksum == written.tree_checksum);
        CHECK(read.tree_name == "waiting");
        REQUIRE(read.ticks.size() == written.ticks.size());
        for (std::size_t i = 0; i < read.ticks.size(); ++i) {
            CHECK(read.ticks[i].number == written.ticks[i].number);
            CHECK(read.ticks[i].time_ns == written.ticks[i].time_ns);
            CHECK(read.ticks[i].events == written.ticks[i].events);
        }
        CHECK_NOTHROW(check_trace_fits(read, *t, "round.trace"));
    }

    TEST_CASE("records a skipped result, writes it as 'skipped' and reads it back") {
        auto t = testing::make({testing::record(1, 0, "Sequence"), testing::leaf(2, 1, "k"),
                                testing::leaf(3, 1, "s")});
        testing::script_log log;
        agent a(t, &log);
        trace_recorder recorder(t, 2);
        a.set_observer(&recorder);
        a.tick(0.1);
        std::ostringstream text;
        recorder.write(text);
        CHECK(text.str().find("result 1 idle skipped\nvisit 2\nresult 2 idle success\n") !=
              std::string::npos);
        const recorded_trace read = round_trip(recorder.recording());
        REQUIRE(read.ticks.size() == 1);
        REQUIRE(read.ticks[0].events.size() == 6);
        CHECK(read.ticks[0].events[2].result == status::skipped);
        CHECK(read.ticks[0].events == recorder.recording().ticks[0].events);
    }

    TEST_CASE("the trace printer shows a skipped result, and the node's status says so after it") {
        auto t = testing::make({testing::record(1, 0, "Sequence"), testing::leaf(2, 1, "k"),
                                testing::leaf(3, 1, "k")});
        testing::script_log log;
        agent a(t, &log);
        std::ostringstream printed;
        trace_printer printer(printed);
        a.set_observer(&printer);
        CHECK(a.tick(0.1) == status::skipped);
        CHECK(printed.str() ==
              "-- tick 1 (0.1 s)\n"
              "Sequence #1\n"
              "  Scripted #2: idle -> skipped\n"
              "  Scripted #3: idle -> skipped\n"
              "Sequence #1: idle -> skipped\n");
        for (tree::index i = 0; i < t->size(); ++i) CHECK(a.last_status(i) == status::skipped);
        // Skipped is not running: the next tick enters each node afresh, from idle.
        printed.str("");
        CHECK(a.tick(0.1) == status::skipped);
        CHECK(printed.str().find("Sequence #1: idle -> skipped\n") != std::string::npos);
    }

    TEST_CASE("reads a version 1 trace, written before the skipped status") {
        std::istringstream in(trace_header + "tick 1 0\nvisit 0\nresult 0 idle running\n");
        const recorded_trace read = read_trace(in, "old.trace");
        REQUIRE(read.ticks.size() == 1);
        CHECK(read.ticks[0].events.size() == 2);
        CHECK(read.ticks[0].events[1].result == status::running);
    }

    TEST_CASE("keeps the blackboard each tick left, in the file too, escaped") {
        registry reg = testing::runtime_registry();
        reg.add_key("note", param_type::string, param_value(std::string("two words\\one\nline")));
        load_result r = try_load_text(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 1}},
            {"id": 3, "parentId": 1, "type": "SetBlackboard",
             "params": {"key": "count", "value": 7}}])",
                                      file_format::flat_json, reg);
        REQUIRE(r);
        agent a(r.tree);
        trace_recorder recorder(r.tree, 10);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.tick(0.1);
        const recorded_trace trace = recorder.recording();
        REQUIRE(trace.ticks.size() == 2);
        auto value = [](const traced_tick& tick, const std::string& key) {
            for (const blackboard_entry& e : tick.blackboard)
                if (e.key == key) return e.value;
            return std::string("(none)");
        };
        CHECK(value(trace.ticks[0], "count") == "0");
        CHECK(value(trace.ticks[1], "count") == "7");
        CHECK(value(trace.ticks[1], "note") == "two words\\one\nline");
        std::stringstream text;
        write_trace(trace, text);
        CHECK(text.str().find("\nvalue note two words\\\\one\\nline\n") != std::string::npos);
        const recorded_trace back = read_trace(text, "board.trace");
        REQUIRE(back.ticks.size() == 2);
        CHECK(back.ticks[1].blackboard == trace.ticks[1].blackboard);
        CHECK(back.ticks[0].blackboard == trace.ticks[0].blackboard);

        trace_recorder without(r.tree, 10, false);
        agent b(r.tree);
        b.set_observer(&without);
        b.tick(0.1);
        CHECK(without.recording().ticks.at(0).blackboard.empty());
    }

    TEST_CASE("records a node's error, and the next tick apart, in the file too") {
        registry reg = testing::runtime_registry();
        reg.add_action("Throw", [](context& ctx) -> status {
            if (ctx.time() < 0.15) throw std::runtime_error("boom\nagain");
            return status::success;
        });
        load_result r = try_load_text(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "Throw"}])",
                                      file_format::flat_json, reg);
        REQUIRE(r);
        agent a(r.tree);
        a.set_error_policy(error_policy::halt);
        trace_recorder recorder(r.tree, 10);
        a.set_observer(&recorder);
        CHECK(a.tick(0.1) == status::idle);
        CHECK(a.tick(0.1) == status::success);
        const recorded_trace trace = recorder.recording();
        REQUIRE(trace.ticks.size() == 2);
        using k = trace_event::kind;
        const std::vector<trace_event> first = {{k::visit, status::idle, status::idle, 0},
                                                {k::visit, status::idle, status::idle, 1},
                                                {k::error, status::idle, status::idle, 1},
                                                {k::halt, status::idle, status::idle, 1},
                                                {k::halt, status::idle, status::idle, 0}};
        CHECK(trace.ticks[0].events == first);
        CHECK(trace.ticks[0].error == "boom\nagain");
        CHECK(trace.ticks[1].error.empty());
        CHECK(trace.ticks[1].events.size() == 4);
        const recorded_trace back = round_trip(trace);
        CHECK(back.ticks[0].events == first);
        CHECK(back.ticks[0].error == "boom\nagain");
    }

    TEST_CASE("the trace format is lines of words, as documented") {
        auto t = waiting_tree();
        agent a(t);
        trace_recorder recorder(t, 1);
        a.set_observer(&recorder);
        a.tick(0.5);
        std::ostringstream text;
        recorder.write(text);
        std::ostringstream expected;
        expected << "canopy-trace 3\ntree 3 ";
        expected << std::hex;
        expected.width(16);
        expected.fill('0');
        expected << tree_checksum(*t) << std::dec;
        expected << " waiting\ntick 1 500000000\nvisit 0\nvisit 1\nresult 1 idle running\n"
                    "result 0 idle running\nvalue health 0\nvalue count 0\nvalue alarm false\n";
        CHECK(text.str() == expected.str());
    }

    TEST_CASE("refuses a trace recorded on another tree, located at its tree line") {
        auto t = waiting_tree();
        auto other = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "Sequence", "describe": "another describe"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}},
            {"id": 3, "parentId": 1, "type": "AlwaysSuccess"}
        ]})");
        agent a(other);
        trace_recorder recorder(other, 2);
        a.set_observer(&recorder);
        a.tick(0.1);
        const recorded_trace trace = round_trip(recorder.recording());
        try {
            check_trace_fits(trace, *t, "other.trace");
            FAIL("a trace of another tree fits");
        } catch (const trace_error& e) {
            CHECK(e.line() == 2);
            CHECK(std::string(e.what()).rfind("other.trace:2: error: the trace was recorded on "
                                              "another tree: 3 nodes, checksum ",
                                              0) == 0);
        }
    }

    TEST_CASE("refuses a malformed trace, located at the line at fault") {
        struct bad {
            std::string text;
            std::size_t line;
            std::string message;
        };
        const std::vector<bad> cases = {
            {"", 0, "bad.trace: error: empty file: not a Canopy trace"},
            {"canopy-trace\n", 1, "bad.trace:1: error: not a Canopy trace"},
            {"{\"nodes\": []}\n", 1, "bad.trace:1: error: not a Canopy trace"},
            {"canopy-trace 4\n", 1, "bad.trace:1: error: trace format version 4 is not supported"},
            {"canopy-trace 0\n", 1, "bad.trace:1: error: trace format version 0 is not supported"},
            {"canopy-trace 1\ntree three 0123456789abcdef\n", 2,
             "bad.trace:2: error: expected 'tree NODES CHECKSUM [NAME]'"},
            {"canopy-trace 1\ntree 3 12ab\n", 2, "bad.trace:2: error: expected 'tree NODES"},
            {"canopy-trace 1\n", 1, "bad.trace:1: error: the trace ends before its 'tree' line"},
            {trace_header + "visit 0\n", 3,
             "bad.trace:3: error: an event before the first 'tick' line"},
            {trace_header + "tick 1 0\nvisit 3\n", 4,
             "bad.trace:4: error: node 3 is not in a tree of 3 nodes"},
            {trace_header + "tick 1 0\n\n# a comment\nresult 0 idle done\n", 6,
             "bad.trace:6: error: expected statuses 'idle', 'success', 'failure', 'running' (and "
             "'skipped' from version 2 on), not 'idle done'"},
            {trace_header + "tick 1 0\nresult 0 idle skipped\n", 4,
             "bad.trace:4: error: expected statuses 'idle', 'success', 'failure', 'running' (and "
             "'skipped' from version 2 on), not 'idle skipped'"},
            {header_2 + "tick 1 0\nresult 0 idle skiped\n", 4,
             "bad.trace:4: error: expected statuses 'idle', 'success', 'failure', 'running' or "
             "'skipped', not 'idle skiped'"},
            {trace_header + "tick 1 0\nresult 0 idle\n", 4,
             "bad.trace:4: error: expected 'result NODE BEFORE AFTER'"},
            {trace_header + "tick 1 0\nhalt\n", 4, "bad.trace:4: error: expected 'halt NODE'"},
            {trace_header + "tick 2 0\ntick 2 0\n", 4,
             "bad.trace:4: error: tick 2 after tick 2: tick numbers must grow"},
            {trace_header + "tick 1 0\nwait 0\n", 4, "bad.trace:4: error: unknown line 'wait'"},
            {header_2 + "tick 1 0\nvalue count 1\n", 4, "bad.trace:4: error: unknown line 'value'"},
            {header_3 + "tick 1 0\nvalue count a\\qb\n", 4,
             "bad.trace:4: error: expected 'value KEY TEXT'"},
            {header_3 + "value count 1\n", 3,
             "bad.trace:3: error: an event before the first 'tick' line"},
            {header_3 + "tick 1 0\nerror 9 boom\n", 4,
             "bad.trace:4: error: node 9 is not in a tree of 3 nodes"},
            {header_3 + "tick 1 0\nerror\n", 4,
             "bad.trace:4: error: expected 'error NODE MESSAGE'"},
            {trace_header + "tick 1 -5 x\n", 3,
             "bad.trace:3: error: expected 'tick NUMBER TIME_NS'"},
        };
        for (const bad& c : cases) {
            CAPTURE(c.text);
            const trace_error e = read_error(c.text);
            CHECK(e.line() == c.line);
            CHECK(std::string(e.what()).rfind(c.message, 0) == 0);
        }
    }

    TEST_CASE("starts over when its agent moves to another tree") {
        auto t = waiting_tree();
        auto other = testing::runtime_tree(R"({"nodes": [{"id": 1, "type": "AlwaysSuccess"}]})");
        agent a(t);
        trace_recorder recorder(t, 5);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.replace_tree(other);
        a.tick(0.1);
        const recorded_trace trace = recorder.recording();
        CHECK(trace.tree_size == 1);
        CHECK(trace.tree_checksum == tree_checksum(*other));
        REQUIRE(trace.ticks.size() == 1);
        CHECK(trace.ticks[0].events.size() == 2);  // the visit and the result of its root
    }
}

}  // namespace canopy
