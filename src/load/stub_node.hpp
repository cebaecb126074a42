#pragma once
// load_options::stub: the behaviour lenient loading gives the node types it learned, so that a
// tree written for another program runs without that program's nodes.

#include "canopy/core/status.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// Makes `type` (a learned one, without behaviour) tick as BehaviorTree.CPP's TestNode does
/// with only a `return_status`: each tick returns `result` at once (running: runs until
/// halted); its children, if its uses give it any, are never ticked.
void give_stub_behaviour(node_type& type, status result);

}  // namespace canopy::detail
