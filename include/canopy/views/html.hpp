#pragma once

#include <cstdint>
#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

struct recorded_trace;
class coverage_recorder;

/// What to_html shows besides the tree.
struct html_options {
    /// The tree's file, shown in each node's source location (`path:line:col`); the nodes of
    /// a subtree read from another file (`SubTree` with `file`) show that file.
    std::string path;
    /// The page's title; the tree's name (or the path) when empty.
    std::string title;
    /// A recording of the tree's agent to replay tick by tick (not owned; may be null). It
    /// must have been recorded on this tree (check_trace_fits).
    const recorded_trace* replay = nullptr;
    /// The page asks the server that served it for what to show (canopy::live_view):
    /// statuses, blackboard and trace of a running agent, and the population view.
    bool live = false;
    /// What the tree's runs returned, node by node (a coverage_recorder of this tree; not
    /// owned; may be null): the page can colour the tree by it, a heat map of the outcomes
    /// seen, with the counts on each node.
    const coverage_recorder* coverage = nullptr;
    /// The ticks those counts are over, which the page says.
    std::uint64_t coverage_ticks = 0;
};

/// The tree as one self-contained HTML page (docs/viewer.md): a collapsible outline of its
/// nodes (type, describe, parameters, id, source location; subtrees grouped), searchable by
/// describe, type or id, and with a replay, a player that steps through the recorded ticks
/// colouring each node by its status and listing the tick's events. The page loads nothing:
/// its script and style are inline, its data is JSON in a `<script type="application/json">`
/// element with every `<`, `>` and `&` escaped, so no text of the tree can end the element.
/// @warning throws canopy::error if the replay names a node the tree does not have.
std::string to_html(const tree& t, const html_options& options = {});

}  // namespace canopy
