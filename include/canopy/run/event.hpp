#pragma once

#include <vector>

#include "canopy/core/dynamic_value.hpp"

namespace canopy {

/// What a program may send with an event it posts (agent::post_event): behavior3's event
/// target and arguments, as values. A node hears them through context::event() while it
/// handles the event (node::on_event); behavior3's Listen writes them to its outputs.
struct event_values {
    /// Whom the event is about (an entity's id, say); null for the agent as a whole. A Listen
    /// given a target hears only events posted with an equal one.
    dynamic_value target;
    std::vector<dynamic_value> arguments;
};

}  // namespace canopy
