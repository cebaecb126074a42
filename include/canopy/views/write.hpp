#pragma once

#include <string>

#include "canopy/core/fwd.hpp"
#include "canopy/formats/format.hpp"
#include "canopy/records/records.hpp"

namespace canopy {

/// The tree as records, the mirror of what a reader gives: one per node in preorder, with its
/// file id and its parent's, its type's registered name, its describe, every declared
/// parameter (defaults included) as a literal or, where the file bound it to a key, as
/// `"{key}"` (an output the file left out is left out), and the blackboard keys the file
/// declared. Reading what a writer makes of them gives the same tree.
record_set to_records(const tree& t);

/// Writes records as the text of a format.
std::string write_records(const record_set& records, file_format format);

/// The tree as the text of a format: its records (to_records), with its rules (tree::rules).
std::string write_text(const tree& t, file_format format);

}  // namespace canopy
