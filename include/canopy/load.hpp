#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/build.hpp"
#include "canopy/diagnostic.hpp"
#include "canopy/format.hpp"
#include "canopy/fwd.hpp"

namespace canopy {

/// Loads a tree file, choosing the format by its extension and, where formats share one, by
/// its content (canopy/format.hpp); every problem found comes back as a diagnostic. Never
/// throws for bad input.
load_result try_load_file(const std::filesystem::path& path, const registry& reg);

/// Loads a tree from text in memory; `path` names it in diagnostics.
load_result try_load_text(std::string_view text, file_format format, const registry& reg,
                          const std::string& path = "<text>");

/// Loads a tree file, choosing the format by extension.
/// @warning throws load_error, holding every problem found, if the file does not give a
/// valid tree.
std::shared_ptr<const tree> load_file(const std::filesystem::path& path, const registry& reg);

}  // namespace canopy
