// The live view: an HTTP server (cpp-httplib) on threads of its own, and update(), on the
// ticking thread, which reads the agents between ticks and leaves copies for the server.
//
// Threads: the server's threads never touch an agent. They read and write `impl::shared`
// under `impl::mutex`, and mark the page as open with two atomics; update() does everything
// that reads an agent, and returns after one atomic load while no page is open.
#include "canopy/monitor/live_view.hpp"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/views/html.hpp"
#include "monitor/live_population.hpp"

namespace canopy {

namespace live = detail::live;
using clock_type = std::chrono::steady_clock;
using json = nlohmann::json;

namespace {

constexpr std::uint8_t running_code = 3;

// One tick of the watched agent as the page gets it: the status changes since the previous
// update(), in the viewer's event form [kind, node, before, after] (kind 1 a result, 2 a halt).
struct tick_record {
    std::uint64_t number = 0;
    std::int64_t time_ns = 0;
    std::vector<std::array<std::uint32_t, 4>> changes;
};

// A request for the agents at a node, answered by update().
struct agents_query {
    tree::index node = 0;
    std::uint8_t code = 0;
    std::size_t limit = 0;
    bool answered = false;
    std::vector<std::size_t> agents;
};

std::optional<std::uint64_t> whole_number(const std::string& text, std::uint64_t max) {
    if (text.empty() || text.size() > 19) return std::nullopt;
    std::uint64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (value > max) return std::nullopt;
    return value;
}

std::optional<std::uint8_t> status_code_named(const std::string& name) {
    static const char* const names[] = {"idle", "success", "failure", "running", "skipped"};
    static_assert(std::size(names) == live::status_codes);
    for (std::uint8_t code = 0; code < live::status_codes; ++code)
        if (name == names[code]) return code;
    return std::nullopt;
}

void reply_error(httplib::Response& res, int code, const std::string& message) {
    res.status = code;
    res.set_content(json{{"error", message}}.dump(), "application/json");
}

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               clock_type::now().time_since_epoch())
        .count();
}

}  // namespace

struct live_view::impl {
    explicit impl(live_options o) : options(std::move(o)) {}

    // ---- the ticking thread ------------------------------------------------------------

    void update(std::uint64_t tick) {
        if (!page_seen.load(std::memory_order_acquire)) return;
        const std::int64_t now = now_ns();
        const auto timeout = std::chrono::nanoseconds(options.page_timeout).count();
        if (now - last_request_ns.load(std::memory_order_acquire) > timeout) {
            page_seen.store(false, std::memory_order_release);
            std::lock_guard<std::mutex> lock(mutex);
            ring.clear();
            previous.clear();
            return;
        }
        std::unique_lock<std::mutex> lock(mutex);
        if (wanted_agent) {
            if (*wanted_agent < population_count) watched = population + *wanted_agent;
            wanted_agent.reset();
        }
        take_tree();
        if (query && !query->answered && current_tree != nullptr) {
            query->agents = live::agents_at(population, population_count, *current_tree,
                                            query->node, query->code, query->limit);
            query->answered = true;
            answered.notify_all();
        }
        record_tick(tick);
        if (board_wanted && watched != nullptr) {
            board = blackboard_json();
            board_wanted = false;
        }
        const bool count_now = counts_wanted && population_count != 0 && current_tree != nullptr &&
                               clock_type::now() >= next_count;
        if (!count_now) return;
        counts_wanted = false;
        const std::shared_ptr<const tree> t = current_tree;
        lock.unlock();
        // Counting takes long at a million agents: without the lock, into a buffer of this
        // thread's, swapped in after.
        const auto start = clock_type::now();
        live::count_population(population, population_count, *t, counting);
        counting.tick = tick;
        const auto took = clock_type::now() - start;
        next_count = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(
                                             took * (1.0 / options.population_budget - 1.0));
        lock.lock();
        if (t == current_tree) {
            std::swap(counts, counting);
            have_counts = true;
        }
    }

    // With the lock: the watched agent's tree, and a new version of it when it changed.
    void take_tree() {
        const tree* t = watched != nullptr ? &watched->tree() : nullptr;
        if (t == nullptr && population_count != 0) t = &population->tree();
        if (t == seen_tree) return;
        seen_tree = t;
        current_tree = watched != nullptr      ? watched->shared_tree()
                       : population != nullptr ? population->shared_tree()
                                               : nullptr;
        ++tree_version;
        page.clear();
        ring.clear();
        previous.clear();
        have_counts = false;
    }

    // With the lock: the watched agent's status bytes, and what changed since the last call.
    void record_tick(std::uint64_t tick) {
        if (watched == nullptr || &watched->tree() != seen_tree) {
            statuses.clear();
            return;
        }
        const std::size_t n = watched->tree().size();
        const std::uint8_t* bytes = watched->status_bytes();
        tick_record record;
        record.number = tick;
        record.time_ns = watched->time_ns();
        const bool same = previous.size() == n && previous_agent == watched;
        if (!same) {
            ring.clear();  // another agent: its ticks start here
            previous.assign(n, 0);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t now = detail::status_of_code(bytes[i]);
            if (now == previous[i]) continue;
            const auto node = static_cast<std::uint32_t>(i);
            const bool halted = now == 0 && previous[i] == running_code;
            if (same) record.changes.push_back({halted ? 2U : 1U, node, previous[i], now});
            previous[i] = now;
        }
        previous_agent = watched;
        statuses = previous;
        shown_tick = tick;
        if (!ring.empty() && ring.back().number == tick) {
            // Called again without a tick between (a program that is not ticking): what
            // changed since joins the tick's record.
            std::vector<std::array<std::uint32_t, 4>>& changes = ring.back().changes;
            changes.insert(changes.end(), record.changes.begin(), record.changes.end());
            return;
        }
        ring.push_back(std::move(record));
        while (ring.size() > std::max<std::size_t>(1, options.trace_ticks)) ring.pop_front();
    }

    std::string blackboard_json() const {
        json values = json::array();
        const canopy::blackboard board_view = watched->blackboard();
        const std::vector<blackboard_key>& keys = watched->tree().keys();
        for (std::uint32_t slot = 0; slot < keys.size(); ++slot) {
            if (!board_view.is_set(slot)) continue;  // holds no value (blackboard::is_set)
            values.push_back(
                {keys[slot].name, std::string(keys[slot].type_name()), board_view.text(slot)});
        }
        return values.dump(-1, ' ', false, json::error_handler_t::replace);
    }

    // ---- the server's threads ------------------------------------------------------------

    void mark_request() {
        last_request_ns.store(now_ns(), std::memory_order_release);
        page_seen.store(true, std::memory_order_release);
    }

    void serve_page(httplib::Response& res) {
        std::unique_lock<std::mutex> lock(mutex);
        if (current_tree == nullptr) {
            reply_error(res, 503, "no agent is watched yet");
            return;
        }
        if (page.empty()) {
            // The tree is immutable: the page is made without the lock.
            const std::shared_ptr<const tree> t = current_tree;
            lock.unlock();
            html_options html;
            html.title = options.title;
            html.live = true;
            std::string made = to_html(*t, html);
            lock.lock();
            if (t == current_tree) page = made;
            res.set_content(made, "text/html; charset=utf-8");
        } else {
            res.set_content(page, "text/html; charset=utf-8");
        }
        res.set_header("Cache-Control", "no-store");
    }

    void serve_state(const httplib::Request& req, httplib::Response& res) {
        std::uint64_t since = 0;
        if (req.has_param("since")) {
            const auto value = whole_number(req.get_param_value("since"), UINT64_MAX / 10);
            if (!value) return reply_error(res, 400, "since: expected a tick number");
            since = *value;
        }
        std::lock_guard<std::mutex> lock(mutex);
        board_wanted = true;
        counts_wanted = true;
        json state = {{"tree", tree_version},
                      {"tick", shown_tick},
                      {"agents", population_count},
                      {"agent", watched_index()},
                      {"statuses", statuses},
                      {"blackboard", json::parse(board.empty() ? "[]" : board)}};
        json ticks = json::array();
        for (const tick_record& record : ring) {
            if (record.number <= since) continue;
            ticks.push_back({{"n", record.number}, {"t", record.time_ns}, {"e", record.changes}});
        }
        state["ticks"] = std::move(ticks);
        if (have_counts) {
            json by_node = json::array();
            for (std::size_t i = 0; i + live::status_codes <= counts.by_node.size();
                 i += live::status_codes) {
                by_node.push_back({counts.by_node[i], counts.by_node[i + 1], counts.by_node[i + 2],
                                   counts.by_node[i + 3], counts.by_node[i + 4]});
            }
            state["population"] = {{"tick", counts.tick},
                                   {"counted", counts.counted},
                                   {"other_tree", counts.other_tree},
                                   {"counts", std::move(by_node)}};
        } else {
            state["population"] = nullptr;
        }
        res.set_content(state.dump(), "application/json");
        res.set_header("Cache-Control", "no-store");
    }

    void serve_agents(const httplib::Request& req, httplib::Response& res) {
        const auto node = whole_number(req.get_param_value("node"), UINT32_MAX);
        const auto code = status_code_named(req.get_param_value("status"));
        std::optional<std::uint64_t> limit = 20;
        if (req.has_param("limit")) limit = whole_number(req.get_param_value("limit"), 1000);
        if (!node) return reply_error(res, 400, "node: expected a node's preorder index");
        if (!code)
            return reply_error(res, 400,
                               "status: expected idle, success, failure, running or skipped");
        if (!limit || *limit == 0) return reply_error(res, 400, "limit: expected 1 to 1000");
        std::unique_lock<std::mutex> lock(mutex);
        if (current_tree == nullptr || *node >= current_tree->size())
            return reply_error(res, 404, "no node " + std::to_string(*node));
        // One query at a time: a second waits for the first to be answered.
        if (!answered.wait_for(lock, options.request_wait, [this] { return !query || stopping; }) ||
            stopping) {
            return reply_error(res, 503, "busy: another query of the agents is waiting");
        }
        auto mine = std::make_shared<agents_query>();
        mine->node = static_cast<tree::index>(*node);
        mine->code = *code;
        mine->limit = static_cast<std::size_t>(*limit);
        query = mine;
        const bool done = answered.wait_for(lock, options.request_wait,
                                            [&] { return mine->answered || stopping; });
        query.reset();
        answered.notify_all();
        if (!done || !mine->answered) {
            return reply_error(res, 503,
                               "the program called no update() within " +
                                   std::to_string(options.request_wait.count()) +
                                   " ms: agents are read between ticks");
        }
        res.set_content(json{{"node", *node}, {"agents", mine->agents}}.dump(), "application/json");
    }

    void serve_watch(const httplib::Request& req, httplib::Response& res) {
        const auto index = whole_number(req.get_param_value("agent"), UINT64_MAX / 10);
        if (!index) return reply_error(res, 400, "agent: expected an agent's index");
        std::lock_guard<std::mutex> lock(mutex);
        if (*index >= population_count) {
            return reply_error(res, 404,
                               "no agent " + std::to_string(*index) + " (the population has " +
                                   std::to_string(population_count) + ")");
        }
        wanted_agent = static_cast<std::size_t>(*index);
        res.status = 202;  // at the next update()
        res.set_content(json{{"agent", *index}}.dump(), "application/json");
    }

    // With the lock: the watched agent's index in the population, or -1.
    std::int64_t watched_index() const {
        if (watched == nullptr || population == nullptr) return -1;
        if (watched < population || watched >= population + population_count) return -1;
        return watched - population;
    }

    live_options options;
    httplib::Server server;
    std::thread thread;
    unsigned bound_port = 0;

    std::atomic<bool> page_seen{false};
    std::atomic<std::int64_t> last_request_ns{0};

    // The ticking thread's own.
    live::population_counts counting;
    clock_type::time_point next_count{};
    const agent* previous_agent = nullptr;
    std::vector<std::uint8_t> previous;

    // Under `mutex`. watched and population are set by the ticking thread, and read by the
    // server's threads only as numbers (never dereferenced there).
    std::mutex mutex;
    std::condition_variable answered;
    bool stopping = false;
    agent* watched = nullptr;
    agent* population = nullptr;
    std::size_t population_count = 0;
    const tree* seen_tree = nullptr;
    std::shared_ptr<const tree> current_tree;
    std::uint64_t tree_version = 0;
    std::string page;  // made at the first request for each tree
    std::uint64_t shown_tick = 0;
    std::vector<std::uint8_t> statuses;
    std::deque<tick_record> ring;
    std::string board;
    bool board_wanted = false;
    bool counts_wanted = false;
    bool have_counts = false;
    live::population_counts counts;
    std::optional<std::size_t> wanted_agent;
    std::shared_ptr<agents_query> query;
};

live_view::live_view(live_options options) : impl_(std::make_unique<impl>(std::move(options))) {
    impl& s = *impl_;
    if (!(s.options.population_budget > 0 && s.options.population_budget <= 1)) {
        throw error(error_code::invalid_argument,
                    "live_options::population_budget must be above 0 and at most 1");
    }
    httplib::Server& server = s.server;
    // Few threads: a page polls one request at a time, and asks for the agents at a node on
    // three connections at once. An idle kept-alive connection holds a thread, so it is let
    // go after a second.
    server.new_task_queue = [] { return new httplib::ThreadPool(8); };
    server.set_keep_alive_timeout(1);
    server.set_read_timeout(std::chrono::seconds(5));
    // httplib's default also sets SO_REUSEPORT, with which a second program could bind the
    // same port and take half the requests: reusing an address in TIME_WAIT is enough.
    server.set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    server.set_payload_max_length(1 << 16);
    server.Get("/", [&s](const httplib::Request&, httplib::Response& res) {
        s.mark_request();
        s.serve_page(res);
    });
    server.Get("/api/state", [&s](const httplib::Request& req, httplib::Response& res) {
        s.mark_request();
        s.serve_state(req, res);
    });
    server.Get("/api/agents", [&s](const httplib::Request& req, httplib::Response& res) {
        s.mark_request();
        s.serve_agents(req, res);
    });
    server.Post("/api/watch", [&s](const httplib::Request& req, httplib::Response& res) {
        s.mark_request();
        s.serve_watch(req, res);
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
            reply_error(res, 500, "the request could not be answered");
        });
    const std::string where = s.options.address + ":" + std::to_string(s.options.port);
    bool bound = false;
    if (s.options.port == 0) {
        const int port = server.bind_to_any_port(s.options.address);
        bound = port > 0;
        s.bound_port = bound ? static_cast<unsigned>(port) : 0;
    } else if (s.options.port <= 65535) {
        bound = server.bind_to_port(s.options.address, static_cast<int>(s.options.port));
        s.bound_port = s.options.port;
    }
    if (!bound) {
        throw error(error_code::invalid_argument,
                    "cannot serve the live view on " + where + " (in use, or not an address)");
    }
    s.thread = std::thread([&server] { server.listen_after_bind(); });
    // stop() only ends a server that has started listening: wait for it, so that a view
    // destroyed at once still ends.
    for (int waited = 0; !server.is_running() && waited < 5000; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

live_view::~live_view() {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->stopping = true;
        impl_->answered.notify_all();
    }
    impl_->server.stop();
    impl_->thread.join();
}

void live_view::watch(agent* a) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->watched = a;
    impl_->take_tree();
}

void live_view::watch_population(agent* first, std::size_t count) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->population = count != 0 ? first : nullptr;
    impl_->population_count = first != nullptr ? count : 0;
    impl_->have_counts = false;
    impl_->take_tree();
}

void live_view::update(std::uint64_t tick) {
    impl_->update(tick);
}

unsigned live_view::port() const noexcept {
    return impl_->bound_port;
}

std::string live_view::url() const {
    return "http://" + impl_->options.address + ":" + std::to_string(impl_->bound_port) + "/";
}

bool live_view::page_open() const noexcept {
    return impl_->page_seen.load(std::memory_order_acquire);
}

}  // namespace canopy
