// The Groot2 server: a ZeroMQ REP socket answered on the server's thread, a PUB socket the
// ticking thread announces breakpoints on, and an observer that keeps what Groot2 asks for.
//
// Threads: the server thread owns the REP socket; the ticking thread owns the agent, so only
// it reads the agent (its statuses and blackboard) and only it sends on PUB. They meet in
// `impl::mutex`. While no client is connected the observer is not attached at all: update(),
// on the ticking thread, attaches it when a client comes and detaches it when it goes.
#include "canopy/monitor/groot2_server.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <vector>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/views/groot2_tree.hpp"
#include "monitor/groot2_protocol.hpp"

namespace canopy {

namespace protocol = detail::groot2;
using clock_type = std::chrono::steady_clock;

namespace {

// The largest tree Groot2 can name every node of: uids are 16 bits, and 0 is none.
constexpr std::size_t max_nodes = 0xFFFF;

struct hook_state {
    bool enabled = true;
    bool once = false;
    bool released = false;
};
using hook_map = std::map<std::uint16_t, std::shared_ptr<hook_state>>;

protocol::tree_id random_tree_id() {
    static std::mt19937_64 generator{std::random_device{}()};
    protocol::tree_id id{};
    for (std::size_t k = 0; k < id.size(); k += 8) {
        const std::uint64_t bits = generator();
        for (std::size_t b = 0; b < 8; ++b) id[k + b] = static_cast<char>((bits >> (8 * b)) & 0xFF);
    }
    return id;
}

}  // namespace

struct groot2_server::impl final : observer {
    explicit impl(groot2_options o) : options(std::move(o)) {}

    // The observer, on the ticking thread, attached by update() while a client is connected;
    // between the client going quiet and the next update(), each call returns at its first
    // lines.
    void on_visit(const agent& a, tree::index node) override {
        if (!client_active.load(std::memory_order_acquire)) return;
        if (node == tree::root) sync_with(a);
        if (hook_count.load(std::memory_order_relaxed) != 0 && &a.tree() == seen_tree)
            hold(node, protocol::hook_position::before_tick);
    }
    void on_tick(const agent& a, tree::index node, status /*before*/, status result) override {
        if (!client_active.load(std::memory_order_acquire) || &a.tree() != seen_tree) return;
        set_status(node, protocol::status_code(result), protocol::status_code(result));
        if (node == tree::root && board_wanted.load(std::memory_order_acquire)) {
            std::lock_guard<std::mutex> lock(mutex);
            serve_blackboard();
        }
        if (hook_count.load(std::memory_order_relaxed) != 0)
            hold(node, protocol::hook_position::after_tick);
    }
    void on_halt(const agent& a, tree::index node) override {
        if (!client_active.load(std::memory_order_acquire) || &a.tree() != seen_tree) return;
        set_status(node, protocol::idle_after_running, protocol::status_code(status::idle));
    }

    // Ticking thread: takes the agent's tree, and its statuses as they are now. Hooks name
    // nodes by uid, which means other nodes in another tree: they go with the old tree.
    void take_agent(const agent* a) {
        std::lock_guard<std::mutex> lock(mutex);
        const tree* t = a != nullptr ? &a->tree() : nullptr;
        if (t != seen_tree) {
            seen_tree = t;
            current_tree = a != nullptr ? a->shared_tree() : nullptr;
            tree_id = random_tree_id();
            tree_xml.clear();
            for (hook_map& hooks : hooks_at) {
                for (auto& [uid, hook] : hooks) hook->enabled = false;
                hooks.clear();
            }
            hook_count.store(0, std::memory_order_relaxed);
            transitions.clear();
        }
        seen_session = session.load(std::memory_order_acquire);
        status_count = t != nullptr ? t->size() : 0;
        statuses = std::make_unique<std::atomic<std::uint8_t>[]>(status_count);
        for (std::size_t i = 0; i < status_count; ++i) {
            statuses[i].store(protocol::status_code(a->last_status(static_cast<tree::index>(i))),
                              std::memory_order_relaxed);
        }
    }

    // Ticking thread, at the root's visit: a new tree (the agent followed a reload) or a client
    // that came back after a quiet spell, whose statuses were not kept meanwhile.
    void sync_with(const agent& a) {
        if (&a.tree() != seen_tree || session.load(std::memory_order_acquire) != seen_session)
            take_agent(&a);
    }

    // A status is one relaxed store, without the lock: the array is only ever replaced by this
    // thread (take_agent), under the lock the server reads it with.
    void set_status(tree::index node, std::uint8_t shown, std::uint8_t recorded) {
        if (node >= status_count) return;
        statuses[node].store(shown, std::memory_order_relaxed);
        if (!recording.load(std::memory_order_relaxed)) return;
        std::lock_guard<std::mutex> lock(mutex);
        if (!recording.load(std::memory_order_relaxed)) return;
        const auto since = std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() -
                                                                                 recording_start);
        transitions.push_back({static_cast<std::uint64_t>(since.count()),
                               static_cast<std::uint16_t>(node + 1), recorded});
        if (transitions.size() > protocol::max_transitions) transitions.pop_front();
    }

    // Ticking thread, with `mutex` held: answers a blackboard request from the agent's
    // values, which only this thread may read.
    void serve_blackboard() {
        if (!board_wanted.load(std::memory_order_relaxed) || watched == nullptr) return;
        nlohmann::json answer = nlohmann::json::object();
        const std::string name = groot2_tree_name(watched->tree());
        if (std::find(board_names.begin(), board_names.end(), name) != board_names.end()) {
            nlohmann::json values = nlohmann::json::object();
            const canopy::blackboard board = watched->blackboard();
            const std::vector<blackboard_key>& keys = watched->tree().keys();
            for (std::uint32_t slot = 0; slot < keys.size(); ++slot) {
                if (!board.is_set(slot)) continue;  // no entry yet, as BehaviorTree.CPP's
                switch (keys[slot].type) {
                    case param_type::integer:
                        values[keys[slot].name] = board.get<std::int64_t>(slot);
                        break;
                    case param_type::number:
                        values[keys[slot].name] = board.get<double>(slot);
                        break;
                    case param_type::boolean:
                        values[keys[slot].name] = board.get<bool>(slot);
                        break;
                    default: values[keys[slot].name] = board.text(slot); break;
                }
            }
            answer[name] = std::move(values);
        }
        board_reply = nlohmann::json::to_msgpack(answer);
        board_wanted.store(false, std::memory_order_release);
        board_ready = true;
        answered.notify_all();
    }

    // Ticking thread: holds the tick at a breakpoint on `node` until it is let go.
    void hold(tree::index node, protocol::hook_position position) {
        const auto uid = static_cast<std::uint16_t>(node + 1);
        std::unique_lock<std::mutex> lock(mutex);
        hook_map& hooks = hooks_at[static_cast<std::size_t>(position)];
        const auto found = hooks.find(uid);
        if (found == hooks.end()) return;
        const std::shared_ptr<hook_state> hook = found->second;
        if (!hook->enabled) return;
        hook->released = false;
        notify_breakpoint(uid);
        while (!hook->released && hook->enabled && hooks_live() && !stopping) {
            released.wait(lock);
            serve_blackboard();  // the values Groot2 asks for while the tick is held
        }
        if (hook->released && hook->once) {
            const auto still = hooks.find(uid);
            if (still != hooks.end() && still->second == hook) {
                hooks.erase(still);
                hook_count.fetch_sub(1, std::memory_order_relaxed);
            }
        }
        hook->released = false;
    }

    bool hooks_live() const { return client_active.load(std::memory_order_acquire); }

    void notify_breakpoint(std::uint16_t uid) {
        protocol::request_header header;
        header.type = static_cast<std::uint8_t>(protocol::request_type::breakpoint_reached);
        header.unique_id = static_cast<unsigned char>(random_tree_id()[0]);
        const std::string head = protocol::encode_request_header(header);
        const std::string body = std::to_string(uid);
        // A PUB socket never blocks a sender: with no subscriber the message is dropped.
        publisher.send(zmq::buffer(head), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
        publisher.send(zmq::buffer(body), zmq::send_flags::dontwait);
    }

    // The server thread.
    void serve() {
        auto last_request = clock_type::now();
        while (!stopping) {
            zmq::pollitem_t item{static_cast<void*>(server), 0, ZMQ_POLLIN, 0};
            zmq::poll(&item, 1, std::chrono::milliseconds(50));
            const auto now = clock_type::now();
            if (client_active.load(std::memory_order_relaxed) &&
                now - last_request > options.heartbeat_timeout) {
                std::lock_guard<std::mutex> lock(mutex);
                client_active.store(false, std::memory_order_release);
                released.notify_all();  // a held tick goes on
            }
            if ((item.revents & ZMQ_POLLIN) == 0) continue;
            std::vector<zmq::message_t> parts;
            if (!zmq::recv_multipart(server, std::back_inserter(parts), zmq::recv_flags::dontwait))
                continue;
            last_request = now;
            if (!client_active.load(std::memory_order_relaxed)) {
                std::lock_guard<std::mutex> lock(mutex);
                session.fetch_add(1, std::memory_order_acq_rel);
                client_active.store(true, std::memory_order_release);
            }
            std::vector<std::string_view> views;
            views.reserve(parts.size());
            for (const zmq::message_t& part : parts) views.push_back(part.to_string_view());
            std::vector<std::string> reply = answer(protocol::decode_request(views));
            std::vector<zmq::const_buffer> buffers;
            buffers.reserve(reply.size());
            for (const std::string& part : reply) buffers.push_back(zmq::buffer(part));
            (void)zmq::send_multipart(server, buffers);
        }
    }

    static std::vector<std::string> error_reply(std::string message) {
        return {std::string(protocol::error_part), std::move(message)};
    }

    std::vector<std::string> answer(const protocol::request& request) {
        if (!request.error.empty()) return error_reply(request.error);
        std::unique_lock<std::mutex> lock(mutex);
        if (current_tree == nullptr) return error_reply("no agent is watched");
        if (current_tree->size() > max_nodes) {
            return error_reply("the tree has " + std::to_string(current_tree->size()) +
                               " nodes; Groot2 names at most 65535");
        }
        std::vector<std::string> reply{protocol::encode_reply_header(request.header, tree_id)};
        using type = protocol::request_type;
        switch (request.type) {
            case type::full_tree: {
                if (tree_xml.empty()) {
                    // The tree is immutable: it is written without the lock.
                    const std::shared_ptr<const tree> t = current_tree;
                    lock.unlock();
                    std::string xml = to_groot2_xml(*t);
                    lock.lock();
                    if (t == current_tree) tree_xml = xml;
                    reply.push_back(std::move(xml));
                } else {
                    reply.push_back(tree_xml);
                }
                break;
            }
            case type::status: {
                std::string bytes;
                bytes.reserve(3 * status_count);
                for (std::size_t i = 0; i < status_count; ++i) {
                    bytes.push_back(static_cast<char>((i + 1) & 0xFF));
                    bytes.push_back(static_cast<char>((i + 1) >> 8));
                    bytes.push_back(static_cast<char>(statuses[i].load(std::memory_order_relaxed)));
                }
                reply.push_back(std::move(bytes));
                break;
            }
            case type::blackboard: {
                board_names = request.blackboard_names;
                board_ready = false;
                board_wanted.store(true, std::memory_order_release);
                released.notify_all();  // a tick held at a breakpoint answers too
                if (!answered.wait_for(lock, options.blackboard_wait,
                                       [this] { return board_ready || stopping; }) ||
                    !board_ready) {
                    board_wanted.store(false, std::memory_order_release);
                    return error_reply("the agent finished no tick within " +
                                       std::to_string(options.blackboard_wait.count()) +
                                       " ms: blackboard values are read between ticks");
                }
                reply.emplace_back(board_reply.begin(), board_reply.end());
                break;
            }
            case type::hook_insert: {
                for (const protocol::hook_request& hook : request.hooks) {
                    if (hook.uid == 0 || hook.uid > current_tree->size())
                        return error_reply("no node has uid " + std::to_string(hook.uid));
                }
                for (const protocol::hook_request& hook : request.hooks) {
                    hook_map& hooks = hooks_at[static_cast<std::size_t>(hook.position)];
                    auto& slot = hooks[hook.uid];
                    if (slot == nullptr) {
                        slot = std::make_shared<hook_state>();
                        hook_count.fetch_add(1, std::memory_order_relaxed);
                    }
                    slot->enabled = hook.enabled;
                    slot->once = hook.once;
                }
                released.notify_all();  // a hook disabled lets its held tick go
                break;
            }
            case type::hook_remove:
            case type::breakpoint_unlock: {
                const protocol::hook_request& target = request.hooks.front();
                hook_map& hooks = hooks_at[static_cast<std::size_t>(target.position)];
                const auto found = hooks.find(target.uid);
                if (found == hooks.end())
                    return error_reply("no hook at node " + std::to_string(target.uid));
                if (request.type == type::hook_remove) {
                    found->second->enabled = false;
                    hooks.erase(found);
                    hook_count.fetch_sub(1, std::memory_order_relaxed);
                } else {
                    found->second->released = true;
                    found->second->once = found->second->once || target.once;
                }
                released.notify_all();
                if (request.type == type::breakpoint_unlock &&
                    (target.desired_status == "SUCCESS" || target.desired_status == "FAILURE")) {
                    return error_reply(
                        "breakpoint released; the node ticks as usual: Canopy "
                        "cannot make a node return " +
                        target.desired_status);
                }
                break;
            }
            case type::hooks_dump: {
                nlohmann::json dump = nlohmann::json::array();
                for (std::size_t position = 0; position < hooks_at.size(); ++position) {
                    for (const auto& [uid, hook] : hooks_at[position]) {
                        dump.push_back({{"enabled", hook->enabled},
                                        {"uid", uid},
                                        {"mode", 0},
                                        {"once", hook->once},
                                        {"desired_status", "SKIPPED"},
                                        {"position", position}});
                    }
                }
                reply.push_back(dump.dump());
                break;
            }
            case type::remove_all_hooks:
            case type::disable_all_hooks: {
                for (hook_map& hooks : hooks_at) {
                    for (auto& [uid, hook] : hooks) hook->enabled = false;
                    if (request.type == type::remove_all_hooks) hooks.clear();
                }
                if (request.type == type::remove_all_hooks)
                    hook_count.store(0, std::memory_order_relaxed);
                released.notify_all();
                break;
            }
            case type::toggle_recording: {
                recording.store(request.start_recording, std::memory_order_relaxed);
                if (request.start_recording) {
                    recording_start = clock_type::now();
                    transitions.clear();
                    const auto wall = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::system_clock::now().time_since_epoch());
                    reply.push_back(std::to_string(wall.count()));
                }
                break;
            }
            case type::get_transitions: {
                std::string bytes;
                bytes.reserve(9 * transitions.size());
                for (const protocol::transition& t : transitions)
                    protocol::append_transition(bytes, t);
                transitions.clear();
                reply.push_back(std::move(bytes));
                break;
            }
            case type::breakpoint_reached: return error_reply("request not recognized");
        }
        return reply;
    }

    groot2_options options;
    zmq::context_t context{1};
    zmq::socket_t server{context, zmq::socket_type::rep};
    zmq::socket_t publisher{context, zmq::socket_type::pub};
    std::thread thread;
    std::atomic<bool> stopping{false};

    std::atomic<bool> client_active{false};
    std::atomic<std::uint64_t> session{0};  // counts the client's comings after quiet spells
    std::atomic<bool> board_wanted{false};
    std::atomic<std::size_t> hook_count{0};

    // The ticking thread's own.
    agent* watched = nullptr;
    observer* next = nullptr;  // the observer the program gave watch(), attached with it
    bool attached = false;     // whether this is one of the watched agent's observers
    const tree* seen_tree = nullptr;
    std::uint64_t seen_session = 0;

    // Shared, under `mutex`.
    std::mutex mutex;
    std::condition_variable released;  // hooks changed, a client left, a request came
    std::condition_variable answered;  // a blackboard request was served
    std::shared_ptr<const tree> current_tree;
    protocol::tree_id tree_id{};
    std::string tree_xml;  // written on the first `T` of each tree
    // Per node; written by the ticking thread without the lock (set_status).
    std::unique_ptr<std::atomic<std::uint8_t>[]> statuses;
    std::size_t status_count = 0;
    std::atomic<bool> recording{false};
    clock_type::time_point recording_start;
    std::deque<protocol::transition> transitions;
    std::array<hook_map, 2> hooks_at;  // before the tick, after it
    std::vector<std::string> board_names;
    std::vector<std::uint8_t> board_reply;
    bool board_ready = false;
};

groot2_server::groot2_server(groot2_options options)
    : impl_(std::make_unique<impl>(std::move(options))) {
    impl& s = *impl_;
    const std::string base = "tcp://" + s.options.address + ":";
    for (auto [socket, port] : {std::pair<zmq::socket_t*, unsigned>{&s.server, s.options.port},
                                {&s.publisher, s.options.port + 1}}) {
        socket->set(zmq::sockopt::linger, 0);
        try {
            socket->bind(base + std::to_string(port));
        } catch (const zmq::error_t& e) {
            throw error(error_code::invalid_argument, "cannot listen for Groot2 on " + base +
                                                          std::to_string(port) + ": " + e.what());
        }
    }
    s.thread = std::thread([&s] { s.serve(); });
}

groot2_server::~groot2_server() {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->stopping = true;
        impl_->released.notify_all();
        impl_->answered.notify_all();
    }
    impl_->thread.join();
    if (impl_->watched != nullptr) impl_->watched->remove_observer(impl_.get());
}

// The server is one of the agent's observers (agent::add_observer) while a client is
// connected, and the agent's others are left as they are.
void groot2_server::watch(agent* a, observer* next) {
    impl& s = *impl_;
    if (s.watched != nullptr) {
        s.watched->remove_observer(&s);
        if (s.watched != a) s.watched->remove_observer(s.next);
    }
    s.next = next;
    s.watched = a;
    s.attached = false;
    if (a != nullptr) a->add_observer(next);
    s.take_agent(a);
    update();
}

void groot2_server::update() {
    impl& s = *impl_;
    const bool wanted = s.client_active.load(std::memory_order_acquire);
    if (wanted == s.attached || s.watched == nullptr) return;
    // The agent ticks unobserved (or with the program's observer only) while no client is
    // connected: attaching and detaching happen here, on the thread that ticks it.
    s.attached = wanted;
    if (wanted) {
        s.watched->add_observer(&s);
    } else {
        s.watched->remove_observer(&s);
    }
    if (wanted) s.take_agent(s.watched);
}

unsigned groot2_server::port() const noexcept {
    return impl_->options.port;
}

std::string groot2_server::endpoint() const {
    return "tcp://" + impl_->options.address + ":" + std::to_string(impl_->options.port);
}

bool groot2_server::client_connected() const noexcept {
    return impl_->client_active.load(std::memory_order_acquire);
}

}  // namespace canopy
