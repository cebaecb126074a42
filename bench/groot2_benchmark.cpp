// What Groot2's live view and the browser's cost a program's ticks (bench/README.md, "Groot2
// live view", "Live view in the browser"): ns per agent tick of N agents sharing a 49-node
// tree, with no server, with a server watching agent 0 and no client, with a client asking
// for statuses ten times a second; with canopy::live, also with both servers and no client,
// with a page open (its state and the population's counts ten times a second), and with both
// clients at once.
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
#if CANOPY_HAS_LIVE
#include <httplib.h>
#endif

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

enum class mode { none, idle, polling, both_idle, page_open, both_open };

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

#if CANOPY_HAS_LIVE
// A live view's page: asks for the state every 100 ms, as the page does (which also asks for
// a count of the population, made when the view's budget allows).
class page_client {
public:
    explicit page_client(unsigned port)
        : thread_([this, port] {
              httplib::Client http("127.0.0.1", static_cast<int>(port));
              http.set_read_timeout(2);
              while (!stop_) {
                  const httplib::Result result = http.Get("/api/state");
                  if (result && result->status == 200) {
                      ++replies_;
                      if (result->body.find("\"population\":{") != std::string::npos) ++counts_;
                  }
                  std::this_thread::sleep_for(std::chrono::milliseconds(100));
              }
          }) {}
    ~page_client() {
        stop_ = true;
        thread_.join();
    }
    std::uint64_t replies() const { return replies_; }
    std::uint64_t with_counts() const { return counts_; }

private:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> replies_{0};
    std::atomic<std::uint64_t> counts_{0};
    std::thread thread_;
};
#endif

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
    if (m != mode::none && m != mode::page_open) {
        server = start_server();
        server->watch(&p.agents.front());
    }
    if (m == mode::polling || m == mode::both_open) {
        client = std::make_unique<polling_client>(server->endpoint());
        while (!server->client_connected())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
#if CANOPY_HAS_LIVE
    // One view per case and population, kept across the repetitions as a program keeps its
    // own: the population count's budget learns from the counts before it.
    static std::map<std::pair<mode, std::size_t>, std::unique_ptr<canopy::live_view>> views;
    canopy::live_view* view = nullptr;
    std::unique_ptr<page_client> page;
    if (m == mode::both_idle || m == mode::page_open || m == mode::both_open) {
        std::unique_ptr<canopy::live_view>& kept = views[{m, n}];
        if (!kept) {
            canopy::live_options options;
            options.port = 0;
            kept = std::make_unique<canopy::live_view>(options);
            kept->watch(&p.agents.front());
            kept->watch_population(p.agents.data(), p.agents.size());
        }
        view = kept.get();
    }
    if (m == mode::page_open || m == mode::both_open) {
        page = std::make_unique<page_client>(view->port());
        while (!view->page_open()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::uint64_t frame = 0;
#endif
    // The servers' update() calls timed apart from the ticks, in the same iterations: their
    // share is what they cost the ticking thread, whatever the machine's noise does to both.
    using clock = std::chrono::steady_clock;
    clock::duration updating{};
    clock::duration ticking{};
    for (auto _ : state) {
        const auto start = clock::now();
        if (server) server->update();  // once a frame, as a game loop would
        const auto ticks = clock::now();
        for (canopy::agent& a : p.agents) benchmark::DoNotOptimize(a.tick(0.01));
        const auto done = clock::now();
#if CANOPY_HAS_LIVE
        if (view) view->update(++frame);
#endif
        updating += (ticks - start) + (clock::now() - done);
        ticking += done - ticks;
    }
    if (m != mode::none) {
        state.counters["update %"] = 100.0 * std::chrono::duration<double>(updating).count() /
                                     std::chrono::duration<double>(ticking).count();
    }
    if (client) state.counters["status replies"] = static_cast<double>(client->replies());
#if CANOPY_HAS_LIVE
    if (page) {
        state.counters["page replies"] = static_cast<double>(page->replies());
        state.counters["with counts"] = static_cast<double>(page->with_counts());
    }
    page.reset();
#endif
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

#if CANOPY_HAS_LIVE
void BM_tick_idle_both(benchmark::State& state) {
    tick(state, mode::both_idle);
}
void BM_tick_page_open(benchmark::State& state) {
    tick(state, mode::page_open);
}
void BM_tick_both_open(benchmark::State& state) {
    tick(state, mode::both_open);
}
#endif

}  // namespace

BENCHMARK(BM_tick_no_server)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
BENCHMARK(BM_tick_idle_server)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
BENCHMARK(BM_tick_polled_server)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
#if CANOPY_HAS_LIVE
BENCHMARK(BM_tick_idle_both)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
BENCHMARK(BM_tick_page_open)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
BENCHMARK(BM_tick_both_open)->Arg(1)->Arg(10'000)->Arg(1'000'000)->UseRealTime();
#endif

BENCHMARK_MAIN();
