#pragma once

// BT::BehaviorTreeFactory and BT::Tree, on Canopy's engine. The factory registers node
// types in a canopy::registry (with Canopy's built-in nodes, under BehaviorTree.CPP's
// names) and reads trees with Canopy's BehaviorTree.CPP XML reader; a Tree is a canopy::tree
// shared by every Tree the factory makes of it, and a canopy::agent of its own, whose state
// holds the tree's node objects.

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "behaviortree_cpp/action_node.h"
#include "behaviortree_cpp/behavior_tree.h"
#include "behaviortree_cpp/condition_node.h"
#include "behaviortree_cpp/control_node.h"
#include "behaviortree_cpp/decorator_node.h"
#include "behaviortree_cpp/json_export.h"
#include "behaviortree_cpp/utils/enum_names.hpp"

// A plugin's entry point (registerFromPlugin): built with BT_PLUGIN_EXPORT defined, the
// shared library exports it; otherwise it is a static function of its file.
#ifdef BT_PLUGIN_EXPORT
#define BTCPP_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define BTCPP_EXPORT static
#endif
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage)
#define BT_REGISTER_NODES(factory) \
    BTCPP_EXPORT void BT_RegisterNodesFromPlugin(BT::BehaviorTreeFactory& factory)

namespace canopy {
class agent;
class tree;
}  // namespace canopy

namespace BT {

using NodeBuilder = std::function<std::unique_ptr<TreeNode>(const std::string&, const NodeConfig&)>;

template <typename T, typename... Args>
NodeBuilder CreateBuilder(Args... args) {
    return [=](const std::string& name, const NodeConfig& config) {
        return TreeNode::Instantiate<T, Args...>(name, config, args...);
    };
}

template <typename T>
constexpr NodeType getType() {
    if constexpr (std::is_base_of_v<ActionNodeBase, T>) return NodeType::ACTION;
    if constexpr (std::is_base_of_v<ConditionNode, T>) return NodeType::CONDITION;
    if constexpr (std::is_base_of_v<DecoratorNode, T>) return NodeType::DECORATOR;
    if constexpr (std::is_base_of_v<ControlNode, T>) return NodeType::CONTROL;
    return NodeType::UNDEFINED;
}

template <typename T, typename = void>
struct has_metadata : std::false_type {};
template <typename T>
struct has_metadata<T, std::void_t<decltype(T::metadata())>> : std::true_type {};

template <typename T>
TreeNodeManifest CreateManifest(const std::string& ID, PortsList portlist = getProvidedPorts<T>()) {
    TreeNodeManifest manifest{getType<T>(), ID, std::move(portlist), {}};
    if constexpr (has_metadata<T>::value) manifest.metadata = T::metadata();
    return manifest;
}

namespace detail {
class TreeState;
class FactoryState;
}  // namespace detail

/// A tree made by the factory: ticked, halted, visited as BehaviorTree.CPP's.
class Tree {
public:
    /// One use of a tree in the file (the main tree first, then each SubTree): its nodes
    /// and the blackboard they see.
    struct Subtree {
        using Ptr = std::shared_ptr<Subtree>;
        std::vector<TreeNode::Ptr> nodes;
        Blackboard::Ptr blackboard;
        std::string instance_name;
        std::string tree_ID;
    };

    std::vector<Subtree::Ptr> subtrees;
    std::unordered_map<std::string, TreeNodeManifest> manifests;

    Tree();
    Tree(Tree&& other) noexcept;
    Tree& operator=(Tree&& other) noexcept;
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;
    /// Halts the tree's running nodes first.
    ~Tree();

    void initialize() {}
    /// Halts every running node.
    void haltTree();
    [[nodiscard]] TreeNode* rootNode() const;
    /// Waits `timeout`, or until a node asks for a tick (emitWakeUpSignal): true then.
    bool sleep(std::chrono::system_clock::duration timeout);
    /// Ticks the root once.
    NodeStatus tickExactlyOnce();
    /// Ticks the root once, and again at once while it runs and a node asked for a tick.
    NodeStatus tickOnce();
    /// Ticks the root until it finishes, sleeping `sleep_time` between ticks unless a node
    /// asks for a tick.
    NodeStatus tickWhileRunning(
        std::chrono::milliseconds sleep_time = std::chrono::milliseconds(10));
    [[nodiscard]] Blackboard::Ptr rootBlackboard();
    void applyVisitor(const std::function<void(const TreeNode*)>& visitor) const;
    void applyVisitor(const std::function<void(TreeNode*)>& visitor);
    /// The nodes whose fullPath() matches the wildcard ("*" any text, "?" one character) and
    /// are NodeType.
    template <typename NodeType = TreeNode>
    std::vector<const TreeNode*> getNodesByPath(StringView wildcard_filter) const {
        std::vector<const TreeNode*> nodes;
        for (const TreeNode* node : allNodes()) {
            if (dynamic_cast<const NodeType*>(node) != nullptr &&
                wildcardMatch(node->fullPath(), wildcard_filter))
                nodes.push_back(node);
        }
        return nodes;
    }

    /// The Canopy tree it runs, shared by every Tree made of it, and its own agent.
    const canopy::tree& canopyTree() const;
    /// @warning the agent runs canopyTree() for the Tree's life, its state holding the Tree's
    /// node objects: do not move it to another tree (agent::move_to, replace_tree) nor assign
    /// it another agent. The Tree's next tick throws RuntimeError if it runs another tree.
    canopy::agent& canopyAgent();

private:
    friend class BehaviorTreeFactory;
    friend class detail::FactoryState;
    enum class TickOption { EXACTLY_ONCE, ONCE_UNLESS_WOKEN_UP, WHILE_RUNNING };
    NodeStatus tickRoot(TickOption opt, std::chrono::milliseconds sleep_time);
    std::vector<const TreeNode*> allNodes() const;
    static bool wildcardMatch(StringView text, StringView pattern);

    std::unique_ptr<detail::TreeState> state_;
};

/// A copy of each use's blackboard (Tree::subtrees), to go back to with BlackboardRestore.
std::vector<Blackboard::Ptr> BlackboardBackup(const Tree& tree);
void BlackboardRestore(const std::vector<Blackboard::Ptr>& backup, Tree& tree);
/// Each use's blackboard as JSON (ExportBlackboardToJSON), by its instance name (the main
/// tree's by its ID), and back.
nlohmann::json ExportTreeToJSON(const Tree& tree);
/// @warning throws std::runtime_error when the JSON has not one object per use.
void ImportTreeFromJSON(const nlohmann::json& json, Tree& tree);

/// The ID of a node type to run in a matched node's place, or a TestNode's behaviour.
using SubstitutionRule = std::variant<std::string, TestNodeConfig>;

/// Registers node types and trees, and makes trees.
class BehaviorTreeFactory {
public:
    BehaviorTreeFactory();
    ~BehaviorTreeFactory();
    BehaviorTreeFactory(BehaviorTreeFactory&& other) noexcept;
    BehaviorTreeFactory& operator=(BehaviorTreeFactory&& other) noexcept;
    BehaviorTreeFactory(const BehaviorTreeFactory&) = delete;
    BehaviorTreeFactory& operator=(const BehaviorTreeFactory&) = delete;

    /// Removes a type the program registered; false for a built-in or an unknown ID. Trees
    /// made before keep it.
    bool unregisterBuilder(const std::string& ID);
    /// Registers a type made by `builder`, described by `manifest`.
    /// @warning throws BehaviorTreeException for an ID already registered.
    void registerBuilder(const TreeNodeManifest& manifest, const NodeBuilder& builder);
    template <typename T>
    void registerBuilder(const std::string& ID, const NodeBuilder& builder) {
        registerBuilder(CreateManifest<T>(ID), builder);
    }
    void registerSimpleAction(const std::string& ID,
                              const SimpleActionNode::TickFunctor& tick_functor,
                              PortsList ports = {});
    void registerSimpleCondition(const std::string& ID,
                                 const SimpleConditionNode::TickFunctor& tick_functor,
                                 PortsList ports = {});
    void registerSimpleDecorator(const std::string& ID,
                                 const SimpleDecoratorNode::TickFunctor& tick_functor,
                                 PortsList ports = {});
    /// Loads a shared library and calls its BT_RegisterNodesFromPlugin(factory).
    /// @warning throws RuntimeError when it cannot be loaded or lacks the function.
    void registerFromPlugin(const std::string& file_path);

    /// Registers the trees of a BehaviorTree.CPP XML file, for createTree().
    /// @warning throws RuntimeError for a file that cannot be read or parsed, or a tree ID
    /// already registered.
    void registerBehaviorTreeFromFile(const std::filesystem::path& filename);
    void registerBehaviorTreeFromText(const std::string& xml_text);
    /// The IDs of the registered trees, sorted.
    [[nodiscard]] std::vector<std::string> registeredBehaviorTrees() const;
    void clearRegisteredBehaviorTrees();

    template <typename T, typename... ExtraArgs>
    void registerNodeType(const std::string& ID, const PortsList& ports, ExtraArgs... args) {
        static_assert(std::is_base_of_v<TreeNode, T>, "T must derive from BT::TreeNode");
        static_assert(!std::is_abstract_v<T>, "T must implement tick() (and halt())");
        registerBuilder(CreateManifest<T>(ID, ports), CreateBuilder<T>(args...));
    }
    template <typename T, typename... ExtraArgs>
    void registerNodeType(const std::string& ID, ExtraArgs... args) {
        if constexpr (std::is_same_v<T, TestNode> && sizeof...(ExtraArgs) == 1) {
            registerTestNode(ID, args...);
        } else {
            registerNodeType<T>(ID, getProvidedPorts<T>(), args...);
        }
    }
    /// A node type that runs as `config` says, scripts included (TestNode).
    void registerTestNode(const std::string& ID, const TestNodeConfig& config);
    void registerTestNode(const std::string& ID, const std::shared_ptr<TestNodeConfig>& config) {
        registerTestNode(ID, *config);
    }

    [[nodiscard]] const std::unordered_map<std::string, NodeBuilder>& builders() const;
    [[nodiscard]] const std::unordered_map<std::string, TreeNodeManifest>& manifests() const;
    /// The IDs of the built-in node types.
    [[nodiscard]] const std::set<std::string>& builtinNodes() const;

    /// Reads a tree from BehaviorTree.CPP XML and makes it: its main tree
    /// (main_tree_to_execute), or its only one.
    /// @warning throws RuntimeError, with every problem Canopy's loader found, located, when
    /// the XML does not give a tree that runs.
    [[nodiscard]] Tree createTreeFromText(const std::string& text,
                                          Blackboard::Ptr blackboard = Blackboard::create());
    [[nodiscard]] Tree createTreeFromFile(const std::filesystem::path& file_path,
                                          Blackboard::Ptr blackboard = Blackboard::create());
    /// Makes a registered tree.
    [[nodiscard]] Tree createTree(const std::string& tree_name,
                                  Blackboard::Ptr blackboard = Blackboard::create());

    void addMetadataToManifest(const std::string& node_id, const KeyValueVector& metadata);
    /// A name scripts may use for an integer.
    void registerScriptingEnum(StringView name, int value);
    /// Every named value of an enum, by its name.
    template <typename EnumType>
    void registerScriptingEnums() {
        for (const auto& [name, value] : detail::enum_entries<EnumType>())
            registerScriptingEnum(name, value);
    }

    /// Lets an input port of std::shared_ptr<Base> read a key that holds
    /// std::shared_ptr<Derived> (and, registered directly, the other way round, which fails
    /// at run time unless the object is a Derived); casts chain (Sphynx to Cat to Animal).
    template <typename Derived, typename Base>
    void registerPolymorphicCast() {
        polymorphicCastRegistry().registerCast<Derived, Base>();
    }
    [[nodiscard]] PolymorphicCastRegistry& polymorphicCastRegistry();
    [[nodiscard]] const PolymorphicCastRegistry& polymorphicCastRegistry() const;
    [[nodiscard]] std::shared_ptr<PolymorphicCastRegistry> polymorphicCastRegistryPtr() const;

    void clearSubstitutionRules();
    /// Runs `rule` in place of every node whose path matches `filter` ("*" any text).
    void addSubstitutionRule(StringView filter, SubstitutionRule rule);
    /// Reads rules from BehaviorTree.CPP's JSON (TestNodeConfigs, SubstitutionRules).
    /// @warning throws RuntimeError for text that is not such JSON.
    void loadSubstitutionRuleFromJSON(const std::string& json_text);
    [[nodiscard]] const std::unordered_map<std::string, SubstitutionRule>& substitutionRules()
        const;

private:
    friend class XMLParser;
    friend std::string writeTreeNodesModelXML(const BehaviorTreeFactory& factory,
                                              bool include_builtin);
    std::unique_ptr<detail::FactoryState> state_;
};

}  // namespace BT
