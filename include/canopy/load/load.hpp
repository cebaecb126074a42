#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/builder/build.hpp"
#include "canopy/core/diagnostic.hpp"
#include "canopy/core/fwd.hpp"
#include "canopy/core/status.hpp"
#include "canopy/formats/format.hpp"

namespace canopy {

struct substitution_rules;  // canopy/load/substitution.hpp

/// Which tree of a file to build, and how strictly.
struct load_options {
    /// The tree to build, by name, from the file or the files it includes. Empty: the file's
    /// main tree, which is the one it names (BehaviorTree.CPP's main_tree_to_execute), else
    /// its only tree, else its only tree that no other tree of the file uses as a subtree.
    std::string tree;
    /// Node types the registry lacks are learned from the file's node models (`<TreeNodesModel>`,
    /// `.b3-setting`) or, failing those, from how the file uses them, so that a tree written for
    /// another program prints, validates and converts. Agents refuse to run such a tree, unless
    /// `stub` gives those types a behaviour. See docs/formats.md.
    bool lenient = false;
    /// With `lenient`: each node of a type it learned returns this status at every tick, as
    /// BehaviorTree.CPP's TestNode with only a `return_status` does (running: until halted),
    /// and never ticks the children its uses give it; so the tree runs. Empty: such nodes have
    /// no behaviour.
    std::optional<status> stub;
    /// BehaviorTree.CPP's substitution rules (canopy/load/substitution.hpp): each node they
    /// match runs a test node, or a node of another type, in its place, and never ticks its
    /// children; the file is still checked as written. Null: none.
    std::shared_ptr<const substitution_rules> substitutions;
    /// The format of the file asked for, whatever its extension and content say; the files it
    /// includes or names are still told by theirs.
    std::optional<file_format> format;
    /// The most levels the tree built may have, subtrees put in place (build_options).
    std::uint32_t max_depth = build_options::default_max_depth;
    /// The largest file (or text) a load reads, in bytes, each file it includes or names
    /// counted alone: a larger one is refused, `limit-exceeded`, before it is read, so that a
    /// path naming a huge or endless file (/dev/zero) costs nothing. A load's memory stays
    /// within a few times the bytes it reads (docs/formats.md, "Limits").
    std::uint64_t max_file_bytes = std::uint64_t{1} << 30;
    /// Warnings (diagnostic_severity::warning) fail the load as errors do, and come back as
    /// errors; otherwise they are reported beside a tree that loads.
    bool warnings_as_errors = false;
    /// try_load_document() only: the folder from which the document's relative paths (its
    /// includes, its subtrees' files) are to start, for a document written into another
    /// folder (`canopy convert`); empty: the file's own folder.
    std::filesystem::path relative_to;
    /// Keys the program writes into the main tree's blackboard before its first tick (what
    /// `canopy run --set` writes). Under BehaviorTree.CPP's rules each of these that the
    /// tree makes (a port's `{k}`, a script's `k := 1`) is a dynamic entry, which holds the
    /// program's value as BehaviorTree.CPP's entry holds its first write (docs/btcpp-xml.md,
    /// "Dynamic entries"); without it such a key is typed at load, by its port or script.
    /// Other rules ignore them.
    std::vector<std::string> program_keys;
    /// Files the load reads from memory rather than from disk, by path (relative paths from
    /// the working directory): an editor's unsaved buffers, or what `canopy convert` is about
    /// to write, read back before it writes it. They need not exist on disk.
    std::map<std::filesystem::path, std::string> files_in_memory;
    /// The program's node models: files such as BehaviorTree.CPP's writeTreeNodesModelXML
    /// writes (`<root><TreeNodesModel>...`), or a Groot2 palette or project. Each node type
    /// they declare that the registry lacks is known, without behaviour, with the ports its
    /// model lists (inputs, outputs, defaults) and no other parameter; so a tree of the
    /// program's own nodes is checked as strictly as one of registered types, and an
    /// undeclared type is an error as ever (unless `lenient`).
    std::vector<std::filesystem::path> model_files;
    /// Tree files the program registers before it loads this one (BehaviorTree.CPP's
    /// registerBehaviorTreeFromFile, once per file): their trees are subtrees the file may
    /// use by name without including them, and problems in them are reported in them. A
    /// folder stands for each tree file in it (by extension, not in its subfolders), in name
    /// order.
    std::vector<std::filesystem::path> registered_files;
};

/// Loads a tree file, choosing the format by its extension and, where formats share one, by
/// its content (canopy/formats/format.hpp), with the files it includes and the trees its subtrees
/// name; every problem found comes back as a diagnostic. Never throws for bad input.
load_result try_load_file(const std::filesystem::path& path, const registry& reg,
                          const load_options& options = {});

/// The same, and every file the load read or looked for: the file itself, the files it
/// includes and the files its subtrees name, those it could not read included, absolute and
/// normalised, so that a watcher knows what to watch (canopy/reload/tree_library.hpp).
load_result try_load_file(const std::filesystem::path& path, const registry& reg,
                          const load_options& options,
                          std::vector<std::filesystem::path>& files_read);

/// Loads a tree from text in memory; `path` names it in diagnostics, and relative paths in it
/// start from the working directory.
load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path = "<text>", const load_options& options = {});

/// Loads a tree from an open stream, such as standard input, read to its end as a file of
/// `format` (a pipe or device is read as try_load_file() reads one: only until what it gave is
/// refused whatever follows, and never past load_options::max_file_bytes); `name` names it
/// in diagnostics, and relative paths in it start from the working directory.
load_result try_load_stream(std::FILE* stream, file_format format, const registry& reg,
                            const std::string& name = "<stdin>", const load_options& options = {});

/// Loads a tree file as try_load_file() does.
/// @warning throws load_error, holding every problem found, if the file does not give a
/// valid tree.
std::shared_ptr<const tree> load_file(const std::filesystem::path& path, const registry& reg,
                                      const load_options& options = {});

/// Every tree of a file (not those of the files it includes), each built as try_load_file()
/// builds the tree named in load_options::tree, and every problem found in any of them.
struct file_load_result {
    std::vector<std::pair<std::string, std::shared_ptr<const tree>>> trees;  ///< those built
    std::vector<diagnostic> diagnostics;
    explicit operator bool() const noexcept { return !has_errors(diagnostics); }
};
file_load_result try_load_every_tree(const std::filesystem::path& path, const registry& reg,
                                     const load_options& options = {});

/// A tree file as a document (canopy/records/document.hpp), checked: every tree of it is built as
/// try_load_every_tree() builds them, and each record names its type by the name the
/// registry gives it (aliases and numeric type ids resolved), as writers want them
/// (canopy/views/write.hpp). The files it includes and the files its subtrees name are checked
/// but not part of the document.
struct document_load_result {
    tree_document document;
    std::vector<diagnostic> diagnostics;
    explicit operator bool() const noexcept { return !has_errors(diagnostics); }
};
document_load_result try_load_document(const std::filesystem::path& path, const registry& reg,
                                       const load_options& options = {});

/// A whole file's bytes, read as the loaders read a tree file, for a program's own files
/// beside its trees (scenarios, substitution rules, snapshots): `text`, or nothing and
/// `problem` saying why ("cannot open: No such file or directory", "cannot read: it is a
/// directory", or more than `max_bytes` bytes).
struct file_read_result {
    std::optional<std::string> text;
    std::string problem;
    explicit operator bool() const noexcept { return text.has_value(); }
};
file_read_result read_file(const std::filesystem::path& path,
                           std::uint64_t max_bytes = load_options{}.max_file_bytes);

/// The node types lenient loading learns from a file, its includes and its subtree files, as
/// a registry (types without behaviour), and the problems met reading them.
registry learn_node_types(const std::filesystem::path& path, const registry& reg,
                          std::vector<diagnostic>& problems);

}  // namespace canopy
