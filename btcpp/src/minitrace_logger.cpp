// MinitraceLogger: Chrome trace events, written as they come: B and E around a node that
// runs, I for one that finishes at once, as BehaviorTree.CPP's MinitraceLogger records them.
// Chrome and Perfetto read a trace whose list is not closed (a program killed mid-run).

#include <unistd.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "behaviortree_cpp/loggers/bt_minitrace_logger.h"

namespace BT {

struct MinitraceLogger::PImpl {
    std::ofstream file;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    bool first = true;
};

MinitraceLogger::MinitraceLogger(const Tree& tree, const char* filename_json)
    : _p(std::make_unique<PImpl>()) {
    _p->file.open(filename_json, std::ofstream::out | std::ofstream::trunc);
    if (!_p->file.is_open()) throw RuntimeError("MinitraceLogger: cannot write ", filename_json);
    _p->file << R"({"traceEvents":[)" << '\n';
    enableTransitionToIdle(true);
    subscribeToTreeChanges(tree.rootNode());
}

MinitraceLogger::~MinitraceLogger() {
    unsubscribeFromTreeChanges();
    _p->file << "\n],\"displayTimeUnit\":\"ms\"}\n";
}

void MinitraceLogger::callback(Duration /*timestamp*/, const TreeNode& node, NodeStatus prev_status,
                               NodeStatus status) {
    const bool completed = isStatusCompleted(status);
    const char* phase = nullptr;
    if (prev_status == NodeStatus::IDLE && completed) {
        phase = "I";
    } else if (status == NodeStatus::RUNNING) {
        phase = "B";
    } else if (prev_status == NodeStatus::RUNNING && completed) {
        phase = "E";
    } else {
        return;
    }
    const nlohmann::json event{
        {"cat", toStr(node.type())},
        {"name", node.name()},
        {"ph", phase},
        {"pid", static_cast<long>(::getpid())},
        {"tid", std::hash<std::thread::id>()(std::this_thread::get_id()) % 1000000},
        {"ts", std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - _p->start)
                   .count()}};
    _p->file << (_p->first ? "" : ",\n") << event.dump();
    _p->first = false;
    _p->file.flush();  // as BehaviorTree.CPP's: the trace survives the program's end
}

void MinitraceLogger::flush() {
    _p->file.flush();
}

}  // namespace BT
