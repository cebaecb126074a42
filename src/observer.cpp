#include "canopy/observer.hpp"

#include <ostream>

#include "canopy/agent.hpp"

namespace canopy {
namespace {

void write_node(std::ostream& out, const tree& t, tree::index node) {
    out << std::string(2 * t.depth(node), ' ') << t.type_name(node);
    if (!t.describe(node).empty()) out << " \"" << t.describe(node) << '"';
    out << " #" << t.record_id(node) << ": ";
}

}  // namespace

void trace_printer::on_tick(const agent& a, tree::index node, status before, status result) {
    write_node(*out_, a.tree(), node);
    *out_ << to_string(before) << " -> " << to_string(result) << '\n';
}

void trace_printer::on_halt(const agent& a, tree::index node) {
    write_node(*out_, a.tree(), node);
    *out_ << "halted\n";
}

}  // namespace canopy
