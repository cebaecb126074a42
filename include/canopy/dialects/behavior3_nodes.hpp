#pragma once

#include "canopy/core/fwd.hpp"

namespace canopy {

/// Registers the behavior3 node family: the nodes of behavior3-ts that behave unlike Canopy's
/// node of the same name, as types named `behavior3.<Name>` (`behavior3.Repeat`,
/// `behavior3.Parallel`, ...), which the behavior3 reader gives such nodes. Each runs tick by
/// tick as behavior3-ts runs it; they take behavior3's argument names. The types have no
/// numeric ids. A program that loads behavior3 files calls it beside register_builtin_nodes and
/// links canopy::behavior3; one that does not links none of it. See docs/behavior3.md, "The
/// behavior3 node family".
void register_behavior3_nodes(registry& reg);

}  // namespace canopy
