#pragma once

#include <string>

#include "canopy/core/fwd.hpp"
#include "canopy/formats/format.hpp"

namespace canopy {

/// An editor's palette of a registry's node types: the node models a designer drags onto the
/// canvas, each named and with the ports that the format's reader maps to the Canopy type, so
/// that a tree drawn with them loads with the registry. See docs/editing.md.
///
///   - `btcpp_xml`: a Groot2 palette, `<root BTCPP_format="4"><TreeNodesModel>`, with an
///     `<Action>`, `<Condition>`, `<Control>` or `<Decorator>` model for each type that
///     BehaviorTree.CPP 4 does not register itself (Groot2 has those models already, and
///     the reader maps them: `Wait` is drawn as `Sleep` with `msec`), its parameters as
///     `input_port`s and `output_port`s with their C++ type names, defaults and a description.
///   - `behavior3`: behavior3editor's node definitions (`node-config.b3-setting`), one for
///     every type, under the name the behavior3 writer gives it (`Not` → `Invert`, `Parallel`
///     → `canopy.Parallel`): its `type` (Action, Condition, Composite, Decorator), `desc`,
///     `args` with behavior3editor's argument types (`int`, `float?`, ...) and defaults, an
///     `input` slot where the reader takes the parameter from a variable, and `children`.
///
/// @warning throws canopy::error (`unsupported`) for a format no editor takes a palette in (flat
/// JSON and flat XML: `canopy schema` serves those).
std::string write_palette(const registry& reg, file_format format);

}  // namespace canopy
