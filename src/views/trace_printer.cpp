#include "canopy/views/trace_printer.hpp"

#include <ostream>
#include <sstream>
#include <vector>

#include "canopy/run/agent.hpp"

namespace canopy {
namespace {

void write_node(std::ostream& out, const tree& t, tree::index node, bool describe,
                bool indent = true) {
    if (indent) out << std::string(2 * t.depth(node), ' ');
    out << t.written_type(node);
    if (describe && !t.describe(node).empty()) out << " \"" << t.describe(node) << '"';
    out << " #" << t.record_id(node);
}

// `node`'s part of a running path: the node, then its running children's parts.
void append_running(std::ostream& out, const tree& t, const std::vector<bool>& running,
                    tree::index node) {
    write_node(out, t, node, true, false);
    std::vector<tree::index> below;
    for (const tree::index child : t.children(node))
        if (running[child]) below.push_back(child);
    if (below.empty()) return;
    out << " > ";
    if (below.size() > 1) out << '[';
    for (std::size_t k = 0; k < below.size(); ++k) {
        if (k > 0) out << " | ";
        append_running(out, t, running, below[k]);
    }
    if (below.size() > 1) out << ']';
}

}  // namespace

void trace_printer::end_open_line() {
    if (line_open_) *out_ << '\n';
    line_open_ = false;
}

void trace_printer::on_visit(const agent& a, tree::index node) {
    end_open_line();
    if (&a != tick_agent_ || a.ticks() != tick_) {
        tick_agent_ = &a;
        tick_ = a.ticks();
        // Formatted apart, so that the stream's own flags (std::fixed, say) do not change it.
        std::ostringstream line;
        line << "-- tick " << tick_ << " (" << a.time() << " s)\n";
        *out_ << line.str();
    }
    write_node(*out_, a.tree(), node, true);
    line_open_ = true;
    open_node_ = node;
}

void trace_printer::on_tick(const agent& a, tree::index node, status before, status result) {
    // A node that ticked no child finishes on its own line; one that did, on a closing line.
    if (!line_open_ || open_node_ != node) {
        end_open_line();
        write_node(*out_, a.tree(), node, false);
    }
    *out_ << ": " << to_string(before) << " -> " << to_string(result) << '\n';
    line_open_ = false;
}

void trace_printer::on_halt(const agent& a, tree::index node) {
    end_open_line();
    write_node(*out_, a.tree(), node, false);
    *out_ << ": halted\n";
}

void trace_printer::on_error(const agent& a, const node_error& error) {
    // As a result: on the node's open line if it ticked no child, else on a line of its own.
    if (!line_open_ || open_node_ != error.node) {
        end_open_line();
        write_node(*out_, a.tree(), error.node, false);
    }
    *out_ << ": error: " << error.message << '\n';
    line_open_ = false;
}

std::string running_path_text(const agent& a) {
    const std::vector<tree::index> path = a.running_path();
    if (path.empty()) return {};
    std::vector<bool> running(a.tree().size(), false);
    for (const tree::index node : path) running[node] = true;
    std::ostringstream out;
    append_running(out, a.tree(), running, path.front());
    return out.str();
}

}  // namespace canopy
