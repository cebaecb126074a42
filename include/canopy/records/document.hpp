#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/arity.hpp"
#include "canopy/core/source_location.hpp"
#include "canopy/records/records.hpp"

namespace canopy {

/// One port of a node model, as the file declares it.
struct port_model {
    enum class direction : std::uint8_t { input, output, inout };
    std::string name;
    direction dir = direction::input;
    std::string type;  ///< as the file names it ("double", "std::string"); may be empty
    std::optional<std::string> default_value;  ///< as text
    std::string description;
};

/// A node type a file describes for its editor (BehaviorTree.CPP's `<TreeNodesModel>`,
/// behavior3editor's `.b3-setting`): enough to print, check and convert trees that use it
/// without the program that runs them (lenient loading).
struct node_model {
    std::string name;            ///< the type's name, as the file's records use it
    std::optional<arity> shape;  ///< unknown for a model that does not say
    /// A leaf the file lists as a condition (BehaviorTree.CPP's `<Condition>`, behavior3's
    /// `Condition`) rather than an action; both load as leaves.
    bool condition = false;
    /// The model of one of Canopy's own built-ins that BehaviorTree.CPP lacks, as Canopy's
    /// writer marks it (`canopy="builtin"`): in a BehaviorTree.CPP file, such a name is
    /// Canopy's node only so marked, else the file's own (docs/btcpp-xml.md).
    bool canopy_builtin = false;
    /// In Canopy's own formats, whose names are Canopy's: the model of the file's program's
    /// own node under one of Canopy's names (Nav2's Wait), which lenient loading learns in
    /// place of Canopy's (tree_document::foreign_namesakes).
    bool namesake = false;
    std::vector<port_model> ports;
    std::string description;
    source_location where;
};

/// Another file a document names, by a path relative to the document's own folder.
struct file_reference {
    std::string path;
    source_location where;
};

/// The editor metadata name (record_set::metadata) under which a record keeps the uuid that
/// overrides name it by. Formats that carry metadata keep it through a conversion.
inline constexpr std::string_view uuid_metadata = "_node_uuid";

/// A change a tree makes to one node of the subtree files it uses, for its own uses only
/// (behavior3editor 2.x's `overrides`, docs/behavior3.md): the node is named by its `uuid`
/// there, and the change is a JSON object in behavior3's vocabulary (`desc`, `args`, `input`,
/// `output`, `debug`, `disabled`), as written. The loader gives it to the reader of the
/// subtree file, which reads the node as changed.
struct subtree_override {
    std::string node;   ///< the uuid of the node it changes
    std::string patch;  ///< a JSON object
    source_location where;
};

/// Whose rules a tree's scripts and blackboard follow where Canopy's and a format's own
/// runtime differ (docs/btcpp-xml.md, "BehaviorTree.CPP's rule").
enum class runtime_rules : std::uint8_t {
    /// Canopy's: typed keys, every script checked at load, integers kept as integers.
    canopy,
    /// BehaviorTree.CPP 4.10's: what its runtime finds only when a script runs (an unknown
    /// name, an operand of the wrong type) is a warning at load and fails that statement
    /// when it runs; script values are its Any's (arithmetic, comparisons, logic, `true`,
    /// enums and `-x` give reals); the keys a tree makes hold no value until first written,
    /// and the program's keys the tree never names are not the tree's.
    btcpp,
    /// behavior3-ts's: a variable holds any JavaScript value and is undefined until written;
    /// expressions are evaluated as its evaluator does, and what it finds only when a node
    /// runs interrupts that tick (docs/behavior3.md, "JavaScript's values").
    behavior3,
};

/// A format's own names for Canopy's node types and parameters, so that what is said about a
/// file is said in its words (docs/formats.md, "The file's words"). A reader of a format that
/// names things otherwise gives one; Canopy's own formats need none.
struct vocabulary {
    /// The format's name for a registered type (BehaviorTree.CPP's `Fallback` for Canopy's
    /// `Selector`), or the type's own.
    std::string (*type_name)(std::string_view registered);
    /// The format's name for parameter `param` of a node the file calls `written_type`
    /// (`msec` for `seconds` on a `Sleep`), or empty where it has none of its own.
    std::string_view (*param_name)(std::string_view written_type, std::string_view param);
};

/// Everything a reader gives for one file: its trees, as records with Canopy's type and
/// parameter names (each format's reader maps its own), which tree runs by default, and the
/// node models and included files it names.
///
/// Subtrees are records of type `SubTree`, which no registry defines: the loader replaces
/// each by the tree it names before building. Its parameters:
///   - `tree`: the name of a tree in this document or a file it includes, or, with `file`,
///     a tree of that file (its main tree when `tree` is absent);
///   - `file`: a path to another tree file (see subtree_paths);
///   - `_autoremap` (boolean): the subtree's keys that no parameter remaps use the parent's
///     keys of the same names;
///   - any other parameter remaps the subtree's key of its name: to the parent's key `"{key}"`,
///     or to a literal value that the subtree's key starts with, private to that use.
struct tree_document {
    /// Where a subtree's `file` is looked for.
    enum class path_base : std::uint8_t {
        file,       ///< the folder of the file that names it
        workspace,  ///< behavior3editor's workspace root (see docs/behavior3.md)
    };

    std::vector<record_set> trees;  ///< in file order; each named (record_set::name())
    std::string main_tree;          ///< the tree the file says runs; empty where it names none
    source_location main_tree_where;
    std::vector<node_model> models;
    std::vector<file_reference> includes;  ///< files whose trees this one's subtrees may name
    path_base subtree_paths = path_base::file;
    /// Whether keys that a tree uses but does not declare exist anyway, with the type their
    /// uses give them, as in formats whose libraries create blackboard entries on first use.
    bool implicit_keys = false;
    /// Whose rules its scripts and blackboard follow (build_options::rules).
    runtime_rules rules = runtime_rules::canopy;
    /// Whether its node names are Canopy's (Canopy's own formats). In another runtime's file
    /// a name Canopy shares may be the file's own program's node, with other parameters,
    /// which lenient loading learns (foreign_namesakes).
    bool canopy_names = true;
    /// The format's own names, where they differ from Canopy's; null for Canopy's formats.
    const vocabulary* words = nullptr;
    /// What the main tree changes in its subtree files' nodes; empty in most formats. Writers
    /// of formats that cannot say it report it as a problem rather than drop it.
    std::vector<subtree_override> overrides;
    /// Node types of the file's own program that share a name with one of Canopy's (Nav2's
    /// Wait), which lenient loading learned in their place (load_options::lenient). Canopy's
    /// own formats, whose names are Canopy's, say them as node models marked namesakes
    /// (node_model::namesake), BehaviorTree.CPP XML as models marked canopy="namesake".
    std::vector<std::string> foreign_namesakes;
};

}  // namespace canopy
