#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/core/fwd.hpp"
#include "canopy/formats/format.hpp"
#include "canopy/load/load.hpp"

namespace canopy {

/// A tree file said in another format, checked before anything is written: what the writer
/// made is read back from memory, with the files it names, and every tree of the file must
/// mean what it meant (meaning_text: its nodes' types, shape, describes, parameters, bound
/// keys and conditions, its keys, whose rules its scripts follow). What the format
/// cannot say, and what would read back otherwise, is reported, located in the input file.
struct conversion {
    std::string text;  ///< the file to write at the output path
    /// More files the output needs, by paths relative to the output's folder, and their text.
    std::vector<std::pair<std::string, std::string>> files;
    /// The load's problems and warnings, then what the format cannot say (not-expressible).
    std::vector<diagnostic> diagnostics;
    /// Whether there is something to write: the file loaded and reads back as the same trees.
    bool written = false;
    explicit operator bool() const noexcept { return written; }
};

/// Converts the tree file `in` to `format`, as the file `out` (which is not written: its
/// folder is where the output's relative paths start). `options` is how both the file and
/// what is written are read (lenient, the registry's types); its `tree` must be empty, since
/// every tree of the file is converted.
conversion convert_file(const std::filesystem::path& in, const std::filesystem::path& out,
                        file_format format, const registry& reg, const load_options& options = {});

/// The lines a tree's meaning is compared by: whose rules its scripts follow (where it has
/// scripts), one line per key it declares (its type and initial value) or makes or uses (its
/// name: the type of a key the file does not declare is its runtime's), and one per node in
/// preorder,
/// indented by depth, with its type's registered name, describe, every parameter (defaults
/// included, bound keys as `{key}`, values as text, numbers in one spelling: XML says them
/// so) and conditions. What tree::fingerprint() hashes, as text,
/// so that two trees that differ say where; how a runtime handles a node's exception is not
/// part of it. Not a file format; for messages and tests.
std::string meaning_text(const tree& t);

}  // namespace canopy
