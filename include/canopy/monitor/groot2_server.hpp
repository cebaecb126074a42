#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace canopy {

class agent;
class observer;

/// Where a groot2_server listens, and how patient it is.
struct groot2_options {
    /// Requests on this port (ZeroMQ REP), breakpoint notifications on the next (PUB), as
    /// BehaviorTree.CPP's Groot2Publisher: 1667 and 1668 by default.
    unsigned port = 1667;
    /// The interface to bind: loopback by default, "*" for every interface (anyone who can
    /// reach the port can then read the blackboard and stall the program; docs/monitoring.md).
    std::string address = "127.0.0.1";
    /// A client silent this long counts as gone: its breakpoints stop holding (and any held
    /// tick goes on) until it asks again. Groot2 polls several times a second.
    std::chrono::milliseconds heartbeat_timeout{5000};
    /// How long a blackboard request waits for the watched agent to finish a tick (values are
    /// read between ticks, on the ticking thread) before it is answered with an error.
    std::chrono::milliseconds blackboard_wait{1000};
};

/// Lets Groot2 attach to a running program, as to BehaviorTree.CPP's Groot2Publisher: it
/// shows the tree of the watched agent, colours each node by its last status, shows the
/// blackboard, records transitions and holds ticks at breakpoints. See docs/monitoring.md.
///
/// The server answers on a thread of its own. It sees the watched agent through an observer
/// (agent::add_observer) that update() attaches while a client is connected and detaches when
/// it leaves: with no client, the agent ticks unobserved and update() is one atomic load.
/// A held breakpoint blocks the thread that ticks the agent until Groot2 lets it go, the client
/// goes quiet (groot2_options::heartbeat_timeout) or the server is destroyed.
///
/// @warning watch(), update() and the destructor must run on the thread that ticks the watched
/// agent, between ticks, and the watched agent must outlive the watch (watch(nullptr) ends it).
class groot2_server {
public:
    /// Binds both ports and starts answering.
    /// @warning throws canopy::error if a port cannot be bound (in use, say).
    explicit groot2_server(groot2_options options = {});
    groot2_server(const groot2_server&) = delete;
    groot2_server& operator=(const groot2_server&) = delete;
    /// Stops answering, lets any held tick go on, and detaches itself from the watched agent.
    ~groot2_server();

    /// The agent Groot2 sees from now on, or none; may change while the program runs. The
    /// server becomes one of the agent's observers while a client is connected
    /// (agent::add_observer), leaving the agent's others as they are; `next`, if given, is
    /// attached to the agent as well, and detached from it when the server watches another
    /// (before observers could be several, the server passed events on to it). When the
    /// agent moves to another tree (a tree_handle's reload), Groot2 is sent the new tree at
    /// its first tick there: statuses, transitions and breakpoints start over on it, since
    /// Groot2 names nodes by index (uid); events of any other tree are ignored.
    void watch(agent* a, observer* next = nullptr);
    /// Call between ticks of the watched agent, on its thread, e.g. once per frame: attaches the
    /// server's observer when a client has come and detaches it when the client has gone. The
    /// statuses, transitions and breakpoints Groot2 sees are those of ticks after it attached.
    void update();
    /// The request port (the notification port is the next).
    unsigned port() const noexcept;
    /// Where Groot2 connects: "tcp://ADDRESS:PORT".
    std::string endpoint() const;
    /// Whether a client has asked something within the heartbeat timeout.
    bool client_connected() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

}  // namespace canopy
