#pragma once
// What Canopy's own formats say of a file beside its trees, so that another runtime's file
// converts to them and back (docs/formats.md):
// - node models (`models`, <models>): the program's node types a file uses, as
//   BehaviorTree.CPP's <TreeNodesModel> describes them; a model named as one of Canopy's
//   built-ins may say that the file's node of that name is its program's own (Nav2's Wait);
// - subtree overrides (`overrides`, <overrides>): the changes a tree makes to nodes of the
//   behavior3 subtree files it uses, as behavior3editor writes them.

#include <string>
#include <vector>

#include "canopy/records/document.hpp"
#include "core/diagnostic_sink.hpp"
#include "formats/located_json.hpp"

namespace tinyxml2 {
class XMLElement;
class XMLPrinter;
}  // namespace tinyxml2

namespace canopy::detail {

/// The models a document's trees are written with in Canopy's formats: its own but those of
/// Canopy's built-ins (whose names are Canopy's there anyway), each of another program's node
/// under one of Canopy's names marked a namesake.
std::vector<node_model> flat_models(const tree_document& document);

/// Reads the JSON array at values[array] (a located copy) into `models`.
void read_json_models(const std::vector<json_copy::jvalue>& values, std::uint32_t array,
                      diagnostic_sink& sink, std::vector<node_model>& models);
/// Appends `"models": [...]` (without a separator before it) for `models`.
void write_json_models(std::string& out, const std::vector<node_model>& models);

/// Reads the JSON object at values[object] ({"uuid": {patch}, ...}) into `overrides`.
void read_json_overrides(const std::vector<json_copy::jvalue>& values, std::uint32_t object,
                         diagnostic_sink& sink, std::vector<subtree_override>& overrides);
/// Appends `"overrides": {...}` (without a separator before it).
void write_json_overrides(std::string& out, const std::vector<subtree_override>& overrides);
/// Reads an <overrides> element (<override node="uuid" patch="{...}"/>) into `overrides`.
void read_xml_overrides(const tinyxml2::XMLElement& element, diagnostic_sink& sink,
                        std::vector<subtree_override>& overrides);
/// Prints an <overrides> element.
void write_xml_overrides(tinyxml2::XMLPrinter& printer,
                         const std::vector<subtree_override>& overrides);

/// Reads a <models> element into `models`.
void read_xml_models(const tinyxml2::XMLElement& element, diagnostic_sink& sink,
                     std::vector<node_model>& models);
/// Prints a <models> element for `models`.
void write_xml_models(tinyxml2::XMLPrinter& printer, const std::vector<node_model>& models);

}  // namespace canopy::detail
