// The Groot2 server, driven by a test client that speaks the protocol from its definitions
// (a ZeroMQ REQ socket for requests, a SUB socket for breakpoint notifications): the tree,
// statuses, blackboard values, recording, breakpoints, and malformed requests.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/bt_observer.h"
#include "behaviortree_cpp/loggers/groot2_protocol.h"
#include "behaviortree_cpp/loggers/groot2_publisher.h"
#include "canopy/canopy.hpp"
#include "monitor/groot2_protocol.hpp"
#include "reload_versions.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

namespace protocol = detail::groot2;
using namespace std::chrono_literals;

// A Sequence that waits two ticks, sets `count`, then succeeds: a period of three ticks.
std::shared_ptr<const tree> patrol_tree(const std::string& name = "patrol") {
    return testing::runtime_tree(R"({"name": ")" + name + R"(", "blackboard": {
        "count": {"type": "integer", "default": 7},
        "speed": {"type": "number", "default": 2.5},
        "armed": "boolean",
        "label": {"type": "string", "default": "north"}},
      "nodes": [
        {"id": 1, "type": "Sequence", "describe": "patrol"},
        {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}},
        {"id": 3, "parentId": 1, "type": "SetBlackboard", "params": {"key": "count", "value": 42}},
        {"id": 4, "parentId": 1, "type": "AlwaysSuccess"}
    ]})");
}

// A server on a free port: the protocol takes two neighbouring ports, so a random high pair is
// tried until one binds, and parallel test runs do not meet.
std::unique_ptr<groot2_server> start_server(groot2_options options = {}) {
    std::mt19937 generator{std::random_device{}()};
    for (int attempt = 0; attempt < 100; ++attempt) {
        options.port = static_cast<unsigned>(20000 + generator() % 40000);
        try {
            return std::make_unique<groot2_server>(options);
        } catch (const error&) {
        }
    }
    FAIL("no free pair of ports");
    return nullptr;
}

// Groot2 as the header describes it.
struct test_client {
    explicit test_client(const groot2_server& server) : test_client(server.port()) {}
    explicit test_client(unsigned port) {
        requests.set(zmq::sockopt::rcvtimeo, 5000);
        requests.set(zmq::sockopt::linger, 0);
        requests.connect("tcp://127.0.0.1:" + std::to_string(port));
        notifications.set(zmq::sockopt::rcvtimeo, 5000);
        notifications.set(zmq::sockopt::linger, 0);
        notifications.set(zmq::sockopt::subscribe, "");
        notifications.connect("tcp://127.0.0.1:" + std::to_string(port + 1));
    }

    // Sends the parts as they are and returns the reply's parts.
    std::vector<std::string> send_raw(const std::vector<std::string>& parts) {
        std::vector<zmq::const_buffer> buffers;
        for (const std::string& part : parts) buffers.push_back(zmq::buffer(part));
        REQUIRE(zmq::send_multipart(requests, buffers));
        std::vector<zmq::message_t> reply;
        REQUIRE(zmq::recv_multipart(requests, std::back_inserter(reply)));
        std::vector<std::string> out;
        for (const zmq::message_t& part : reply) out.push_back(part.to_string());
        return out;
    }

    // A well-formed request; checks that the reply echoes its header.
    std::vector<std::string> ask(protocol::request_type type,
                                 std::optional<std::string> payload = {}) {
        protocol::request_header header;
        header.type = static_cast<std::uint8_t>(type);
        header.unique_id = ++last_id * 2654435761U;
        std::vector<std::string> parts{protocol::encode_request_header(header)};
        if (payload) parts.push_back(*payload);
        std::vector<std::string> reply = send_raw(parts);
        REQUIRE(!reply.empty());
        if (reply[0] != "error") {
            protocol::request_header echoed;
            REQUIRE(protocol::decode_reply_header(reply[0], echoed, tree));
            CHECK(echoed.protocol == protocol::protocol_id);
            CHECK(echoed.type == header.type);
            CHECK(echoed.unique_id == header.unique_id);
        }
        return reply;
    }

    // The statuses of an `S` reply, by uid.
    std::map<std::uint16_t, std::uint8_t> statuses() {
        const std::vector<std::string> reply = ask(protocol::request_type::status);
        REQUIRE(reply.size() == 2);
        REQUIRE(reply[1].size() % 3 == 0);
        std::map<std::uint16_t, std::uint8_t> out;
        for (std::size_t k = 0; k < reply[1].size(); k += 3) {
            const auto low = static_cast<std::uint8_t>(reply[1][k]);
            const auto high = static_cast<std::uint8_t>(reply[1][k + 1]);
            out[static_cast<std::uint16_t>(low | (high << 8))] =
                static_cast<std::uint8_t>(reply[1][k + 2]);
        }
        return out;
    }

    // Waits for a breakpoint notification; the uid it names, or -1 if none came.
    int breakpoint_reached() {
        std::vector<zmq::message_t> parts;
        if (!zmq::recv_multipart(notifications, std::back_inserter(parts)) || parts.size() != 2)
            return -1;
        const std::string head = parts[0].to_string();
        if (head.size() != protocol::request_header_size || head[1] != 'N') return -1;
        return std::stoi(parts[1].to_string());
    }

    zmq::context_t context{1};
    zmq::socket_t requests{context, zmq::socket_type::req};
    zmq::socket_t notifications{context, zmq::socket_type::sub};
    protocol::tree_id tree{};
    std::uint32_t last_id = 0;
};

// What a trace of the same ticks ends with, per node, as Groot2's status numbers.
std::vector<std::uint8_t> traced_groot2_statuses(const std::shared_ptr<const tree>& t, int ticks) {
    agent a(t);
    trace_recorder recorder(t, 100);
    a.set_observer(&recorder);
    for (int k = 0; k < ticks; ++k) a.tick(0.1);
    std::vector<std::uint8_t> last(t->size(), 0);
    for (const traced_tick& tick : recorder.recording().ticks) {
        for (const trace_event& e : tick.events) {
            if (e.what == trace_event::kind::result) last[e.node] = protocol::status_code(e.result);
            if (e.what == trace_event::kind::halt) last[e.node] = protocol::idle_after_running;
        }
    }
    return last;
}

// Ticks an agent on a thread of its own until stopped, as a running program does, letting the
// server attach between ticks.
struct ticking_thread {
    ticking_thread(agent& a, groot2_server& server)
        : thread([this, &a, &server] {
              while (!stop) {
                  server.update();
                  a.tick(0.01);
                  ++ticks;
                  std::this_thread::sleep_for(2ms);
              }
          }) {}
    ~ticking_thread() {
        stop = true;
        thread.join();
    }
    std::atomic<bool> stop{false};
    std::atomic<int> ticks{0};
    std::thread thread;
};

}  // namespace

TEST_SUITE("groot2 server") {
    TEST_CASE("BT::Groot2Publisher serves a canopy::btcpp tree, its loggers still hearing it") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(R"(<root BTCPP_format="4">
          <BehaviorTree ID="Main">
            <Sequence><AlwaysSuccess name="first"/><AlwaysFailure name="second"/></Sequence>
          </BehaviorTree></root>)");
        BT::TreeObserver counts(tree);
        std::unique_ptr<BT::Groot2Publisher> publisher;
        unsigned port = 0;
        std::mt19937 generator{std::random_device{}()};
        for (int attempt = 0; attempt < 100 && !publisher; ++attempt) {
            port = static_cast<unsigned>(20000 + generator() % 40000);
            try {
                publisher = std::make_unique<BT::Groot2Publisher>(tree, port);
            } catch (const BT::RuntimeError&) {
            }
        }
        REQUIRE(publisher);
        test_client client(port);
        const std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        REQUIRE(reply.size() == 2);
        CHECK(reply[1].find(R"(<AlwaysFailure name="second" _uid="3"/>)") != std::string::npos);
        // The client has asked: the server attaches before the next tick, and sees it.
        CHECK(tree.tickExactlyOnce() == BT::NodeStatus::FAILURE);
        const std::map<std::uint16_t, std::uint8_t> seen = client.statuses();
        CHECK(seen.at(2) == protocol::status_code(status::success));
        CHECK(seen.at(3) == protocol::status_code(status::failure));
        CHECK(counts.getStatistics("second").failure_count == 1);
        publisher.reset();
        CHECK(tree.tickExactlyOnce() == BT::NodeStatus::FAILURE);
        CHECK(counts.getStatistics("second").failure_count == 2);
    }

    TEST_CASE("sends the watched tree as BehaviorTree.CPP 4 XML with a _uid on every node") {
        auto server = start_server();
        test_client client(*server);
        CHECK(client.ask(protocol::request_type::full_tree)[0] == "error");  // nothing watched
        auto t = patrol_tree();
        agent a(t);
        server->watch(&a);
        const std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        REQUIRE(reply.size() == 2);
        const std::string& xml = reply[1];
        CHECK(xml.find(R"(BTCPP_format="4")") != std::string::npos);
        CHECK(xml.find(R"(<BehaviorTree ID="patrol")") != std::string::npos);
        for (int uid = 1; uid <= 4; ++uid)
            CHECK(xml.find("_uid=\"" + std::to_string(uid) + "\"") != std::string::npos);
        // Canopy reads it back as the same tree.
        const read_result back = read_records(xml, file_format::btcpp_xml, "groot2.xml");
        CHECK(back.diagnostics.empty());
        REQUIRE(back.document.trees.size() == 1);
        CHECK(back.document.trees[0].size() == 4);
        server->watch(nullptr);
    }

    TEST_CASE("sends each subtree put in place as a BehaviorTree of its own, uids running on") {
        auto server = start_server();
        test_client client(*server);
        auto t = testing::runtime_tree(R"({"main_tree": "Main", "trees": [
            {"name": "Count", "blackboard": {"n": {"type": "integer", "default": 10}},
             "nodes": [{"id": 1, "type": "SetBlackboard", "params": {"key": "n", "value": 7}}]},
            {"name": "Main", "blackboard": {"total": "integer"}, "nodes": [
              {"id": 1, "type": "Sequence"},
              {"id": 2, "parentId": 1, "type": "SubTree", "params": {"tree": "Count", "n": "{total}"}},
              {"id": 3, "parentId": 1, "type": "SubTree", "params": {"tree": "Count"}}]}]})");
        agent a(t);
        server->watch(&a);
        const std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        REQUIRE(reply.size() == 2);
        const read_result back = read_records(reply[1], file_format::btcpp_xml, "groot2.xml");
        REQUIRE(back.document.trees.size() == 3);
        CHECK(back.document.trees[0].name() == "Main");
        CHECK(back.document.trees[1].name() == "Count");
        CHECK(back.document.trees[2].name() == "Count");
        // Preorder of the running tree: Sequence 1, SubTree 2, its SetBlackboard 3, SubTree 4,
        // its SetBlackboard 5.
        CHECK(reply[1].find(R"(<SubTree ID="Count" _uid="2")") != std::string::npos);
        CHECK(reply[1].find(R"(<SubTree ID="Count" _uid="4")") != std::string::npos);
        CHECK(reply[1].find(R"(<BehaviorTree ID="Count" _fullpath="Main/Count::2">)") !=
              std::string::npos);
        CHECK(reply[1].find(R"(<BehaviorTree ID="Count" _fullpath="Main/Count::4">)") !=
              std::string::npos);
        CHECK(reply[1].find(R"(_uid="3")") != std::string::npos);
        CHECK(reply[1].find(R"(_uid="5")") != std::string::npos);
        server->watch(nullptr);
    }

    TEST_CASE("sends a BehaviorTree.CPP file's nodes in its own words, uids in preorder") {
        auto server = start_server();
        test_client client(*server);
        load_result loaded =
            try_load_file(std::string(CANOPY_SOURCE_DIR) + "/tests/data/views/btcpp.xml",
                          testing::runtime_registry());
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        server->watch(&a);
        const std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        REQUIRE(reply.size() == 2);
        const std::string& xml = reply[1];
        CAPTURE(xml);
        CHECK(xml.find(R"(<Sequence name="top" _uid="1">)") != std::string::npos);
        CHECK(xml.find(R"(<Sleep _uid="2" msec="1000"/>)") != std::string::npos);
        CHECK(xml.find(R"(<RetryUntilSuccessful _uid="3" num_attempts="3">)") != std::string::npos);
        CHECK(xml.find(R"(<Sleep _uid="4" msec="{@pause}"/>)") != std::string::npos);
        CHECK(
            xml.find(
                R"(<SubTree ID="Reload" name="reload" _uid="5" magazine="{ammo}" _skipIf="ammo &gt; 3"/>)") !=
            std::string::npos);
        CHECK(xml.find(R"(<BehaviorTree ID="Reload" _fullpath="Main/reload">)") !=
              std::string::npos);
        CHECK(xml.find(R"(<Sleep _uid="6" msec="{magazine}"/>)") != std::string::npos);
        CHECK(xml.find("seconds") == std::string::npos);
        CHECK(xml.find("Wait") == std::string::npos);
        CHECK(xml.find("attempts=") == xml.find("num_attempts=") + 4);
        // Valid BehaviorTree.CPP XML, which loads as the same tree, its nodes numbered by _uid.
        const read_result back = read_records(xml, file_format::btcpp_xml, "groot2.xml");
        for (const diagnostic& d : back.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(back.document.trees.size() == 2);
        CHECK(back.document.trees[0].name() == "Main");
        CHECK(back.document.trees[1].name() == "Reload");
        load_result again =
            try_load_text(xml, file_format::btcpp_xml, testing::runtime_registry(), "groot2.xml");
        for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(again);
        CHECK(to_text(*again.tree) == to_text(*loaded.tree));
        server->watch(nullptr);
    }

    TEST_CASE("sends a behavior3 file's and a Canopy file's nodes in their own words") {
        auto server = start_server();
        test_client client(*server);
        load_result loaded =
            try_load_file(std::string(CANOPY_SOURCE_DIR) + "/tests/data/views/behavior3.json",
                          testing::runtime_registry());
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        server->watch(&a);
        std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        REQUIRE(reply.size() == 2);
        {
            const std::string& xml = reply[1];
            CAPTURE(xml);
            // behavior3's Wait is its own node, not BehaviorTree.CPP's Sleep.
            CHECK(xml.find(R"(<Wait _uid="2" time="0.5"/>)") != std::string::npos);
            CHECK(xml.find(R"(<Repeat _uid="3" count="2">)") != std::string::npos);
            CHECK(xml.find(R"(<Log _uid="4" message="again"/>)") != std::string::npos);
            CHECK(xml.find("Sleep") == std::string::npos);
            // Groot2 learns their ports from the models, Repeat's `count` too.
            CHECK(xml.find(R"(<Action ID="Wait">)") != std::string::npos);
            CHECK(xml.find("<Decorator ID=\"Repeat\">\n            <input_port name=\"count\"/>") !=
                  std::string::npos);
            const read_result back = read_records(xml, file_format::btcpp_xml, "groot2.xml");
            for (const diagnostic& d : back.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(back.document.trees.size() == 1);
            CHECK(back.document.trees[0].size() == 5);
        }
        // A tree of Canopy's own: its names and units, not BehaviorTree.CPP's.
        auto own = testing::runtime_tree(R"({"name": "own", "nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "Wait", "params": {"seconds": 1.5}},
            {"id": 3, "parentId": 1, "type": "Retry", "params": {"attempts": 3}},
            {"id": 4, "parentId": 3, "type": "AlwaysSuccess"}]})");
        agent b(own);
        server->watch(&b);
        reply = client.ask(protocol::request_type::full_tree);
        REQUIRE(reply.size() == 2);
        CAPTURE(reply[1]);
        CHECK(reply[1].find(R"(<Wait _uid="2" seconds="1.5"/>)") != std::string::npos);
        CHECK(reply[1].find(R"(<Retry _uid="3" attempts="3">)") != std::string::npos);
        CHECK(read_records(reply[1], file_format::btcpp_xml, "groot2.xml").diagnostics.empty());
        server->watch(nullptr);
    }

    TEST_CASE("reports the statuses a trace of the same ticks ends with") {
        auto server = start_server();
        test_client client(*server);
        auto t = patrol_tree();
        agent a(t);
        trace_recorder recorder(t, 10);  // the program's own observer, told every event too
        server->watch(&a, &recorder);
        client.ask(protocol::request_type::full_tree);  // the client is connected from here
        for (int ticks = 1; ticks <= 4; ++ticks) {
            server->update();
            a.tick(0.1);
            CHECK(recorder.recording().ticks.size() == static_cast<std::size_t>(ticks));
            const std::vector<std::uint8_t> expected = traced_groot2_statuses(t, ticks);
            const auto shown = client.statuses();
            REQUIRE(shown.size() == t->size());
            for (std::size_t i = 0; i < t->size(); ++i) {
                CAPTURE(ticks);
                CAPTURE(i);
                CHECK(shown.at(static_cast<std::uint16_t>(i + 1)) == expected[i]);
            }
        }
        server->watch(nullptr);
    }

    TEST_CASE("reads the blackboard between ticks and answers in msgpack") {
        auto server = start_server();
        test_client client(*server);
        auto t = patrol_tree();
        agent a(t);
        server->watch(&a);
        {
            ticking_thread ticking(a, *server);
            const std::vector<std::string> reply =
                client.ask(protocol::request_type::blackboard, std::string("patrol;elsewhere"));
            REQUIRE(reply.size() == 2);
            const nlohmann::json values = nlohmann::json::from_msgpack(reply[1]);
            REQUIRE(values.contains("patrol"));
            CHECK(!values.contains("elsewhere"));
            const nlohmann::json& board = values["patrol"];
            CHECK((board["count"] == 7 || board["count"] == 42));
            CHECK(board["speed"] == 2.5);
            CHECK(board["armed"] == false);
            CHECK(board["label"] == "north");
        }
        server->watch(nullptr);
        // Values are read on the ticking thread: with no tick coming, the request gives up.
        groot2_options quick;
        quick.blackboard_wait = 100ms;
        auto impatient = start_server(quick);
        test_client other(*impatient);
        impatient->watch(&a);
        CHECK(other.ask(protocol::request_type::blackboard, std::string("patrol"))[0] == "error");
        impatient->watch(nullptr);
    }

    TEST_CASE("records each transition between start and stop") {
        auto server = start_server();
        test_client client(*server);
        auto t = patrol_tree();
        agent a(t);
        server->watch(&a);
        const std::vector<std::string> started =
            client.ask(protocol::request_type::toggle_recording, std::string("start"));
        REQUIRE(started.size() == 2);
        CHECK(std::stoll(started[1]) > 0);  // when recording started, in microseconds
        server->update();
        for (int k = 0; k < 3; ++k) a.tick(0.1);
        const std::vector<std::string> got = client.ask(protocol::request_type::get_transitions);
        REQUIRE(got.size() == 2);
        REQUIRE(got[1].size() % 9 == 0);
        // The results a trace of the same ticks records, in order.
        trace_recorder recorder(t, 10);
        agent twin(t);
        twin.set_observer(&recorder);
        for (int k = 0; k < 3; ++k) twin.tick(0.1);
        std::vector<std::pair<std::uint16_t, std::uint8_t>> expected;
        for (const traced_tick& tick : recorder.recording().ticks) {
            for (const trace_event& e : tick.events) {
                if (e.what == trace_event::kind::result)
                    expected.emplace_back(e.node + 1, protocol::status_code(e.result));
            }
        }
        std::vector<std::pair<std::uint16_t, std::uint8_t>> recorded;
        std::uint64_t previous = 0;
        for (std::size_t k = 0; k < got[1].size(); k += 9) {
            std::uint64_t micros = 0;
            for (int b = 5; b >= 0; --b)
                micros = (micros << 8) | static_cast<std::uint8_t>(got[1][k + b]);
            CHECK(micros >= previous);
            previous = micros;
            const auto uid =
                static_cast<std::uint16_t>(static_cast<std::uint8_t>(got[1][k + 6]) |
                                           (static_cast<std::uint8_t>(got[1][k + 7]) << 8));
            recorded.emplace_back(uid, static_cast<std::uint8_t>(got[1][k + 8]));
        }
        CHECK(recorded == expected);
        // Taken once; after stop, nothing more is kept.
        CHECK(client.ask(protocol::request_type::get_transitions)[1].empty());
        CHECK(client.ask(protocol::request_type::toggle_recording, std::string("stop")).size() ==
              1);
        a.tick(0.1);
        CHECK(client.ask(protocol::request_type::get_transitions)[1].empty());
        server->watch(nullptr);
    }

    TEST_CASE("holds a tick at a breakpoint until Groot2 releases it") {
        auto server = start_server();
        test_client client(*server);
        std::this_thread::sleep_for(200ms);  // the SUB socket joins before anything is published
        auto t = patrol_tree();
        agent a(t);
        server->watch(&a);
        const std::string hook =
            R"({"enabled": true, "uid": 4, "mode": 0, "once": false, "desired_status": "SKIPPED", "position": 0})";
        REQUIRE(client.ask(protocol::request_type::hook_insert, hook).size() == 1);
        const std::vector<std::string> dump = client.ask(protocol::request_type::hooks_dump);
        REQUIRE(dump.size() == 2);
        CHECK(nlohmann::json::parse(dump[1]).at(0).at("uid") == 4);

        std::atomic<int> ticks_done{0};
        status last = status::idle;
        std::thread ticking([&] {
            for (int k = 0; k < 3; ++k) {
                server->update();
                last = a.tick(0.1);
                ++ticks_done;
            }
        });
        CHECK(client.breakpoint_reached() == 4);  // the third tick reaches AlwaysSuccess
        std::this_thread::sleep_for(100ms);
        CHECK(ticks_done == 2);  // held
        // The blackboard is read by the held tick; SetBlackboard already ran.
        const std::vector<std::string> board =
            client.ask(protocol::request_type::blackboard, std::string("patrol"));
        REQUIRE(board.size() == 2);
        CHECK(nlohmann::json::from_msgpack(board[1])["patrol"]["count"] == 42);
        CHECK(client.statuses().at(3) == protocol::status_code(status::success));
        const std::string release =
            R"({"uid": 4, "desired_status": "SKIPPED", "position": 0, "remove_when_done": true})";
        CHECK(client.ask(protocol::request_type::breakpoint_unlock, release).size() == 1);
        ticking.join();
        CHECK(ticks_done == 3);
        CHECK(last == status::success);
        // Removed when done: the next pass does not stop.
        CHECK(client.ask(protocol::request_type::hooks_dump)[1] == "[]");
        for (int k = 0; k < 3; ++k) a.tick(0.1);
        server->watch(nullptr);
    }

    TEST_CASE("lets a held tick go on when the client goes quiet") {
        groot2_options options;
        options.heartbeat_timeout = 300ms;
        auto server = start_server(options);
        test_client client(*server);
        auto t = patrol_tree();
        agent a(t);
        server->watch(&a);
        const std::string hook =
            R"({"enabled": true, "uid": 1, "mode": 0, "once": false, "desired_status": "SKIPPED", "position": 0})";
        REQUIRE(client.ask(protocol::request_type::hook_insert, hook).size() == 1);
        server->update();
        const auto before = std::chrono::steady_clock::now();
        a.tick(0.1);  // held until the heartbeat runs out
        const auto held = std::chrono::steady_clock::now() - before;
        CHECK(held >= 200ms);
        CHECK(held < 3s);
        CHECK(!server->client_connected());
        // Quiet, the hook holds nothing; it is still there when the client comes back.
        a.tick(0.1);
        const std::vector<std::string> dump = client.ask(protocol::request_type::hooks_dump);
        CHECK(nlohmann::json::parse(dump[1]).size() == 1);
        REQUIRE(client.ask(protocol::request_type::remove_all_hooks).size() == 1);
        server->watch(nullptr);
    }

    TEST_CASE("observes the agent only while a client is connected") {
        groot2_options options;
        options.heartbeat_timeout = 200ms;
        auto server = start_server(options);
        auto t = patrol_tree();
        agent a(t);
        trace_recorder recorder(t, 10);
        server->watch(&a, &recorder);
        for (int k = 0; k < 2; ++k) {
            server->update();
            a.tick(0.1);
        }
        CHECK(recorder.recording().ticks.size() == 2);  // the program's observer goes on
        test_client client(*server);
        // Nothing was kept while no client was there: the statuses are those at watch().
        for (const auto& [uid, code] : client.statuses()) CHECK(code == 0);
        server->update();  // attaches, taking the statuses as they are
        CHECK(client.statuses().at(2) == protocol::status_code(status::running));
        a.tick(0.1);
        CHECK(client.statuses().at(2) == protocol::status_code(status::success));
        std::this_thread::sleep_for(400ms);  // quiet past the heartbeat: the client is gone
        CHECK(!server->client_connected());
        server->update();  // detaches
        for (int k = 0; k < 2; ++k) a.tick(0.1);
        CHECK(recorder.recording().ticks.size() == 5);
        // Back, the client sees the root's success of the third tick, nothing of the two
        // ticks it missed, until the server attaches again and takes the statuses anew.
        CHECK(client.statuses().at(1) == protocol::status_code(status::success));
        server->update();
        CHECK(client.statuses().at(1) == protocol::status_code(status::running));
        server->watch(nullptr);
    }

    TEST_CASE("reports a node skipped before the client came as skipped, as after it came") {
        auto server = start_server();
        auto t = testing::runtime_tree(R"({"name": "skipping", "nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "AlwaysSuccess", "params": {"_skipIf": "true"}},
            {"id": 3, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 5}}
        ]})");
        agent a(t);
        server->watch(&a);
        server->update();
        a.tick(0.1);  // unobserved: no client yet
        test_client client(*server);
        client.ask(protocol::request_type::full_tree);  // the client is connected from here
        server->update();  // attaches, taking the statuses from the agent's status bytes
        const auto taken = client.statuses();
        CHECK(taken.at(2) == 4);  // BehaviorTree.CPP's SKIPPED
        CHECK(taken.at(3) == protocol::status_code(status::running));
        a.tick(0.1);  // observed: the skip of this tick is told as it happens
        CHECK(client.statuses().at(2) == 4);
        server->watch(nullptr);
    }

    TEST_CASE("answers malformed requests with the error form and keeps serving") {
        auto server = start_server();
        test_client client(*server);
        auto t = patrol_tree();
        agent a(t);
        server->watch(&a);
        protocol::request_header header;
        header.type = 'T';
        const std::string good = protocol::encode_request_header(header);
        std::string wrong_protocol = good;
        wrong_protocol[0] = 3;
        std::string unknown_type = good;
        unknown_type[1] = 'Z';
        std::string insert = good;
        insert[1] = 'I';
        std::string unlock = good;
        unlock[1] = 'U';
        std::string board = good;
        board[1] = 'B';
        const std::vector<std::vector<std::string>> malformed = {
            {good.substr(0, 5)},
            {good + "x"},
            {wrong_protocol},
            {unknown_type},
            {insert, "{not json"},
            {insert},
            {insert, R"({"uid": 1})"},
            {insert,
             R"({"enabled": true, "uid": 99, "mode": 0, "once": false, "desired_status": "SKIPPED", "position": 0})"},
            {insert,
             R"({"enabled": true, "uid": 1, "mode": 1, "once": false, "desired_status": "SUCCESS", "position": 0})"},
            {unlock,
             R"({"uid": 2, "desired_status": "SKIPPED", "position": 0, "remove_when_done": false})"},
            {board},
        };
        for (const std::vector<std::string>& parts : malformed) {
            CAPTURE(parts.back());
            const std::vector<std::string> reply = client.send_raw(parts);
            REQUIRE(reply.size() == 2);
            CHECK(reply[0] == "error");
            CHECK(!reply[1].empty());
        }
        CHECK(client.ask(protocol::request_type::full_tree).size() == 2);
        server->watch(nullptr);
    }

    TEST_CASE("sends the new tree after the watched agent follows a reload") {
        auto server = start_server();
        test_client client(*server);
        tree_handle handle(patrol_tree("first"));
        agent a(handle);
        server->watch(&a);
        std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        const protocol::tree_id first_id = client.tree;
        CHECK(reply[1].find(R"(ID="first")") != std::string::npos);
        handle.publish(patrol_tree("second"));
        server->update();
        a.tick(0.1);
        reply = client.ask(protocol::request_type::full_tree);
        CHECK(client.tree != first_id);  // Groot2 sees the id change and asks for the tree
        CHECK(reply[1].find(R"(ID="second")") != std::string::npos);
        server->watch(nullptr);
    }

    TEST_CASE("starts over on each reloaded tree: more nodes, then fewer, then keys reordered") {
        groot2_options options;
        options.heartbeat_timeout = 2s;  // bounds a tick a stale breakpoint would hold
        auto server = start_server(options);
        test_client client(*server);
        tree_handle handle(testing::runtime_tree(testing::first_version));
        agent a(handle);
        coverage_recorder coverage(handle.current());  // the program's own observer
        server->watch(&a, &coverage);
        std::vector<std::string> reply = client.ask(protocol::request_type::full_tree);
        CHECK(reply[1].find(R"(ID="first")") != std::string::npos);
        // Before the last AlwaysSuccess of the first tree; in the grown tree, uid 4 is an
        // AlwaysSuccess its first tick reaches.
        const std::string hook =
            R"({"enabled": true, "uid": 4, "mode": 0, "once": false, "desired_status": "SKIPPED", "position": 0})";
        REQUIRE(client.ask(protocol::request_type::hook_insert, hook).size() == 1);
        for (int k = 0; k < 2; ++k) {
            server->update();
            a.tick(0.1);
        }
        REQUIRE(a.is_running(2));  // the Wait runs; the hook's node is not reached yet
        const auto shows_the_agent = [&] {
            const auto shown = client.statuses();
            REQUIRE(shown.size() == a.tree().size());
            for (tree::index i = 0; i < a.tree().size(); ++i) {
                CAPTURE(i);
                CHECK(shown.at(static_cast<std::uint16_t>(i + 1)) ==
                      protocol::status_code(a.last_status(i)));
            }
        };
        shows_the_agent();
        protocol::tree_id last_id = client.tree;

        // More nodes: the breakpoint named a node of the old tree, and goes with it.
        handle.publish(testing::runtime_tree(testing::grown_version));
        server->update();
        const auto start = std::chrono::steady_clock::now();
        a.tick(0.1);
        CHECK(std::chrono::steady_clock::now() - start < 1s);  // not held
        REQUIRE(a.tree().size() == 10);
        reply = client.ask(protocol::request_type::full_tree);
        CHECK(client.tree != last_id);
        last_id = client.tree;
        CHECK(reply[1].find(R"(ID="grown")") != std::string::npos);
        CHECK(reply[1].find(R"(_uid="10")") != std::string::npos);
        shows_the_agent();
        CHECK(client.ask(protocol::request_type::hooks_dump)[1] == "[]");
        CHECK(coverage.other_tree_ticks() == 1);
        CHECK(coverage.of(2).running == 1);  // the first tree's run, counted before the reload

        // Fewer nodes.
        handle.publish(testing::runtime_tree(testing::shrunk_version));
        server->update();
        a.tick(0.1);
        reply = client.ask(protocol::request_type::full_tree);
        CHECK(client.tree != last_id);
        last_id = client.tree;
        CHECK(reply[1].find(R"(ID="shrunk")") != std::string::npos);
        shows_the_agent();
        const std::string past_the_end =
            R"({"enabled": true, "uid": 5, "mode": 0, "once": false, "desired_status": "SKIPPED", "position": 0})";
        CHECK(client.ask(protocol::request_type::hook_insert, past_the_end)[0] == "error");
        CHECK(coverage.other_tree_ticks() == 2);

        // Keys declared in another order: each value under its own name.
        a.blackboard().set("speed", 2.5);
        handle.publish(testing::runtime_tree(testing::reordered_version));
        server->update();
        a.tick(0.1);
        a.blackboard().set("label", std::string("north"));
        reply = client.ask(protocol::request_type::full_tree);
        CHECK(client.tree != last_id);
        shows_the_agent();
        {
            ticking_thread ticking(a, *server);
            const std::vector<std::string> board =
                client.ask(protocol::request_type::blackboard, std::string("reordered"));
            REQUIRE(board.size() == 2);
            const nlohmann::json values = nlohmann::json::from_msgpack(board[1]);
            CHECK(values["reordered"]["speed"] == 2.5);
            CHECK(values["reordered"]["label"] == "north");
        }
        CHECK(coverage.other_tree_ticks() >= 3);
        CHECK(coverage.of(2).running == 1);
        server->watch(nullptr);
    }
}

TEST_SUITE("groot2 protocol") {
    TEST_CASE("decodes a request header and echoes it in the reply header") {
        protocol::request_header header;
        header.type = 'S';
        header.unique_id = 0xA1B2C3D4;
        const std::string bytes = protocol::encode_request_header(header);
        REQUIRE(bytes.size() == 6);
        CHECK(bytes[0] == 2);
        CHECK(bytes[1] == 'S');
        CHECK(static_cast<std::uint8_t>(bytes[2]) == 0xD4);  // little-endian
        const protocol::request r = protocol::decode_request({bytes});
        CHECK(r.error.empty());
        CHECK(r.type == protocol::request_type::status);
        CHECK(r.header.unique_id == 0xA1B2C3D4);
        protocol::tree_id id{};
        id[15] = 'z';
        const std::string reply = protocol::encode_reply_header(r.header, id);
        CHECK(reply.size() == protocol::reply_header_size);
        protocol::request_header back;
        protocol::tree_id back_id{};
        REQUIRE(protocol::decode_reply_header(reply, back, back_id));
        CHECK(back.unique_id == header.unique_id);
        CHECK(back_id == id);
    }

    TEST_CASE("BT::Monitor's headers are the bytes the server reads and writes") {
        const BT::Monitor::RequestHeader asked(BT::Monitor::BLACKBOARD);
        const std::string bytes = BT::Monitor::SerializeHeader(asked);
        REQUIRE(bytes.size() == BT::Monitor::RequestHeader::size());
        const protocol::request r = protocol::decode_request({bytes, "a"});
        CHECK(r.error.empty());
        CHECK(r.type == protocol::request_type::blackboard);
        CHECK(r.header.unique_id == asked.unique_id);
        protocol::tree_id id{};
        id[0] = 'q';
        const std::string reply = protocol::encode_reply_header(r.header, id);
        REQUIRE(reply.size() == BT::Monitor::ReplyHeader::size());
        const BT::Monitor::ReplyHeader back = BT::Monitor::DeserializeReplyHeader(reply);
        CHECK(back.request == asked);
        CHECK(back.tree_id[0] == 'q');
        CHECK_THROWS(BT::Monitor::DeserializeReplyHeader(bytes));
        CHECK(std::string(BT::Monitor::ToString(BT::Monitor::HOOK_INSERT)) == "hook_insert");
    }

    TEST_CASE("splits blackboard names and reads hooks one or many") {
        protocol::request_header header;
        header.type = 'B';
        protocol::request r =
            protocol::decode_request({protocol::encode_request_header(header), "a;;b;"});
        CHECK(r.blackboard_names == std::vector<std::string>{"a", "b"});
        header.type = 'I';
        r = protocol::decode_request(
            {protocol::encode_request_header(header),
             R"([{"enabled": true, "uid": 3, "mode": 0, "once": true, "desired_status": "IDLE", "position": 1},
                 {"enabled": false, "uid": 5, "mode": 0, "once": false, "desired_status": "SKIPPED", "position": 0}])"});
        REQUIRE(r.error.empty());
        REQUIRE(r.hooks.size() == 2);
        CHECK(r.hooks[0].uid == 3);
        CHECK(r.hooks[0].once);
        CHECK(r.hooks[0].position == protocol::hook_position::after_tick);
        CHECK(!r.hooks[1].enabled);
        r = protocol::decode_request(
            {protocol::encode_request_header(header),
             R"({"enabled": true, "uid": 70000, "mode": 0, "once": false, "desired_status": "IDLE", "position": 0})"});
        CHECK(r.error.find("70000") != std::string::npos);
    }
}

}  // namespace canopy
