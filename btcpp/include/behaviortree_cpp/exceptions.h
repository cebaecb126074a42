#pragma once

// BehaviorTree.CPP's exceptions, which node code throws and catches: a message made of its
// arguments' text, as BT::StrCat joins them.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace BT {

class BehaviorTreeException : public std::exception {
public:
    explicit BehaviorTreeException(std::string message) : message_(std::move(message)) {}
    template <typename... Args>
    explicit BehaviorTreeException(const Args&... args) : message_(join(args...)) {}
    const char* what() const noexcept override { return message_.c_str(); }

private:
    template <typename... Args>
    static std::string join(const Args&... args) {
        std::ostringstream out;
        (out << ... << args);
        return out.str();
    }

    std::string message_;
};

/// A mistake in the program or the tree, found when it is built (BehaviorTree.CPP's).
class LogicError : public BehaviorTreeException {
public:
    using BehaviorTreeException::BehaviorTreeException;
};

/// A failure while the tree runs.
class RuntimeError : public BehaviorTreeException {
public:
    using BehaviorTreeException::BehaviorTreeException;
};

/// The node whose tick threw, in a NodeExecutionError.
struct TickBacktraceEntry {
    std::string node_name;
    std::string node_path;
    std::string registration_name;
};

/// What a node's tick() threw, with the node named: "Exception in node '<path>' [<type>]:
/// <message>".
class NodeExecutionError : public RuntimeError {
public:
    NodeExecutionError(TickBacktraceEntry failed_node, const std::string& original_message)
        : RuntimeError("Exception in node '", failed_node.node_path, "' [",
                       failed_node.registration_name, "]: ", original_message),
          failed_node_(std::move(failed_node)),
          original_message_(original_message) {}
    const TickBacktraceEntry& failedNode() const { return failed_node_; }
    const std::string& originalMessage() const { return original_message_; }

private:
    TickBacktraceEntry failed_node_;
    std::string original_message_;
};

}  // namespace BT
