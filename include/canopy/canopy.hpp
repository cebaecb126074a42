#pragma once
/// Everything public in Canopy, stage by stage: each stage includes only those before it.

// core/: values everything uses: status, parameters, diagnostics, errors
#include "canopy/core/arity.hpp"
#include "canopy/core/diagnostic.hpp"
#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/error.hpp"
#include "canopy/core/fwd.hpp"
#include "canopy/core/param.hpp"
#include "canopy/core/source_location.hpp"
#include "canopy/core/status.hpp"
#include "canopy/core/type_id.hpp"
#include "canopy/core/value_type.hpp"
#include "canopy/core/version.hpp"

// records/: node records and tree documents: what readers make and writers take
#include "canopy/records/document.hpp"
#include "canopy/records/records.hpp"

// formats/: the format table: a reader and a writer per file format
#include "canopy/formats/format.hpp"

// run/: the node API, registry, tree, agent, blackboard: ticking
#include "canopy/run/agent.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/event.hpp"
#include "canopy/run/host.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/node_error.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/observer_list.hpp"
#include "canopy/run/parallel_ticker.hpp"
#include "canopy/run/plugin.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/script_board.hpp"
#include "canopy/run/snapshot.hpp"
#include "canopy/run/stateful_node.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/run/tree_handle.hpp"
#include "canopy/run/world.hpp"

// nodes/: the built-in node library
#include "canopy/nodes/builtin_nodes.hpp"

// builder/: records checked and made into a tree
#include "canopy/builder/build.hpp"

// load/: tree files read, subtrees put in place
#include "canopy/load/load.hpp"
#include "canopy/load/substitution.hpp"

// reload/: files watched, trees reloaded
#include "canopy/reload/file_watcher.hpp"
#include "canopy/reload/tree_library.hpp"

// dialects/: other runtimes' node families, each a library of its own (canopy::behavior3)
#include "canopy/dialects/behavior3_nodes.hpp"

// views/: trees and traces as text for people and tools
#include "canopy/views/convert.hpp"
#include "canopy/views/coverage.hpp"
#include "canopy/views/dot.hpp"
#include "canopy/views/groot2_tree.hpp"
#include "canopy/views/html.hpp"
#include "canopy/views/palette.hpp"
#include "canopy/views/print.hpp"
#include "canopy/views/schema.hpp"
#include "canopy/views/snapshot_json.hpp"
#include "canopy/views/trace_printer.hpp"
#include "canopy/views/trace_recorder.hpp"
#include "canopy/views/write.hpp"

// testing/: scenarios (canopy::testing, linked on its own)
#include "canopy/testing/scenario.hpp"

// monitor/: watching a running program (canopy::groot2 and canopy::live, each linked on its own)
#include "canopy/monitor/groot2_server.hpp"
#include "canopy/monitor/live_view.hpp"
