#pragma once

#include <string>
#include <string_view>

#include "canopy/format.hpp"

namespace canopy::detail {

/// Flat JSON: {"name": "...", "nodes": [record, ...]} or a bare [record, ...].
read_result read_flat_json(std::string_view text, const std::string& path);

/// Flat XML: <tree name="..."><node id=".." parentId=".." type=".." describe=".."/>...</tree>.
read_result read_flat_xml(std::string_view text, const std::string& path);

/// The writers, the readers' mirror images: records as flat JSON or flat XML text.
std::string write_flat_json(const record_set& records);
std::string write_flat_xml(const record_set& records);

/// Shared by the readers: the record fields a format spells out, and their spellings.
inline constexpr std::string_view record_fields[] = {"id", "parentId", "type", "describe",
                                                     "params"};

}  // namespace canopy::detail
