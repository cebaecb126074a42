#pragma once

#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// A JSON Schema (draft 2020-12) of Canopy's flat JSON format for the node types of a
/// registry: the file's shapes (one tree, several, a bare array of records), each record's
/// fields, the type names and aliases (with their arity and parameters as descriptions) and
/// numeric ids, and for each type its parameters with their types, defaults and which are
/// required, any of them given as `"{key}"`. A file that names it in `"$schema"` gets
/// completion and checking in editors that read JSON Schema (VS Code). The schema checks
/// what a schema can; the loader checks the rest (ids, parents, arity, key declarations).
std::string json_schema(const registry& reg);

}  // namespace canopy
