#include "canopy/views/print.hpp"

#include <cstdint>
#include <ostream>
#include <vector>

#include "canopy/run/script.hpp"
#include "canopy/run/tree.hpp"
#include "core/json_text.hpp"

namespace canopy {
namespace {

// Calls sink with the text in pieces, so that printing a million nodes never holds the whole
// text in memory. Depth comes from a stack of open subtrees' ends: no recursion.
void append_note(std::string& chunk, const record_set::metadata_entry& note) {
    chunk += ' ';
    chunk += note.name;
    chunk += "=\"";
    detail::append_json_escaped(chunk, note.value);
    chunk += '"';
}

enum class words : std::uint8_t { file, file_verbose, canopy };

template <typename Sink>
void render(const tree& t, words in, Sink sink) {
    const bool verbose = in == words::file_verbose;
    std::string chunk;
    if (verbose && !t.tree_metadata().empty()) {
        chunk += "(tree \"";
        detail::append_json_escaped(chunk, t.name());
        chunk += "\")";
        for (const record_set::metadata_entry& note : t.tree_metadata()) append_note(chunk, note);
        chunk += '\n';
    }
    std::vector<tree::index> open;  // ends of the subtrees the current node lies in
    for (tree::index i = 0; i < t.size(); ++i) {
        while (!open.empty() && i >= open.back()) open.pop_back();
        chunk.append(2 * open.size(), ' ');
        chunk += in == words::canopy ? t.type_name(i) : t.written_type(i);
        if (verbose && t.written_type(i) != t.type_name(i)) {
            chunk += " (";
            chunk += t.type_name(i);
            chunk += ')';
        }
        if (std::string_view describe = t.describe(i); !describe.empty()) {
            chunk += " \"";
            detail::append_json_escaped(chunk, describe);
            chunk += '"';
        }
        chunk += " #";
        chunk += std::to_string(t.record_id(i));
        if (in != words::canopy) {
            chunk += t.written_params(i);
        } else {
            for (std::size_t c = 0; c < std::size(condition_params); ++c) {
                if (const script* condition = t.condition(i, c)) {
                    chunk += ' ';
                    chunk += condition_params[c];
                    chunk += "=\"";
                    detail::append_json_escaped(chunk, condition->text());
                    chunk += '"';
                }
            }
        }
        if (verbose) {
            for (auto [note, end] = t.metadata(i); note != end; ++note) append_note(chunk, *note);
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

void print(const tree& t, std::ostream& out, bool verbose) {
    render(t, verbose ? words::file_verbose : words::file, [&](const std::string& piece) {
        out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    });
}

std::string to_text(const tree& t, bool verbose) {
    std::string text;
    render(t, verbose ? words::file_verbose : words::file,
           [&](const std::string& piece) { text += piece; });
    return text;
}

std::string to_canopy_text(const tree& t) {
    std::string text;
    render(t, words::canopy, [&](const std::string& piece) { text += piece; });
    return text;
}

}  // namespace canopy
