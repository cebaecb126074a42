#include "canopy/views/trace_printer.hpp"

#include <ostream>

#include "canopy/run/agent.hpp"

namespace canopy {
namespace {

void write_node(std::ostream& out, const tree& t, tree::index node, bool describe) {
    out << std::string(2 * t.depth(node), ' ') << t.written_type(node);
    if (describe && !t.describe(node).empty()) out << " \"" << t.describe(node) << '"';
    out << " #" << t.record_id(node);
}

}  // namespace

void trace_printer::end_open_line() {
    if (line_open_) *out_ << '\n';
    line_open_ = false;
}

void trace_printer::on_visit(const agent& a, tree::index node) {
    end_open_line();
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

}  // namespace canopy
