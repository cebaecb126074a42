#pragma once
// A program's node types in behavior3 files: their input and output slots. behavior3 wires a
// variable to a node by position (`"input": ["foe"]`); for a type the mapping table does not
// map (docs/behavior3.md), input slot N is the type's Nth parameter that may read a variable,
// output slot N its Nth output, in declaration order: the order `canopy models --format b3`
// writes them in, so that what a designer wires in behavior3editor is what the loader reads.

#include <vector>

#include "canopy/records/records.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::detail::behavior3 {

/// Whether a type's slots are its own parameters: a type the table maps has the slots
/// behavior3's node of the name has (behavior3.Wait's time is input 1).
bool has_parameter_slots(const node_type& type);

/// The parameters input slots 1, 2, ... give: inputs that may read a variable (not an
/// output, a setting, a key's name or a script).
std::vector<const param_spec*> input_slots(const node_type& type);
/// The outputs output slots 1, 2, ... give.
std::vector<const param_spec*> output_slots(const node_type& type);

/// Renames the reader's positional parameters (`input2`, `output1`) of the records whose
/// registered type has parameter slots to the parameters those slots give, keeping the
/// written name for views and writers. A slot beyond the type's stays as it is, for the
/// builder to report as a parameter the type does not take.
void name_parameter_slots(record_set& records, const registry& reg);

}  // namespace canopy::detail::behavior3
