// What Groot2's live view costs a program's ticks (bench/README.md, "Groot2 live view"): ns per
// agent tick of N agents sharing a 49-node tree, with no server, with a server watching agent
// 0 and no client, and with a client asking for statuses ten times a second.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "canopy/canopy.hpp"

namespace {

// A Sequence of 16 Selectors, each over a failure and a success: every node ticks every tick.
std::shared_ptr<const canopy::tree> bench_tree() {
    std::string json = R"({"name": "bench", "nodes": [{"id": 1, "type": "Sequence"})";
    int id = 2;
    for (int k = 0; k < 16; ++k) {
        const int selector = id++;
        json +=
            R"(, {"id": )" + std::to_string(selector) + R"(, "parentId": 1, "type": "Selector"})";
        json += R"(, {"id": )" + std::to_string(id++) + R"(, "parentId": )" +
                std::to_string(selector) + R"(, "type": "AlwaysFailure"})";
        json += R"(, {"id": )" + std::to_string(id++) + R"(, "parentId": )" +
                std::to_string(selector) + R"(, "type": "AlwaysSuccess"})";
    }
    json += "]}";
    canopy::registry types;
    canopy::register_builtin_nodes(types);
    canopy::load_result loaded =
        canopy::try_load_text(json, canopy::file_format::flat_json, types, "bench.json");
    if (!loaded) throw std::runtime_error("the benchmark tree does not load");
    return loaded.tree;
}

enum class mode { none, idle, polling };

// Asks for the statuses every 100 ms, as Groot2 does while it shows a running tree.
class polling_client {
public:
    explicit polling_client(const std::string& endpoint)
        : thread_([this, endpoint] {
              zmq::context_t context{1};
              zmq::socket_t socket{context, zmq::socket_type::req};
              socket.set(zmq::sockopt::linger, 0);
              socket.set(zmq::sockopt::rcvtimeo, 2000);
              socket.connect(endpoint);
              const char header[6] = {2, 'S', 1, 0, 0, 0};
              while (!stop_) {
                  if (!socket.send(zmq::buffer(header, sizeof header))) break;
                  std::vector<zmq::message_t> reply;
                  if (!zmq::recv_multipart(socket, std::back_inserter(reply))) break;
                  ++replies_;
                  std::this_thread::sleep_for(std::chrono::milliseconds(100));
              }
          }) {}
    ~polling_client() {
        stop_ = true;
        thread_.join();
    }
    std::uint64_t replies() const { return replies_; }

private:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> replies_{0};
    std::thread thread_;
};

std::unique_ptr<canopy::groot2_server> start_server() {
    std::mt19937 generator{std::random_device{}()};
    for (int attempt = 0; attempt < 100; ++attempt) {
        canopy::groot2_options options;
        options.port = static_cast<unsigned>(20000 + generator() % 40000);
        try {
            return std::make_unique<canopy::groot2_server>(options);
        } catch (const canopy::error&) {
        }
    }
    throw std::runtime_error("no free pair of ports");
}

struct population {
    std::vector<canopy::agent> agents;
};

population& agents_of(std::size_t n) {
    static const std::shared_ptr<const canopy::tree> t = bench_tree();
    static std::map<std::size_t, std::unique_ptr<population>> made;
    auto& p = made[n];
    if (!p) {
        p = std::make_unique<population>();
        p->agents.reserve(n);
        for (std::size_t i = 0; i < n; ++i) p->agents.emplace_back(t);
    }
    return *p;
}

void tick(benchmark::State& state, mode m) {
    const auto n = static_cast<std::size_t>(state.range(0));
    population& p = agents_of(n);
    std::unique_ptr<canopy::groot2_server> server;
    std::unique_ptr<polling_client> client;
    if (m != mode::none) {
        server = start_server();
        server->watch(&p.agents.front());
    }
    if (m == mode::polling) {
        client = std::make_unique<polling_client>(server->endpoint());
        while (!server->client_connected())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (auto _ : state) {
        if (server) server->update();  // once a frame, as a game loop would
        for (canopy::agent& a : p.agents) benchmark::DoNotOptimize(a.tick(0.01));
    }
    if (client) state.counters["status replies"] = static_cast<double>(client->replies());
    client.reset();
    server.reset();  // detaches from agent 0 before the next case
    state.counters["time/agent"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
}

void BM_tick_no_server(benchmark::State& state) {
    tick(state, mode::none);
}
void BM_tick_idle_server(benchmark::State& state) {
    tick(state, mode::idle);
}
void BM_tick_polled_server(benchmark::State& state) {
    tick(state, mode::polling);
}

}  // namespace

BENCHMARK(BM_tick_no_server)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
BENCHMARK(BM_tick_idle_server)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
BENCHMARK(BM_tick_polled_server)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();

BENCHMARK_MAIN();
