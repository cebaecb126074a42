#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "canopy/formats/format.hpp"

namespace canopy::detail {

/// Flat JSON: {"name": "...", "nodes": [record, ...]} or a bare [record, ...], or several
/// trees: {"main_tree": "...", "trees": [{"name": ..., "nodes": [...]}, ...]}.
read_result read_flat_json(std::string_view text, const std::string& path);
bool claims_flat_json(std::string_view text);
write_result write_flat_json(const tree_document& document);

/// Flat XML: <tree name="..."><node id=".." parentId=".." type=".." describe=".."/>...</tree>,
/// or several trees: <trees main_tree=".."><tree name="..">...</tree>...</trees>.
read_result read_flat_xml(std::string_view text, const std::string& path);
bool claims_flat_xml(std::string_view text);
write_result write_flat_xml(const tree_document& document);

/// BehaviorTree.CPP XML (3 and 4), Groot and Groot2 files and Groot2 projects (.btproj).
/// See docs/btcpp-xml.md.
read_result read_btcpp_xml(std::string_view text, const std::string& path);
bool claims_btcpp_xml(std::string_view text);
write_result write_btcpp_xml(const tree_document& document);
/// The same with `_uid` on every node, the record's id, and `_fullpath` taken as a tree's
/// note, as Groot2's live view wants them.
write_result write_btcpp_xml_with_uids(const tree_document& document);

/// behavior3 JSON: the classic export (a `nodes` map keyed by id, or a project's `trees`)
/// and behavior3editor's nested form (`root` with `children`), and `.b3-setting` node
/// definitions. See docs/behavior3.md.
read_result read_behavior3(std::string_view text, const std::string& path);
/// The same, with the changes a using tree makes to the file's nodes, applied in order.
read_result read_behavior3_overridden(std::string_view text, const std::string& path,
                                      const std::vector<subtree_override>& overrides);
bool claims_behavior3(std::string_view text);
write_result write_behavior3(const tree_document& document);

/// Reports, for a reader of Canopy's formats, a tree named as an earlier tree of the file is
/// (duplicate-field): a name says which tree a subtree or `--tree` means.
void report_duplicate_tree_names(read_result& result, const std::string& path);

/// Reports, for a writer of a format that cannot say them, the document's overrides of its
/// subtree files' nodes (tree_document::overrides): written without them, the tree would
/// run otherwise.
void report_overrides(const tree_document& document, write_result& result);

/// Reports, for a writer of a format without BehaviorTree.CPP's milliseconds, each
/// parameter that reads a key in another unit than its own (raw_param::key_scale).
void report_scaled_keys(const tree_document& document, write_result& result);

/// The runtime rules Canopy's own formats name by `rules` ("btcpp", "behavior3"): a tree
/// converted from another runtime's file keeps that runtime's rules (docs/formats.md).
std::optional<runtime_rules> rules_named(std::string_view name);
/// Their name; empty for Canopy's own, which a file need not name.
std::string_view rules_name(runtime_rules rules);
/// Gives a document of Canopy's own format the rules a file names: those of another
/// runtime make a key on its first use, as there (tree_document::implicit_keys).
void set_rules(tree_document& document, runtime_rules rules);

/// Shared by the flat readers: the record fields a format spells out, and their spellings.
inline constexpr std::string_view record_fields[] = {"id", "parentId", "type", "describe",
                                                     "params"};

}  // namespace canopy::detail
