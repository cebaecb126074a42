#pragma once
// Versions of one tree as a designer saves them in turn, for the tests of what follows a hot
// reload: more nodes, then fewer, then the keys declared in another order.

#include <string>

namespace canopy::testing {

// Each version's root is of another type than the previous version's, so that a move keeps
// no node's place (agent::move_to): every running node of the old tree is halted there, and
// the new tree starts from its root.

// A Sequence: a success, a Wait of 0.25 s (running on three ticks of 0.1 s, done on the
// fourth), a success. Four nodes; the Wait is node 2.
inline const std::string first_version = R"({"name": "first",
  "blackboard": {"speed": "number", "label": "string"},
  "nodes": [
    {"id": 1, "type": "Sequence"},
    {"id": 2, "parentId": 1, "type": "AlwaysSuccess"},
    {"id": 3, "parentId": 1, "type": "Wait", "params": {"seconds": 0.25}},
    {"id": 4, "parentId": 1, "type": "AlwaysSuccess"}
]})";

// Ten nodes: a Selector whose first child fails and whose second runs its Wait, node 4; the
// nodes from 4 on are past the first tree's end.
inline const std::string grown_version = R"({"name": "grown",
  "blackboard": {"speed": "number", "label": "string"},
  "nodes": [
    {"id": 10, "type": "Selector"},
    {"id": 11, "parentId": 10, "type": "AlwaysFailure"},
    {"id": 12, "parentId": 10, "type": "Sequence"},
    {"id": 13, "parentId": 12, "type": "AlwaysSuccess"},
    {"id": 14, "parentId": 12, "type": "Wait", "params": {"seconds": 0.25}},
    {"id": 15, "parentId": 12, "type": "AlwaysSuccess"},
    {"id": 16, "parentId": 10, "type": "Sequence"},
    {"id": 17, "parentId": 16, "type": "AlwaysSuccess"},
    {"id": 18, "parentId": 16, "type": "Wait", "params": {"seconds": 0.25}},
    {"id": 19, "parentId": 10, "type": "AlwaysSuccess"}
]})";

// Two nodes: a Wait under a ForceSuccess.
inline const std::string shrunk_version = R"({"name": "shrunk",
  "blackboard": {"speed": "number"},
  "nodes": [
    {"id": 30, "type": "ForceSuccess"},
    {"id": 31, "parentId": 30, "type": "Wait", "params": {"seconds": 0.25}}
]})";

// The first tree's keys declared the other way round, over six nodes whose Wait is node 3.
inline const std::string reordered_version = R"({"name": "reordered",
  "blackboard": {"label": "string", "speed": "number"},
  "nodes": [
    {"id": 40, "type": "Selector"},
    {"id": 41, "parentId": 40, "type": "AlwaysFailure"},
    {"id": 42, "parentId": 40, "type": "Sequence"},
    {"id": 43, "parentId": 42, "type": "AlwaysSuccess"},
    {"id": 44, "parentId": 42, "type": "Wait", "params": {"seconds": 0.25}},
    {"id": 45, "parentId": 42, "type": "AlwaysSuccess"}
]})";

}  // namespace canopy::testing
