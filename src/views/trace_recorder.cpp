// The trace recorder and the trace file format (docs/viewer.md).
#include "canopy/views/trace_recorder.hpp"

#include <charconv>
#include <istream>
#include <ostream>
#include <sstream>
#include <string_view>

#include "canopy/run/agent.hpp"
#include "canopy/views/print.hpp"

namespace canopy {
namespace {

constexpr std::string_view magic = "canopy-trace";
// Version 2 added the status "skipped", version 3 the lines `error` and `value`; the older
// files, which cannot hold them, read as well.
constexpr int format_version = 3;
constexpr int oldest_version = 1;

std::string hex(std::uint64_t value) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (std::size_t i = 16; i-- > 0; value >>= 4U) text[i] = digits[value & 15U];
    return text;
}

// The words of a line, split on spaces and tabs.
std::vector<std::string_view> words_of(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t at = 0;
    while (at < line.size()) {
        if (line[at] == ' ' || line[at] == '\t') {
            ++at;
            continue;
        }
        const std::size_t end = line.find_first_of(" \t", at);
        const std::size_t stop = end == std::string_view::npos ? line.size() : end;
        words.push_back(line.substr(at, stop - at));
        at = stop;
    }
    return words;
}

template <typename Number>
bool parse_number(std::string_view text, Number& value, int base = 10) {
    const char* end = text.data() + text.size();
    const auto [stop, problem] = std::from_chars(text.data(), end, value, base);
    return problem == std::errc() && stop == end && !text.empty();
}

// A text on one line of a trace: backslash, line ends and tabs as \\, \n, \r, \t, and, in a
// key's name, which ends at a space, a space as \s.
std::string escaped(std::string_view text, bool space_too) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case ' ':
                if (space_too) {
                    out += "\\s";
                    break;
                }
                out += c;
                break;
            default: out += c;
        }
    }
    return out;
}

// The text escaped() wrote, or false for a backslash it does not write.
bool unescape(std::string_view text, std::string& out) {
    out.clear();
    for (std::size_t k = 0; k < text.size(); ++k) {
        if (text[k] != '\\') {
            out += text[k];
            continue;
        }
        if (++k == text.size()) return false;
        switch (text[k]) {
            case '\\': out += '\\'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 's': out += ' '; break;
            default: return false;
        }
    }
    return true;
}

bool parse_status(std::string_view text, status& s, int version) {
    for (status candidate :
         {status::idle, status::success, status::failure, status::running, status::skipped}) {
        if (candidate == status::skipped && version < 2) continue;
        if (to_string(candidate) == text) {
            s = candidate;
            return true;
        }
    }
    return false;
}

}  // namespace

trace_error::trace_error(const std::string& path, std::size_t line, const std::string& message)
    : error(error_code::trace,
            path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": error: " + message),
      line_(line) {}

std::uint64_t tree_checksum(const tree& t) {
    std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a, 64 bits
    for (unsigned char c : to_text(t)) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

trace_recorder::trace_recorder(std::shared_ptr<const tree> t, std::size_t max_ticks,
                               bool with_blackboard)
    : tree_(std::move(t)),
      slots_(max_ticks == 0 ? 1 : max_ticks),
      with_blackboard_(with_blackboard) {
    if (!tree_) throw error(error_code::invalid_argument, "trace_recorder: needs a tree");
}

void trace_recorder::record(const agent& a, const trace_event& e) {
    if (&a.tree() != tree_.get()) {  // the agent moved to another tree: start over on it
        // Its nodes are not the old tree's: a tick of both would name nodes of neither. The
        // tick that moved it (its halts of the old tree opened a record) keeps its number.
        if (tick_open_) --ticks_seen_;
        tree_ = a.shared_tree();
        clear();
    }
    // A tick that an error cut short gave no root result: the next tick's root visit opens
    // a record of its own.
    if (tick_open_ && e.what == trace_event::kind::visit && e.node == tree::root &&
        a.ticks() != open_agent_tick_) {
        tick_open_ = false;
    }
    if (!tick_open_) {
        newest_ = kept_ == 0 ? 0 : (newest_ + 1) % slots_.size();
        if (kept_ < slots_.size()) ++kept_;
        traced_tick& slot = slots_[newest_];
        slot.events.clear();  // keeps its capacity: a reused slot allocates no more
        slot.error.clear();
        slot.blackboard.clear();
        slot.number = ++ticks_seen_;
        slot.time_ns = a.time_ns();
        open_agent_tick_ = a.ticks();
        tick_open_ = true;
    }
    slots_[newest_].events.push_back(e);
}

void trace_recorder::on_visit(const agent& a, tree::index node) {
    record(a, {trace_event::kind::visit, status::idle, status::idle, node});
}

void trace_recorder::on_tick(const agent& a, tree::index node, status before, status result) {
    record(a, {trace_event::kind::result, before, result, node});
    if (node == tree::root) {
        keep_blackboard(a);
        tick_open_ = false;
    }
}

void trace_recorder::on_error(const agent& a, const node_error& error) {
    record(a, {trace_event::kind::error, status::idle, status::idle, error.node});
    slots_[newest_].error = error.message;
    keep_blackboard(a);
}

void trace_recorder::keep_blackboard(const agent& a) {
    if (!with_blackboard_) return;
    // An observer is given the agent as const; the recorder only reads its values.
    const canopy::blackboard board = const_cast<agent&>(a).blackboard();
    std::vector<blackboard_entry>& kept = slots_[newest_].blackboard;
    // Assigned over what the reused slot held, whose strings keep their capacity.
    std::size_t count = 0;
    for (std::uint32_t slot = 0; slot < board.keys().size(); ++slot) {
        if (!board.is_set(slot)) continue;
        if (count == kept.size()) kept.emplace_back();
        kept[count].key = board.keys()[slot].name;
        kept[count].value = board.text(slot);
        ++count;
    }
    kept.resize(count);
}

void trace_recorder::on_halt(const agent& a, tree::index node) {
    record(a, {trace_event::kind::halt, status::idle, status::idle, node});
}

void trace_recorder::clear() noexcept {
    kept_ = 0;
    newest_ = 0;
    tick_open_ = false;
}

recorded_trace trace_recorder::recording() const {
    recorded_trace trace;
    trace.tree_size = tree_->size();
    trace.tree_checksum = tree_checksum(*tree_);
    trace.tree_name = tree_->name();
    trace.ticks.reserve(kept_);
    for (std::size_t k = 0; k < kept_; ++k) {
        const std::size_t slot = (newest_ + slots_.size() - kept_ + 1 + k) % slots_.size();
        trace.ticks.push_back(slots_[slot]);
    }
    return trace;
}

void trace_recorder::write(std::ostream& out) const {
    write_trace(recording(), out);
}

void write_trace(const recorded_trace& trace, std::ostream& out) {
    std::string name = trace.tree_name;
    for (char& c : name) {
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';  // one line, whatever the name
    }
    out << magic << ' ' << format_version << '\n'
        << "tree " << trace.tree_size << ' ' << hex(trace.tree_checksum)
        << (name.empty() ? "" : " ") << name << '\n';
    std::string text;
    for (const traced_tick& tick : trace.ticks) {
        text = "tick " + std::to_string(tick.number) + ' ' + std::to_string(tick.time_ns) + '\n';
        for (const trace_event& e : tick.events) {
            switch (e.what) {
                case trace_event::kind::visit: text += "visit "; break;
                case trace_event::kind::result: text += "result "; break;
                case trace_event::kind::halt: text += "halt "; break;
                case trace_event::kind::error: text += "error "; break;
            }
            text += std::to_string(e.node);
            if (e.what == trace_event::kind::result) {
                text += ' ';
                text += to_string(e.before);
                text += ' ';
                text += to_string(e.result);
            } else if (e.what == trace_event::kind::error) {
                text += ' ';
                text += escaped(tick.error, false);
            }
            text += '\n';
        }
        for (const blackboard_entry& entry : tick.blackboard) {
            text += "value " + escaped(entry.key, true) + ' ' + escaped(entry.value, false) + '\n';
        }
        out << text;
    }
}

recorded_trace read_trace(std::istream& in, const std::string& path) {
    recorded_trace trace;
    std::string line;
    std::size_t number = 0;
    bool have_header = false;
    bool have_tree = false;
    int version = 0;
    const auto fail = [&](const std::string& message) { throw trace_error(path, number, message); };
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::vector<std::string_view> words = words_of(line);
        if (words.empty() || words[0][0] == '#') {
            if (have_tree) continue;  // blank lines and comments, after the two first lines
            fail(have_header ? "expected 'tree NODES CHECKSUM [NAME]' on the second line"
                             : "not a Canopy trace: the first line must be 'canopy-trace 3'");
        }
        const std::string_view word = words[0];
        if (!have_header) {
            if (word != magic || words.size() != 2 || !parse_number(words[1], version)) {
                fail("not a Canopy trace: the first line must be 'canopy-trace 3'");
            }
            if (version < oldest_version || version > format_version) {
                fail("trace format version " + std::string(words[1]) +
                     " is not supported (this program reads versions 1 to 3)");
            }
            have_header = true;
        } else if (!have_tree) {
            if (word != "tree" || words.size() < 3 || !parse_number(words[1], trace.tree_size) ||
                !parse_number(words[2], trace.tree_checksum, 16) || words[2].size() != 16) {
                fail("expected 'tree NODES CHECKSUM [NAME]' (CHECKSUM: 16 hex digits)");
            }
            if (words.size() > 3) {
                const auto start = static_cast<std::size_t>(words[3].data() - line.data());
                trace.tree_name = line.substr(start);
            }
            have_tree = true;
        } else if (word == "tick") {
            traced_tick tick;
            if (words.size() != 3 || !parse_number(words[1], tick.number) ||
                !parse_number(words[2], tick.time_ns)) {
                fail("expected 'tick NUMBER TIME_NS'");
            }
            if (!trace.ticks.empty() && tick.number <= trace.ticks.back().number) {
                fail("tick " + std::string(words[1]) + " after tick " +
                     std::to_string(trace.ticks.back().number) + ": tick numbers must grow");
            }
            trace.ticks.push_back(std::move(tick));
        } else if (word == "visit" || word == "result" || word == "halt") {
            trace_event e;
            e.what = word == "visit"    ? trace_event::kind::visit
                     : word == "result" ? trace_event::kind::result
                                        : trace_event::kind::halt;
            const std::size_t expected = e.what == trace_event::kind::result ? 4 : 2;
            if (words.size() != expected || !parse_number(words[1], e.node)) {
                fail(e.what == trace_event::kind::result
                         ? "expected 'result NODE BEFORE AFTER'"
                         : "expected '" + std::string(word) + " NODE'");
            }
            if (e.node >= trace.tree_size) {
                fail("node " + std::string(words[1]) + " is not in a tree of " +
                     std::to_string(trace.tree_size) + " nodes");
            }
            if (e.what == trace_event::kind::result &&
                (!parse_status(words[2], e.before, version) ||
                 !parse_status(words[3], e.result, version))) {
                fail(std::string("expected statuses 'idle', 'success', 'failure', 'running'") +
                     (version < 2 ? " (and 'skipped' from version 2 on)" : " or 'skipped'") +
                     ", not '" + std::string(words[2]) + " " + std::string(words[3]) + "'");
            }
            if (trace.ticks.empty()) fail("an event before the first 'tick' line");
            trace.ticks.back().events.push_back(e);
        } else if (version >= 3 && (word == "error" || word == "value")) {
            if (trace.ticks.empty()) fail("an event before the first 'tick' line");
            traced_tick& tick = trace.ticks.back();
            if (words.size() < 2) {
                fail(word == "error" ? "expected 'error NODE MESSAGE'"
                                     : "expected 'value KEY TEXT'");
            }
            // The text is the rest of the line after the second word and one space.
            const std::size_t second_end =
                static_cast<std::size_t>(words[1].data() - line.data()) + words[1].size();
            const std::string_view rest = second_end < line.size()
                                              ? std::string_view(line).substr(second_end + 1)
                                              : std::string_view();
            if (word == "error") {
                trace_event e;
                e.what = trace_event::kind::error;
                if (!parse_number(words[1], e.node)) fail("expected 'error NODE MESSAGE'");
                if (e.node >= trace.tree_size) {
                    fail("node " + std::string(words[1]) + " is not in a tree of " +
                         std::to_string(trace.tree_size) + " nodes");
                }
                if (!unescape(rest, tick.error)) fail("a backslash not followed by \\, n, r or t");
                tick.events.push_back(e);
            } else {
                blackboard_entry entry;
                if (!unescape(words[1], entry.key) || !unescape(rest, entry.value)) {
                    fail("expected 'value KEY TEXT', backslashes followed by \\, n, r, t or s");
                }
                tick.blackboard.push_back(std::move(entry));
            }
        } else {
            fail("unknown line '" + std::string(word) + "' (expected 'tick', 'visit', 'result'" +
                 (version >= 3 ? ", 'halt', 'error' or 'value')" : " or 'halt')"));
        }
    }
    if (in.bad()) throw trace_error(path, 0, "cannot read the file");
    if (!have_header) throw trace_error(path, 0, "empty file: not a Canopy trace");
    if (!have_tree) throw trace_error(path, number, "the trace ends before its 'tree' line");
    return trace;
}

void check_trace_fits(const recorded_trace& trace, const tree& t, const std::string& path) {
    const std::uint64_t checksum = tree_checksum(t);
    if (trace.tree_size == t.size() && trace.tree_checksum == checksum) return;
    std::ostringstream message;
    message << "the trace was recorded on another tree";
    if (!trace.tree_name.empty()) message << " ('" << trace.tree_name << "')";
    message << ": " << trace.tree_size << " nodes, checksum " << hex(trace.tree_checksum)
            << ", but this tree has " << t.size() << " nodes, checksum " << hex(checksum)
            << " (record the trace again on this version of the tree)";
    throw trace_error(path, 2, message.str());
}

}  // namespace canopy
