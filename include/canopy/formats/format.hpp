#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/records/document.hpp"

namespace canopy {

/// The tree file formats Canopy reads. See docs/formats.md.
enum class file_format : std::uint8_t {
    flat_json,  ///< `.json`: {"name": ..., "nodes": [records]} or a bare array of records
    flat_xml,   ///< `.xml`: <tree name=...><node id=.. parentId=.. type=.. describe=../></tree>
    btcpp_xml,  ///< `.xml`, `.btproj`: BehaviorTree.CPP 3 and 4, Groot and Groot2
    behavior3,  ///< `.json`, `.b3`: behavior3 (classic and behavior3editor's nested form)
};

/// What a reader found in a file, and the problems it found. When `complete` is false the
/// text was not well-formed and `document` holds only what came before the problem.
struct read_result {
    tree_document document;
    std::vector<diagnostic> diagnostics;
    bool complete = true;
};

/// What a writer made of a document, and what the format cannot express (diagnostics whose
/// path is empty and whose record_id names the record concerned). A write with problems is
/// not to be used: it would lose what they name.
struct write_result {
    std::string text;
    /// More files the output needs, as paths relative to the folder of the main output and
    /// their text: a format with one tree per file writes each subtree in a file of its own.
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<diagnostic> problems;
};

/// One format: what it is called, the extensions it is looked for under, how to tell it from
/// the other formats of an extension by its content, its reader and its writer. Readers and
/// writers know records and diagnostics only; the loader knows no format but through this
/// table.
struct format_info {
    file_format id;
    std::string_view name;                     ///< as the CLI and messages call it: "flat JSON"
    std::vector<std::string_view> extensions;  ///< lower case, with the dot: ".json"
    /// Whether text of one of its extensions is of this format (say, by its first element or
    /// its top-level keys); the first row that claims a file reads it.
    bool (*claims)(std::string_view text);
    /// Reads the text; `path` names it in diagnostics.
    read_result (*read)(std::string_view text, const std::string& path);
    /// Writes a document as text that read() reads back as the same trees (canopy/views/write.hpp).
    write_result (*write)(const tree_document& document);
    /// Reads the text with the changes a using tree makes to its nodes
    /// (tree_document::overrides); null for a format whose nodes have no uuid to name.
    read_result (*read_overridden)(std::string_view text, const std::string& path,
                                   const std::vector<subtree_override>& overrides) = nullptr;
    /// The node types the format's own runtime registers itself, which its files use without
    /// declaring them (BehaviorTree.CPP's factory's built-ins); empty where it names none.
    std::vector<std::string_view> builtin_types = {};
};

/// Every format Canopy reads, one row each.
const std::vector<format_info>& formats();

/// The row of a format.
const format_info& info(file_format format);

/// The format a path's extension names (case-insensitive), if any: the first row that lists
/// the extension.
std::optional<file_format> format_for_path(const std::filesystem::path& path);

/// The format of text found under a path: among the rows that list its extension, the first
/// whose content test claims the text, else the first that lists the extension.
std::optional<file_format> detect_format(const std::filesystem::path& path, std::string_view text);

/// Reads a document from text in a format; `path` names the text in diagnostics.
read_result read_records(std::string_view text, file_format format, const std::string& path);

}  // namespace canopy
