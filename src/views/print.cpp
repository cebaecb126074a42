#include "canopy/views/print.hpp"

#include <ostream>
#include <vector>

#include "canopy/run/script.hpp"
#include "canopy/run/tree.hpp"
#include "formats/json_text.hpp"

namespace canopy {
namespace {

// Calls sink with the text in pieces, so that printing a million nodes never holds the whole
// text in memory. Depth comes from a stack of open subtrees' ends: no recursion.
template <typename Sink>
void render(const tree& t, Sink sink) {
    std::string chunk;
    std::vector<tree::index> open;  // ends of the subtrees the current node lies in
    for (tree::index i = 0; i < t.size(); ++i) {
        while (!open.empty() && i >= open.back()) open.pop_back();
        chunk.append(2 * open.size(), ' ');
        chunk += t.type_name(i);
        if (std::string_view describe = t.describe(i); !describe.empty()) {
            chunk += " \"";
            detail::append_json_escaped(chunk, describe);
            chunk += '"';
        }
        chunk += " #";
        chunk += std::to_string(t.record_id(i));
        for (std::size_t c = 0; c < std::size(condition_params); ++c) {
            if (const script* condition = t.condition(i, c)) {
                chunk += ' ';
                chunk += condition_params[c];
                chunk += "=\"";
                detail::append_json_escaped(chunk, condition->text());
                chunk += '"';
            }
        }
        chunk += '\n';
        open.push_back(t.subtree_end(i));
        if (chunk.size() >= (1U << 16)) {
            sink(chunk);
            chunk.clear();
        }
    }
    sink(chunk);
}

}  // namespace

void print(const tree& t, std::ostream& out) {
    render(t, [&](const std::string& piece) {
        out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    });
}

std::string to_text(const tree& t) {
    std::string text;
    render(t, [&](const std::string& piece) { text += piece; });
    return text;
}

}  // namespace canopy
