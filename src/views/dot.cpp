// Trees as Graphviz DOT: a picture writer beside the printer.
#include "canopy/views/dot.hpp"

#include <vector>

#include "canopy/run/tree.hpp"
#include "views/written_params.hpp"

namespace canopy {
namespace {

// Text inside a DOT quoted string: quotes and backslashes escaped, line breaks as \n (which
// centres the line), other control characters dropped.
void append_quoted(std::string& out, std::string_view text) {
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (static_cast<unsigned char>(c) >= 0x20) {
            out += c;
        }
    }
}

// The attributes that say what kind of node it is.
const char* look_of(const tree& t, tree::index i) {
    if (t.type_name(i) == "SubTree") return "shape=folder";
    switch (t.type(i).arity) {
        case arity::composite: return "shape=box";
        case arity::decorator: return "shape=hexagon";
        default: return "shape=box, style=rounded";
    }
}

// The tree a SubTree node uses, which names its cluster: its `tree`, else its `file`.
std::string subtree_name(const tree& t, tree::index i) {
    std::string file;
    for (const param& p : t.params(i)) {
        const auto* text = std::get_if<std::string>(&p.value);
        if (text == nullptr || text->empty() || p.key != param::no_key) continue;
        if (p.name == "tree") return *text;
        if (p.name == "file") file = *text;
    }
    return file.empty() ? "subtree" : file;
}

}  // namespace

std::string to_dot(const tree& t) {
    std::string out =
        "digraph tree {\n  rankdir=TB;\n  graph [fontname=\"Helvetica\"];\n  node "
        "[fontname=\"Helvetica\"];\n";
    std::vector<tree::index> clusters;  // ends of the open subtree clusters
    for (tree::index i = 0; i < t.size(); ++i) {
        while (!clusters.empty() && i >= clusters.back()) {
            clusters.pop_back();
            out.append(2 * clusters.size() + 2, ' ');
            out += "}\n";
        }
        const std::string indent(2 * clusters.size() + 2, ' ');
        out += indent + "n" + std::to_string(i) + " [" + look_of(t, i) + ", label=\"";
        append_quoted(out, t.written_type(i));
        if (!t.describe(i).empty()) {
            out += R"(\n\")";  // a new line, then the describe in quotes
            append_quoted(out, t.describe(i));
            out += R"(\")";
        }
        // The parameters as the file wrote them: `msec = "1000"` on a BehaviorTree.CPP Sleep,
        // a key as `{@key}`; a SubTree's remappings and the name of its tree included.
        for (const detail::written_param& p : detail::written_params_of(t, i)) {
            out += "\\n";
            append_quoted(out, p.name + " = " + p.shown());
        }
        out += "\\n#" + std::to_string(t.record_id(i)) + "\"];\n";
        if (t.type_name(i) == "SubTree" && t.child_count(i) == 1) {
            out += indent + "subgraph cluster_" + std::to_string(i) + " {\n";
            out += indent + "  style=dashed; label=\"";
            append_quoted(out, subtree_name(t, i));
            out += "\";\n";
            clusters.push_back(t.subtree_end(i));
        }
    }
    while (!clusters.empty()) {
        clusters.pop_back();
        out.append(2 * clusters.size() + 2, ' ');
        out += "}\n";
    }
    for (tree::index i = 1; i < t.size(); ++i) {
        out += "  n" + std::to_string(t.parent(i)) + " -> n" + std::to_string(i) + ";\n";
    }
    out += "}\n";
    return out;
}

}  // namespace canopy
