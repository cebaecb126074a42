#pragma once

// BehaviorTree.CPP's XML writers: the node models of a factory's types (what Groot2 needs to
// draw a program's nodes) and a running tree as XML.

#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"

namespace BT {

namespace detail {
struct DocumentSet;
}

/// Throws RuntimeError, with the line, where BehaviorTree.CPP refuses the document before it
/// makes a tree of it (what registerBehaviorTreeFromText checks): its structure, its names,
/// and its node types, which must be among `registered_nodes`.
void VerifyXML(const std::string& xml_text,
               const std::unordered_map<std::string, NodeType>& registered_nodes);

/// Documents read apart from the factory's own registered trees, checked as the factory
/// checks them (against its node types), and trees made of them.
class XMLParser {
public:
    explicit XMLParser(const BehaviorTreeFactory& factory);
    ~XMLParser();
    XMLParser(const XMLParser&) = delete;
    XMLParser& operator=(const XMLParser&) = delete;

    /// @warning throws RuntimeError, with the line, for a document BehaviorTree.CPP refuses
    /// (and for a tree ID read before). `<include>`s are read when a tree is made.
    void loadFromFile(const std::filesystem::path& filename, bool add_includes = true);
    void loadFromText(const std::string& xml_text, bool add_includes = true);
    /// The IDs of the trees read, sorted.
    [[nodiscard]] std::vector<std::string> registeredBehaviorTrees() const;
    /// A tree of `main_tree_ID`; when empty, of the first document's main_tree_to_execute,
    /// or of its only tree.
    [[nodiscard]] Tree instantiateTree(const Blackboard::Ptr& root_blackboard,
                                       std::string main_tree_ID = {});
    /// Forgets the documents read.
    void clearInternalState();

private:
    const BehaviorTreeFactory& factory_;
    std::unique_ptr<detail::DocumentSet> documents_;
};

/// `<root BTCPP_format="4"><TreeNodesModel>` with a model of each node type the program
/// registered: `<Action ID="...">` (or Condition, Control, Decorator) and its ports, their
/// types, defaults and descriptions. `include_builtin` adds nothing: Groot2 has the built-ins'
/// models (docs/btcpp-api.md).
[[nodiscard]] std::string writeTreeNodesModelXML(const BehaviorTreeFactory& factory,
                                                 bool include_builtin = false);

/// The tree as BehaviorTree.CPP 4 XML, each subtree put in place; with `add_metadata`, every
/// node's `_uid` (as UID() gives it) and each subtree's `_fullpath`. The node models of the
/// program's types follow; `add_builtin_models` adds nothing (as above).
[[nodiscard]] std::string WriteTreeToXML(const Tree& tree, bool add_metadata,
                                         bool add_builtin_models);

}  // namespace BT
