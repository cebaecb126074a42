// The live view's HTTP endpoints, driven by an httplib client: the watched agent's statuses
// against a trace of the same ticks, the population counts against a direct count, switching
// the watched agent, the agents at a node, a reload, and requests that are malformed or cut off.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "canopy/canopy.hpp"
#include "reload_versions.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

using namespace std::chrono_literals;
using json_value = nlohmann::json;

// A Fallback whose first child fails, is skipped, fails and succeeds in turn, so that its
// second child runs on some ticks and keeps the status of its last tick on the others; a
// Sequence under it waits. The first child's status byte says skipped after one tick in four.
std::shared_ptr<const tree> mixed_tree(const std::string& name = "mixed") {
    return testing::runtime_tree(R"({"name": ")" + name + R"(", "nodes": [
        {"id": 1, "type": "Fallback"},
        {"id": 2, "parentId": 1, "type": "Scripted", "params": {"results": "fkfs"}},
        {"id": 3, "parentId": 1, "type": "Sequence"},
        {"id": 4, "parentId": 3, "type": "Scripted", "params": {"results": "srsf"}},
        {"id": 5, "parentId": 3, "type": "Scripted", "params": {"results": "rfs"}}
    ]})");
}

live_options test_options() {
    live_options options;
    options.port = 0;  // a free one
    options.request_wait = 300ms;
    return options;
}

struct live_view_client {
    explicit live_view_client(const live_view& view)
        : http("127.0.0.1", static_cast<int>(view.port())) {
        http.set_connection_timeout(5);
        http.set_read_timeout(5);
    }
    json_value get(const std::string& path, int expected = 200) {
        const httplib::Result result = http.Get(path.c_str());
        REQUIRE(result);
        CHECK(result->status == expected);
        return json_value::parse(result->body);
    }
    httplib::Client http;
};

// What each node's status byte is after `ticks` ticks, from a trace of them: a result's
// status (skipped too), idle after a halt, idle when not ticked.
std::vector<int> traced_statuses(const std::shared_ptr<const tree>& t, int ticks) {
    testing::script_log log;
    log.keep_calls = false;
    agent a(t, &log);
    trace_recorder recorder(t, 100);
    a.set_observer(&recorder);
    for (int k = 0; k < ticks; ++k) a.tick(0.1);
    std::vector<int> last(t->size(), 0);
    for (const traced_tick& tick : recorder.recording().ticks) {
        for (const trace_event& e : tick.events) {
            if (e.what == trace_event::kind::result) last[e.node] = static_cast<int>(e.result);
            if (e.what == trace_event::kind::halt) last[e.node] = 0;
        }
    }
    return last;
}

// Per node, the counts of the population view: idle, success, failure, running, skipped.
using population_counts = std::array<std::uint32_t, 5>;

// Per node of `t`, the counts over the agents on `t`, read one by one.
std::vector<population_counts> direct_counts(const std::vector<agent>& agents, const tree& t) {
    std::vector<population_counts> counts(t.size());
    for (const agent& a : agents) {
        if (&a.tree() != &t) continue;
        for (tree::index i = 0; i < counts.size(); ++i)
            ++counts[i][static_cast<std::size_t>(a.last_status(i))];
    }
    return counts;
}

// `count` agents logging to `log`, agent k on tree_of(k) and ticked k % cycle times, so that
// the nodes are in every status somewhere.
template <typename TreeOf>
std::vector<agent> staggered_agents(int count, int cycle, TreeOf tree_of,
                                    testing::script_log& log) {
    std::vector<agent> agents;
    agents.reserve(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) {
        agents.emplace_back(tree_of(k), &log);
        for (int n = 0; n < k % cycle; ++n) agents.back().tick(0.1);
    }
    return agents;
}

// Calls update() as a program's loop does, without ticking, until stopped.
struct updating_thread {
    explicit updating_thread(live_view& view)
        : thread([this, &view] {
              while (!stop) {
                  view.update(1);
                  std::this_thread::sleep_for(2ms);
              }
          }) {}
    ~updating_thread() {
        stop = true;
        thread.join();
    }
    std::atomic<bool> stop{false};
    std::thread thread;
};

// Sends raw bytes on a new connection; returns what the server answers before it closes (or
// nothing when `close_early`).
std::string raw_exchange(unsigned port, const std::string& bytes, bool close_early) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(bytes.size()));
    std::string answer;
    if (!close_early) {
        char buffer[4096];
        for (ssize_t got; (got = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
            answer.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    return answer;
}

}  // namespace

TEST_SUITE("live view") {
    TEST_CASE("shows the statuses a trace of the same ticks ends with, tick by tick") {
        live_view view(test_options());
        live_view_client client(view);
        auto t = mixed_tree();
        testing::script_log log;
        log.keep_calls = false;
        agent a(t, &log);
        view.watch(&a);
        CHECK_FALSE(view.page_open());
        client.get("/api/state");  // a page is open from here
        CHECK(view.page_open());
        std::uint64_t seen = 0;
        for (int ticks = 1; ticks <= 7; ++ticks) {
            a.tick(0.1);
            view.update(static_cast<std::uint64_t>(ticks));
            const json_value state = client.get("/api/state?since=" + std::to_string(seen));
            CAPTURE(ticks);
            CHECK(state["tick"] == ticks);
            CHECK(state["agent"] == -1);  // not one of a population
            CHECK(state["statuses"].get<std::vector<int>>() == traced_statuses(t, ticks));
            // One new tick each time, the first without changes (where the page came in).
            REQUIRE(state["ticks"].size() == 1);
            CHECK(state["ticks"][0]["n"] == ticks);
            seen = static_cast<std::uint64_t>(ticks);
            if (ticks > 1) {
                const std::vector<int> before = traced_statuses(t, ticks - 1);
                const std::vector<int> after = traced_statuses(t, ticks);
                std::size_t changed = 0;
                for (std::size_t i = 0; i < before.size(); ++i) changed += before[i] != after[i];
                CHECK(state["ticks"][0]["e"].size() == changed);
                for (const json_value& e : state["ticks"][0]["e"]) {
                    const auto node = e[1].get<std::size_t>();
                    CHECK(e[2] == before.at(node));
                    CHECK(e[3] == after.at(node));
                }
            }
        }
        // Every kept tick, oldest first, when the page asks from the start.
        const json_value all = client.get("/api/state");
        REQUIRE(all["ticks"].size() == 7);
        CHECK(all["ticks"][0]["n"] == 1);
        CHECK(all["ticks"][6]["n"] == 7);
        view.watch(nullptr);
    }

    TEST_CASE("counts the population as the agents' status bytes say, stale ones included") {
        live_view view(test_options());
        live_view_client client(view);
        auto t = mixed_tree();
        testing::script_log log;
        log.keep_calls = false;
        std::vector<agent> agents = staggered_agents(
            300, 11, [&](int) { return t; }, log);
        view.watch(&agents[0]);
        view.watch_population(agents.data(), agents.size());
        CHECK(client.get("/api/state")["population"].is_null());  // asks for a count
        view.update(3);
        const json_value state = client.get("/api/state");
        REQUIRE(state["population"].is_object());
        CHECK(state["population"]["tick"] == 3);
        CHECK(state["population"]["counted"] == 300);
        CHECK(state["population"]["other_tree"] == 0);
        CHECK(state["agents"] == 300);
        const auto expected = direct_counts(agents, *t);
        const auto shown = state["population"]["counts"].get<std::vector<population_counts>>();
        CHECK(shown == expected);
        // The count covers statuses a node kept from an earlier tick: the Sequence's second
        // leaf is not ticked when the first fails, yet counts with its last result.
        std::uint32_t non_idle = 0;
        for (const auto& node : shown) non_idle += node[1] + node[2] + node[3] + node[4];
        CHECK(non_idle > 0);
        // The Fallback's first leaf is skipped by some agents and not yet ticked by others:
        // skipped counts apart from idle.
        CHECK(shown.at(1)[4] > 0);
        CHECK(shown.at(1)[0] > 0);
        view.watch_population(nullptr, 0);
        view.watch(nullptr);
    }

    TEST_CASE("counts past the 255 agents a byte counter holds, and leaves out other trees") {
        live_view view(test_options());
        live_view_client client(view);
        auto t = mixed_tree();
        auto other = mixed_tree("other");
        testing::script_log log;
        log.keep_calls = false;
        std::vector<agent> agents = staggered_agents(
            1000, 5, [&](int k) { return k % 100 == 99 ? other : t; }, log);
        view.watch(&agents[0]);
        view.watch_population(agents.data(), agents.size());
        client.get("/api/state");
        view.update(1);
        const json_value population = client.get("/api/state")["population"];
        CHECK(population["counted"] == 990);
        CHECK(population["other_tree"] == 10);
        const auto expected = direct_counts(agents, *t);
        CHECK(population["counts"].get<std::vector<population_counts>>() == expected);
        CHECK(expected.at(1)[4] > 255);  // the skipped byte counters were flushed too
        view.watch_population(nullptr, 0);
        view.watch(nullptr);
    }

    TEST_CASE("switches the watched agent when the page asks, and when the program does") {
        live_view view(test_options());
        live_view_client client(view);
        auto t = mixed_tree();
        testing::script_log log;
        log.keep_calls = false;
        std::vector<agent> agents = staggered_agents(
            10, 10, [&](int) { return t; }, log);
        view.watch(&agents[0]);
        view.watch_population(agents.data(), agents.size());
        client.get("/api/state");
        view.update(1);
        CHECK(client.get("/api/state")["agent"] == 0);

        const httplib::Result asked = client.http.Post("/api/watch?agent=5", "", "text/plain");
        REQUIRE(asked);
        CHECK(asked->status == 202);
        view.update(2);
        json_value state = client.get("/api/state");
        CHECK(state["agent"] == 5);
        std::vector<int> expected;
        for (tree::index i = 0; i < t->size(); ++i)
            expected.push_back(static_cast<int>(agents[5].last_status(i)));
        CHECK(state["statuses"].get<std::vector<int>>() == expected);
        // The new agent's trace starts at the switch.
        REQUIRE(state["ticks"].size() == 1);
        CHECK(state["ticks"][0]["n"] == 2);

        view.watch(&agents[7]);
        view.update(3);
        CHECK(client.get("/api/state")["agent"] == 7);

        const httplib::Result outside = client.http.Post("/api/watch?agent=10", "", "text/plain");
        REQUIRE(outside);
        CHECK(outside->status == 404);
        const httplib::Result garbage = client.http.Post("/api/watch?agent=x7", "", "text/plain");
        REQUIRE(garbage);
        CHECK(garbage->status == 400);
        view.update(4);
        CHECK(client.get("/api/state")["agent"] == 7);
        view.watch_population(nullptr, 0);
        view.watch(nullptr);
    }

    TEST_CASE("lists the agents at a node, read by update() between ticks") {
        live_options options = test_options();
        live_view view(options);
        live_view_client client(view);
        auto t = mixed_tree();
        testing::script_log log;
        log.keep_calls = false;
        std::vector<agent> agents = staggered_agents(
            50, 4, [&](int) { return t; }, log);
        view.watch(&agents[0]);
        view.watch_population(agents.data(), agents.size());
        // Without update(), the request is answered after the wait.
        client.get("/api/agents?node=3&status=success", 503);
        {
            updating_thread program(view);
            for (const tree::index node : {1U, 3U}) {
                for (const char* name : {"idle", "success", "failure", "running", "skipped"}) {
                    const json_value answer =
                        client.get("/api/agents?node=" + std::to_string(node) + "&status=" + name +
                                   "&limit=5");
                    std::vector<std::size_t> expected;
                    for (std::size_t k = 0; k < agents.size() && expected.size() < 5; ++k) {
                        if (to_string(agents[k].last_status(node)) == std::string_view(name))
                            expected.push_back(k);
                    }
                    CAPTURE(node);
                    CAPTURE(name);
                    CHECK(answer["agents"].get<std::vector<std::size_t>>() == expected);
                    if (node == 1 && std::string_view(name) == "skipped")
                        CHECK_FALSE(expected.empty());
                }
            }
            client.get("/api/agents?node=99&status=success", 404);
        }
        view.watch_population(nullptr, 0);
        view.watch(nullptr);
    }

    TEST_CASE("answers malformed requests with 4xx and keeps serving") {
        live_view view(test_options());
        live_view_client client(view);
        auto t = mixed_tree();
        testing::script_log log;
        agent a(t, &log);
        view.watch(&a);
        view.watch_population(&a, 1);
        client.get("/api/state?since=yesterday", 400);
        client.get("/api/state?since=-1", 400);
        client.get("/api/agents", 400);
        client.get("/api/agents?node=1", 400);
        client.get("/api/agents?node=1&status=sleeping", 400);
        client.get("/api/agents?node=1&status=success&limit=0", 400);
        client.get("/api/agents?node=99999999999&status=success", 400);
        const httplib::Result missing = client.http.Get("/api/nothing");
        REQUIRE(missing);
        CHECK(missing->status == 404);
        CHECK(raw_exchange(view.port(), "HELLO\r\n\r\n", false).rfind("HTTP/1.1 400", 0) == 0);
        CHECK(raw_exchange(view.port(), "GET /api/state HTTP/7.1\r\n\r\n", false)
                  .rfind("HTTP/1.1 400", 0) == 0);
        CHECK(raw_exchange(view.port(), "GET /api/state?since=%zz HTTP/1.1\r\n\r\n", false)
                  .rfind("HTTP/1.1 400", 0) == 0);
        const std::string long_path(20000, 'a');
        const std::string too_long =
            raw_exchange(view.port(), "GET /" + long_path + " HTTP/1.1\r\n\r\n", false);
        CHECK((too_long.empty() || too_long.rfind("HTTP/1.1 4", 0) == 0));
        client.get("/api/state");
        view.watch_population(nullptr, 0);
        view.watch(nullptr);
    }

    TEST_CASE("survives connections closed mid-request and mid-answer") {
        live_view view(test_options());
        auto t = mixed_tree();
        testing::script_log log;
        agent a(t, &log);
        view.watch(&a);
        raw_exchange(view.port(), "GET /api/sta", true);  // cut off in the request line
        raw_exchange(view.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n", true);  // the page unread
        for (int k = 0; k < 20; ++k)
            raw_exchange(view.port(), "GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n", true);
        live_view_client client(view);
        a.tick(0.1);
        view.update(1);
        CHECK(client.get("/api/state")["tree"].is_number());
        view.watch(nullptr);
    }

    TEST_CASE("serves the page of the new tree after the watched agent follows a reload") {
        live_view view(test_options());
        live_view_client client(view);
        tree_handle handle(mixed_tree("first"));
        testing::script_log log;
        agent a(handle, &log);
        view.watch(&a);
        httplib::Result page = client.http.Get("/");
        REQUIRE(page);
        CHECK(page->status == 200);
        CHECK(page->body.find(R"("name":"first")") != std::string::npos);
        CHECK(page->body.find(R"("live":true)") != std::string::npos);
        const json_value before = client.get("/api/state");
        handle.publish(mixed_tree("second"));
        a.tick(0.1);
        view.update(1);
        const json_value after = client.get("/api/state");
        CHECK(after["tree"] != before["tree"]);  // the page sees it and loads again
        page = client.http.Get("/");
        REQUIRE(page);
        CHECK(page->body.find(R"("name":"second")") != std::string::npos);
        view.watch(nullptr);
    }

    TEST_CASE("serves the tree in its file's words, Canopy's beside them") {
        live_view view(test_options());
        live_view_client client(view);
        load_result loaded =
            try_load_file(std::string(CANOPY_SOURCE_DIR) + "/tests/data/views/btcpp.xml",
                          testing::runtime_registry());
        REQUIRE(loaded);
        agent a(loaded.tree);
        view.watch(&a);
        const httplib::Result page = client.http.Get("/");
        REQUIRE(page);
        CHECK(page->status == 200);
        const std::string marker = R"(<script type="application/json" id="tree-data">)";
        const std::size_t start = page->body.find(marker);
        REQUIRE(start != std::string::npos);
        const std::size_t end = page->body.find("</script", start);
        const json_value data = json_value::parse(
            page->body.substr(start + marker.size(), end - start - marker.size()));
        const json_value& nodes = data["nodes"];
        REQUIRE(nodes.size() == 6);
        CHECK(data["types"][nodes[1][0].get<std::size_t>()]["name"] == "Sleep");
        CHECK(nodes[1][8] == json_value::parse(R"([["msec", "\"1000\"", 0]])"));
        CHECK(nodes[3][8] == json_value::parse(R"([["msec", "{@pause}", 1]])"));
        CHECK(nodes[4][8][1] == json_value::parse(R"(["magazine", "{ammo}", 1])"));
        CHECK(data["canopy_params"]["1"] == json_value::parse(R"([["seconds", "1", 0]])"));
        view.watch(nullptr);
    }

    TEST_CASE("starts over on each reloaded tree: more nodes, then fewer, then keys reordered") {
        live_options options = test_options();
        options.population_budget = 1;  // a count at every update() that may count
        live_view view(options);
        live_view_client client(view);
        tree_handle handle(testing::runtime_tree(testing::first_version));
        std::vector<agent> agents;
        agents.reserve(6);
        for (int k = 0; k < 6; ++k) {
            agents.emplace_back(handle);
            for (int n = 0; n <= k % 4; ++n) agents.back().tick(0.1);  // most mid-run
        }
        view.watch(&agents[0]);
        view.watch_population(agents.data(), agents.size());
        std::uint64_t tick = 1;
        client.get("/api/state");  // the page opens and asks for a count
        view.update(tick);
        json_value state = client.get("/api/state");
        const json_value first_tree = state["tree"];
        CHECK(state["statuses"].size() == 4);
        CHECK(state["population"]["counts"].size() == 4);
        // Ticks the first `movers` agents (the watched one among them) once; then the state
        // once the page has asked for a count of them.
        const auto tick_and_look = [&](std::size_t movers) {
            for (std::size_t k = 0; k < movers; ++k) agents[k].tick(0.1);
            view.update(++tick);
            client.get("/api/state");
            view.update(tick);
            return client.get("/api/state");
        };
        const auto statuses_of = [](const agent& a) {
            std::vector<int> statuses;
            for (tree::index i = 0; i < a.tree().size(); ++i)
                statuses.push_back(static_cast<int>(a.last_status(i)));
            return statuses;
        };
        // The changes of the kept ticks name nodes of a tree of `size` nodes, from `since` on.
        const auto ticks_fit = [](const json_value& ticks, std::size_t size, std::uint64_t since) {
            for (const json_value& record : ticks) {
                if (record["n"].get<std::uint64_t>() < since) return false;
                for (const json_value& e : record["e"])
                    if (e[1].get<std::size_t>() >= size) return false;
            }
            return true;
        };

        // More nodes, half the agents moved: the others are counted apart.
        const auto grown = testing::runtime_tree(testing::grown_version);
        handle.publish(grown);
        state = tick_and_look(3);
        CHECK(state["tree"] != first_tree);
        CHECK(state["statuses"].get<std::vector<int>>() == statuses_of(agents[0]));
        CHECK(state["statuses"].size() == 10);
        CHECK(ticks_fit(state["ticks"], 10, tick));
        REQUIRE(state["population"].is_object());
        CHECK(state["population"]["counted"] == 3);
        CHECK(state["population"]["other_tree"] == 3);
        CHECK(state["population"]["counts"].get<std::vector<population_counts>>() ==
              direct_counts(agents, *grown));
        httplib::Result page = client.http.Get("/");
        REQUIRE(page);
        CHECK(page->body.find(R"("name":"grown")") != std::string::npos);
        {
            updating_thread program(view);
            // Node 9 is past the first tree's end; node 3 is in both, and only the agents on
            // the grown tree are asked.
            CHECK(client.get("/api/agents?node=9&status=idle")["agents"] ==
                  json_value::array({0, 1, 2}));
            CHECK(client.get("/api/agents?node=3&status=success")["agents"] ==
                  json_value::array({0, 1, 2}));
        }

        // Fewer nodes, every agent moved.
        for (std::size_t k = 3; k < agents.size(); ++k) agents[k].tick(0.1);
        const auto shrunk = testing::runtime_tree(testing::shrunk_version);
        handle.publish(shrunk);
        state = tick_and_look(agents.size());
        CHECK(state["statuses"].get<std::vector<int>>() == statuses_of(agents[0]));
        CHECK(state["statuses"].size() == 2);
        CHECK(ticks_fit(state["ticks"], 2, tick));
        CHECK(state["population"]["counted"] == 6);
        CHECK(state["population"]["other_tree"] == 0);
        CHECK(state["population"]["counts"].get<std::vector<population_counts>>() ==
              direct_counts(agents, *shrunk));
        client.get("/api/agents?node=5&status=idle", 404);

        // Keys declared in another order: each value under its own name.
        agents[0].blackboard().set("speed", 2.5);
        const auto reordered = testing::runtime_tree(testing::reordered_version);
        handle.publish(reordered);
        state = tick_and_look(agents.size());
        agents[0].blackboard().set("label", std::string("north"));
        state = tick_and_look(agents.size());
        CHECK(state["statuses"].size() == 6);
        CHECK(state["population"]["counts"].size() == 6);
        // The registry's keys, then the tree's in its order.
        json_value declared = json_value::array();
        for (const json_value& entry : state["blackboard"]) {
            if (entry[0] == "label" || entry[0] == "speed") declared.push_back(entry);
        }
        CHECK(declared ==
              json_value::parse(R"([["label", "string", "north"], ["speed", "number", "2.5"]])"));
        view.watch_population(nullptr, 0);
        view.watch(nullptr);
    }

    TEST_CASE("goes back to doing nothing once the page is gone") {
        live_options options = test_options();
        options.page_timeout = 50ms;
        live_view view(options);
        live_view_client client(view);
        auto t = mixed_tree();
        testing::script_log log;
        agent a(t, &log);
        view.watch(&a);
        client.get("/api/state");
        CHECK(view.page_open());
        std::this_thread::sleep_for(100ms);
        view.update(1);
        CHECK_FALSE(view.page_open());
        view.watch(nullptr);
    }

    TEST_CASE("refuses a port in use, naming it") {
        live_view first(test_options());
        live_options options;
        options.port = first.port();
        try {
            live_view second(options);
            FAIL("a second view bound the same port");
        } catch (const error& e) {
            CHECK(std::string(e.what()).find(std::to_string(first.port())) != std::string::npos);
        }
        CHECK(first.url() == "http://127.0.0.1:" + std::to_string(first.port()) + "/");
    }
}

}  // namespace canopy
