#pragma once

// BT::TreeNode, the base of every BehaviorTree.CPP node class, on Canopy's engine: each node
// of a tree made by BehaviorTreeFactory is one object, which the tree's Canopy agent holds
// in its state, constructed as BehaviorTree.CPP constructs it (name and NodeConfig, plus the
// registration's own arguments) and ticked, halted and given its ports as there.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/blackboard.h"

namespace BT {

enum class PreCond { FAILURE_IF = 0, SUCCESS_IF, SKIP_IF, WHILE_TRUE, COUNT_ };
enum class PostCond { ON_HALTED = 0, ON_FAILURE, ON_SUCCESS, ALWAYS, COUNT_ };

/// The names scripts may use for integers (registerScriptingEnum).
using ScriptingEnumsRegistry = std::unordered_map<std::string, int>;

/// What a node is made with: where its ports lead, its blackboard, its place in the tree.
struct NodeConfig {
    Blackboard::Ptr blackboard;
    std::shared_ptr<ScriptingEnumsRegistry> enums;
    /// Each input port as the XML wrote it ("hello", "{key}"), defaults filled in.
    PortsRemapping input_ports;
    /// Each output port as the XML wrote it.
    PortsRemapping output_ports;
    const TreeNodeManifest* manifest = nullptr;
    /// The node's number in the tree, in the order the XML gives them, from 1.
    std::uint16_t uid = 0;
    /// The node's path: its subtrees' names, then its own name and uid.
    std::string path;
    std::map<PreCond, std::string> pre_conditions;
    std::map<PostCond, std::string> post_conditions;
    /// The XML's attributes that start with '_' and are neither a port nor a condition.
    PortsRemapping other_attributes;
};

/// BehaviorTree.CPP 3's name for NodeConfig.
using NodeConfiguration = NodeConfig;

template <typename T, typename = void>
struct has_provided_ports : std::false_type {};
template <typename T>
struct has_provided_ports<T, std::void_t<decltype(T::providedPorts())>> : std::true_type {};

/// A node class's ports: its providedPorts(), or none.
template <typename T>
PortsList getProvidedPorts() {
    if constexpr (has_provided_ports<T>::value) {
        return T::providedPorts();
    } else {
        return {};
    }
}

/// Remaps each of T's ports to the key of its own name ("{=}"): for a node a program makes
/// itself, outside a tree.
template <typename T>
void assignDefaultRemapping(NodeConfig& config) {
    for (const auto& [name, info] : getProvidedPorts<T>()) {
        if (info.direction() != PortDirection::OUTPUT) config.input_ports[name] = "{=}";
        if (info.direction() != PortDirection::INPUT) config.output_ports[name] = "{=}";
    }
}

namespace detail {
class TreeState;
class btcpp_node;
}  // namespace detail
class StatusChangeLogger;

class TreeNode {
public:
    using Ptr = std::shared_ptr<TreeNode>;

    TreeNode(std::string name, NodeConfig config);
    virtual ~TreeNode();
    TreeNode(const TreeNode&) = delete;
    TreeNode& operator=(const TreeNode&) = delete;

    /// Ticks the node: what its parent does. Returns the status tick() returned.
    virtual NodeStatus executeTick();
    /// Halts the node if it runs (halt()), then makes it idle.
    void haltNode();
    /// Makes the node idle, as its parent does once it is done with it.
    void resetStatus();
    bool isHalted() const { return status() == NodeStatus::IDLE; }
    NodeStatus status() const;
    /// The node's name in the XML; its type's when the XML gives none.
    const std::string& name() const { return name_; }
    /// The name its type was registered under.
    const std::string& registrationName() const { return registration_ID_; }
    const std::string& fullPath() const { return config_.path; }
    std::uint16_t UID() const { return config_.uid; }
    virtual NodeType type() const = 0;
    const NodeConfig& config() const { return config_; }
    NodeConfig& config() { return config_; }

    /// Reads an input port as T: the XML's text read with convertFromString<T> (or the
    /// port's default when the XML leaves it out), or the value of the blackboard key the
    /// XML names as "{key}". Never throws: a failure is the result's error().
    template <typename T>
    Result getInput(const std::string& key, T& destination) const;
    template <typename T>
    [[nodiscard]] Expected<T> getInput(const std::string& key) const {
        T out{};
        auto result = getInput(key, out);
        if (!result) return nonstd::make_unexpected(result.error());
        return out;
    }
    /// Writes an output port: the blackboard key the XML names as "{key}" (or the port's
    /// own name for "{=}").
    template <typename T>
    Result setOutput(const std::string& key, const T& value);
    /// The value of a port whose key holds an object, to change in place while the result
    /// lives; empty for a literal port.
    [[nodiscard]] AnyPtrLocked getLockedPortContent(const std::string& key);
    /// The port as the XML wrote it.
    [[nodiscard]] StringView getRawPortValue(const std::string& key) const;

    /// Whether `str` is "{...}", and then what is between the braces.
    [[nodiscard]] static bool isBlackboardPointer(StringView str,
                                                  StringView* stripped_pointer = nullptr);
    [[nodiscard]] static StringView stripBlackboardPointer(StringView str);
    /// The key a port's text names: "{key}" gives key, "{=}" the port's name.
    [[nodiscard]] static Expected<StringView> getRemappedKey(StringView port_name,
                                                             StringView remapped_port);

    /// Called before the node's tick() unless it finished: a SUCCESS or FAILURE it
    /// returns is the tick's result instead (a test's or a debugger's injection).
    using PreTickCallback = std::function<NodeStatus(TreeNode&)>;
    /// Called after the tick with its result: a SUCCESS or FAILURE it returns
    /// replaces it.
    using PostTickCallback = std::function<NodeStatus(TreeNode&, NodeStatus)>;
    /// Told each tick() and how long it took.
    using TickMonitorCallback =
        std::function<void(TreeNode&, NodeStatus, std::chrono::microseconds)>;
    /// These apply to a program's node classes; a built-in node is run by Canopy's engine,
    /// which does not call them (docs/btcpp-api.md).
    void setPreTickFunction(PreTickCallback callback);
    void setPostTickFunction(PostTickCallback callback);
    void setTickMonitorCallback(TickMonitorCallback callback);

    /// Asks the tree to tick again at once (Tree::sleep returns early).
    void emitWakeUpSignal();
    /// Whether the node is in a tree, which emitWakeUpSignal wakes (BehaviorTree.CPP's meaning:
    /// its built-in classes hand the tick back early only then).
    [[nodiscard]] bool requiresWakeUp() const { return tree_ != nullptr; }

    /// Makes a node of a class that may not take a NodeConfig in its constructor.
    template <class DerivedT, typename... ExtraArgs>
    static std::unique_ptr<TreeNode> Instantiate(const std::string& name, const NodeConfig& config,
                                                 ExtraArgs... args) {
        if constexpr (std::is_constructible_v<DerivedT, const std::string&, const NodeConfig&,
                                              ExtraArgs...>) {
            return std::make_unique<DerivedT>(name, config, args...);
        } else {
            static_assert(
                sizeof...(ExtraArgs) == 0 && std::is_constructible_v<DerivedT, const std::string&>,
                "a node class is constructed from (name, NodeConfig, args...) or, "
                "without ports, from (name)");
            auto node = std::make_unique<DerivedT>(name);
            node->config() = config;
            return node;
        }
    }

protected:
    /// The node's work: called by executeTick().
    virtual NodeStatus tick() = 0;
    /// Stops the node's work: called by haltNode() while it runs.
    virtual void halt() = 0;
    void setStatus(NodeStatus new_status);
    void setRegistrationID(StringView id) { registration_ID_ = std::string(id); }
    /// For an executeTick() of a class's own: when a parent's code (not Canopy's engine)
    /// calls it, ticks the node through the engine into `result` and returns true; the
    /// engine then calls executeTick() again, and this returns false.
    bool tickedThroughEngine(NodeStatus& result);
    /// tick(), with what it throws (but NodeExecutionError) made a NodeExecutionError that
    /// names the node.
    NodeStatus tickNamingErrors();
    /// Calls `wait` without the tree's lock, which this thread may hold: for a node that
    /// waits for a thread of its own that reads or writes ports.
    void withoutTreeLock(const std::function<void()>& wait);

private:
    friend class detail::TreeState;
    friend class detail::btcpp_node;
    friend class StatusChangeLogger;

    // The port's value as an Any: its key's value (empty when the key holds none), or an
    // error; `text` is set instead when the port is a literal (or a default given as text).
    Expected<Any> readPort(const std::string& key, std::string& text, bool& literal) const;
    Result writePort(const std::string& key, const Any& value);
    // Reads text as T with the port's converter, as convertFromString<T> otherwise.
    template <typename T>
    T parseText(const std::string& key, const std::string& text) const;

    std::string name_;
    std::atomic<NodeStatus> status_{NodeStatus::IDLE};
    NodeConfig config_;
    std::string registration_ID_;
    std::mutex callbacks_mutex_;                  // set from any thread, as there
    std::atomic_bool has_tick_callbacks_{false};  // any of the three set
    PreTickCallback pre_tick_;
    PostTickCallback post_tick_;
    TickMonitorCallback tick_monitor_;
    bool view_ = false;                  // shows a node Canopy runs itself (a built-in)
    detail::TreeState* tree_ = nullptr;  // set when a tree takes the node
    std::uint32_t index_ = 0;            // the node's index in the tree
};

template <typename T>
T TreeNode::parseText(const std::string& key, const std::string& text) const {
    if constexpr (std::is_same_v<T, std::string>) {
        return text;
    } else {
        if constexpr (std::is_enum_v<T>) {  // a name registerScriptingEnum(s) registered
            if (config_.enums) {
                if (auto found = config_.enums->find(text); found != config_.enums->end())
                    return static_cast<T>(found->second);
            }
        }
        if (config_.manifest != nullptr) {
            auto port = config_.manifest->ports.find(key);
            if (port != config_.manifest->ports.end() && port->second.converter() &&
                port->second.type() == typeid(T)) {
                return port->second.converter()(text).template cast<T>();
            }
        }
        return convertFromString<T>(text);
    }
}

template <typename T>
Result TreeNode::getInput(const std::string& key, T& destination) const {
    std::string text;
    bool literal = false;
    try {
        Expected<Any> value = readPort(key, text, literal);
        if (!value) return nonstd::make_unexpected(value.error());
        if (literal) {
            try {
                destination = parseText<T>(key, text);
            } catch (const std::exception& e) {
                return nonstd::make_unexpected(StrCat("getInput(): ", e.what()));
            }
            return {};
        }
        const Any& any = *value;
        if constexpr (std::is_same_v<T, Any>) {
            destination = any;
        } else if constexpr (!std::is_same_v<T, std::string>) {
            if (any.isString()) {
                destination = parseText<T>(key, any.cast<std::string>());
                return {};
            }
            auto cast = config_.blackboard
                            ? config_.blackboard->tryCastWithPolymorphicFallback<T>(&any)
                            : any.tryCast<T>();
            if (!cast) return nonstd::make_unexpected(cast.error());
            destination = std::move(cast).value();
        } else {
            auto cast = any.tryCast<T>();
            if (!cast) return nonstd::make_unexpected(cast.error());
            destination = std::move(cast).value();
        }
        return {};
    } catch (const std::exception& e) {
        return nonstd::make_unexpected(e.what());
    }
}

template <typename T>
Result TreeNode::setOutput(const std::string& key, const T& value) {
    if constexpr (std::is_same_v<T, Any>) {
        return writePort(key, value);
    } else {
        return writePort(key, Any(value));
    }
}

}  // namespace BT
