// Groot2Publisher: Canopy's Groot2 server watching the Tree's agent, its update() called
// before each tick of the tree, and the agent's events passed on to the tree's loggers.

#include "behaviortree_cpp/loggers/groot2_publisher.h"

#include "canopy/core/error.hpp"
#include "canopy/monitor/groot2_server.hpp"
#include "tree_state.hpp"

namespace BT {

struct Groot2Publisher::PImpl {
    std::unique_ptr<canopy::groot2_server> server;
    detail::TreeState* tree = nullptr;
};

Groot2Publisher::Groot2Publisher(const Tree& tree, unsigned server_port)
    : StatusChangeLogger(tree.rootNode()), _p(std::make_unique<PImpl>()) {
    _p->tree = treeState();
    canopy::groot2_options options;
    options.port = server_port;
    try {
        _p->server = std::make_unique<canopy::groot2_server>(options);
    } catch (const canopy::error& e) {
        unsubscribeFromTreeChanges();
        throw RuntimeError("Groot2Publisher: ", e.what());
    }
    // Subscribing made the observer that tells the loggers: the server passes the agent's
    // events on to it.
    _p->server->watch(&_p->tree->agent(), _p->tree->logger_observer());
    canopy::groot2_server* server = _p->server.get();
    _p->tree->call_between_ticks(this, [server] { server->update(); });
}

Groot2Publisher::~Groot2Publisher() {
    _p->tree->call_between_ticks(this, {});
    _p->server->watch(nullptr);
    _p->tree->agent().set_observer(_p->tree->logger_observer());
    _p->server.reset();
    unsubscribeFromTreeChanges();
}

void Groot2Publisher::callback(Duration /*timestamp*/, const TreeNode& /*node*/,
                               NodeStatus /*prev_status*/, NodeStatus /*status*/) {}

void Groot2Publisher::flush() {}

}  // namespace BT
