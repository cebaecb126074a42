#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/build.hpp"
#include "canopy/diagnostic.hpp"
#include "canopy/fwd.hpp"
#include "canopy/records.hpp"

namespace canopy {

/// The tree file formats Canopy reads. See docs/formats.md.
enum class file_format : std::uint8_t {
    flat_json,  ///< `.json`: {"name": ..., "nodes": [records]} or a bare array of records
    flat_xml,   ///< `.xml`: <tree name=...><node id=.. parentId=.. type=.. describe=../></tree>
};

/// The format a path's extension names (case-insensitive), if any.
std::optional<file_format> format_for_path(const std::filesystem::path& path);

/// Records read from a file, and the problems the reader found. When `complete` is false the
/// text was not well-formed and `records` holds only what came before the problem.
struct read_result {
    record_set records;
    std::vector<diagnostic> diagnostics;
    bool complete = true;
};

/// Reads flat records from text in a format; `path` names the text in diagnostics.
read_result read_records(std::string_view text, file_format format, const std::string& path);

/// Loads a tree file, choosing the format by extension; every problem found comes back as a
/// diagnostic. Never throws for bad input.
load_result try_load_file(const std::filesystem::path& path, const registry& reg);

/// Loads a tree from text in memory; `path` names it in diagnostics.
load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path = "<text>");

/// Loads a tree file, choosing the format by extension.
/// @warning throws load_error, holding every problem found, if the file does not give a
/// valid tree.
std::shared_ptr<const tree> load_file(const std::filesystem::path& path, const registry& reg);

}  // namespace canopy
