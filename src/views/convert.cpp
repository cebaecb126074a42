// convert_file (canopy/views/convert.hpp): write, then read back from memory and compare, so
// that a conversion that would change a tree is refused before a byte reaches the disk.
#include "canopy/views/convert.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "canopy/records/records.hpp"
#include "canopy/run/tree.hpp"
#include "core/json_text.hpp"
#include "core/param_text.hpp"
#include "load/subtree_node.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;

// The meaning of each tree of a file, by name, and the trees themselves (for locations).
struct file_meanings {
    std::map<std::string, std::string> text;
    std::map<std::string, std::shared_ptr<const tree>> trees;
};

void add_meanings(const file_load_result& loaded, file_meanings& out) {
    for (const auto& [name, t] : loaded.trees) {
        if (t == nullptr) continue;
        out.text.emplace(name, meaning_text(*t));
        out.trees.emplace(name, t);
    }
}

// The index of the first line where two texts differ, and those lines.
struct first_difference {
    std::size_t line = 0;
    std::string before;
    std::string after;
};

first_difference differ(const std::string& a, const std::string& b) {
    std::istringstream left(a);
    std::istringstream right(b);
    first_difference d;
    for (;; ++d.line) {
        const bool more_left = static_cast<bool>(std::getline(left, d.before));
        const bool more_right = static_cast<bool>(std::getline(right, d.after));
        if (!more_left) d.before = "(nothing)";
        if (!more_right) d.after = "(nothing)";
        if (!more_left && !more_right) return d;
        if (!more_left || !more_right || d.before != d.after) return d;
    }
}

std::string trimmed(const std::string& line) {
    const std::size_t start = line.find_first_not_of(' ');
    return start == std::string::npos ? line : line.substr(start);
}

// The node a meaning_text line stands for: lines are the keys, then the nodes in preorder.
std::optional<tree::index> node_of_line(const tree& t, const std::string& text, std::size_t line) {
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    const std::size_t first_node = lines - t.size();
    if (line < first_node || line - first_node >= t.size()) return std::nullopt;
    return static_cast<tree::index>(line - first_node);
}

// A literal as text, a number or boolean in one spelling: XML says every value as text, which
// a parameter of any type (another program's node's) keeps, where JSON types it; so 5, 5.0
// and "5.0" compare equal, as do true and "true".
std::string comparable_text(const param_value& value) {
    std::string text = detail::attribute_text(value);
    if (text == "true" || text == "false") return text;
    double number = 0;
    const char* end = text.data() + text.size();
    const auto [at, problem] = std::from_chars(text.data(), end, number);
    if (problem == std::errc() && at == end && !text.empty() && std::isfinite(number))
        return detail::attribute_text(param_value(number));
    return '"' + text + '"';
}

// A writer's problem with a record, located at it in the file and naming it by its type as the
// file wrote it, not by a record number (a reader's, for formats without ids): "record 7:
// ..." becomes "'TestB3': ...", "record 5 ('Timeout'): ..." "'Timeout': ...", "node 3's ..."
// "the 'Sleep' node's ...".
// Where ids repeat from tree to tree (BehaviorTree.CPP's, numbered in each), the message is
// left as it is.
void locate(diagnostic& d, const tree_document& document) {
    if (!d.record_id) return;
    std::size_t matches = 0;
    for (const record_set& records : document.trees) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (records.id(i) == *d.record_id) ++matches;
        }
    }
    if (matches != 1) return;
    for (const record_set& records : document.trees) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (records.id(i) != *d.record_id) continue;
            if (d.where.line == 0) d.where = records.where(i);
            const std::string type(records.written_type(i).empty() ? records.type_name(i)
                                                                   : records.written_type(i));
            const std::string number = std::to_string(*d.record_id);
            for (const std::string word : {"record ", "node "}) {
                const std::string prefix = word + number;
                if (d.message.compare(0, prefix.size(), prefix) != 0) continue;
                std::string rest = d.message.substr(prefix.size());
                const std::string named = " ('" + type + "')";
                if (rest.compare(0, named.size(), named) == 0) rest = rest.substr(named.size());
                std::string named_message =
                    rest.compare(0, 2, "'s") == 0 ? "the '" + type + "' node" : "'" + type + "'";
                named_message += rest;
                d.message = std::move(named_message);
                return;
            }
            return;
        }
    }
}

bool uses_scripts(const tree& t) {
    for (tree::index i = 0; i < t.size(); ++i) {
        for (std::size_t which = 0; which < std::size(condition_params); ++which) {
            if (t.condition(i, which) != nullptr) return true;
        }
        for (const param& p : t.params(i)) {
            if (p.compiled != nullptr) return true;
        }
    }
    return false;
}

}  // namespace

std::string meaning_text(const tree& t) {
    // Whose rules a tree follows shows only where they can differ: in its scripts.
    std::string out = "rules:";
    if (uses_scripts(t)) {
        out += t.layout().fails_as_btcpp        ? " BehaviorTree.CPP's scripts"
               : t.layout().interrupts_on_error ? " behavior3's expressions"
                                                : " Canopy's scripts";
    }
    out += '\n';
    // The keys the tree has of its own, or uses: not the program's that it never names, which
    // a tree has or not by its format's rules.
    const std::vector<blackboard_key>& keys = t.keys();
    std::vector<bool> used(keys.size(), false);
    for (tree::index i = 0; i < t.size(); ++i) {
        for (const param& p : t.params(i)) {
            if (p.key < keys.size()) used[p.key] = true;
            if (p.names_key && std::holds_alternative<std::int64_t>(p.value) &&
                static_cast<std::uint64_t>(std::get<std::int64_t>(p.value)) < keys.size())
                used[static_cast<std::size_t>(std::get<std::int64_t>(p.value))] = true;
        }
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const blackboard_key& key = keys[k];
        if (!used[k] && !key.from_file && !key.starts_unset && !key.provided) continue;
        // A key the file does not declare takes its type, and whether it starts set, from its
        // runtime's rules (at its first write, in BehaviorTree.CPP and behavior3): its name is
        // what the file says of it.
        if (!key.from_file) {
            out += "key " + key.name + ": made by its uses\n";
            continue;
        }
        out += "key " + key.name + ": " + std::string(key.type_name());
        if (key.initial) out += " = " + detail::value_text(*key.initial);
        if (key.starts_unset) out += ", unset until written";
        out += '\n';
    }
    for (tree::index i = 0; i < t.size(); ++i) {
        const bool subtree = t.type_name(i) == detail::subtree_type_name;
        out.append(2 * t.depth(i), ' ');
        out += t.type_name(i);
        if (!t.describe(i).empty()) {
            out += " \"";
            out += t.describe(i);
            out += '"';
        }
        // By name: a learned type's parameters come in the order its uses first name them.
        std::vector<const param*> params;
        for (const param& p : t.params(i)) params.push_back(&p);
        std::sort(params.begin(), params.end(),
                  [](const param* a, const param* b) { return a->name < b->name; });
        for (const param* each : params) {
            const param& p = *each;
            // Where a subtree's tree comes from is the loader's business: its nodes follow.
            if (subtree && (p.name == "file" || p.name == "tree")) continue;
            out += ' ';
            out += p.name;
            out += p.output ? "=>" : "=";
            if (p.key < keys.size()) {
                out += "{" + keys[p.key].name + "}";
                if (p.key_scale != 1) out += "*" + detail::value_text(param_value(p.key_scale));
            } else if (p.names_key && std::holds_alternative<std::int64_t>(p.value) &&
                       static_cast<std::uint64_t>(std::get<std::int64_t>(p.value)) < keys.size()) {
                out += keys[static_cast<std::size_t>(std::get<std::int64_t>(p.value))].name;
            } else {
                out += comparable_text(p.value);
            }
        }
        for (std::size_t which = 0; which < std::size(condition_params); ++which) {
            if (const script* condition = t.condition(i, which)) {
                out += ' ';
                out += condition_params[which];
                out += "=\"";
                out += condition->text();
                out += '"';
            }
        }
        out += '\n';
    }
    return out;
}

conversion convert_file(const fs::path& in, const fs::path& out, file_format format,
                        const registry& reg, const load_options& options) {
    conversion result;
    // The files `in` names are named again from the output's folder, so that it finds them.
    load_options reading = options;
    reading.relative_to = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    document_load_result loaded = try_load_document(in, reg, reading);
    const bool read = static_cast<bool>(loaded);
    result.diagnostics = std::move(loaded.diagnostics);
    if (!read) return result;
    write_result written = info(format).write(loaded.document);
    for (diagnostic& d : written.problems) {
        d.path = in.string();
        locate(d, loaded.document);
        result.diagnostics.push_back(std::move(d));
    }
    if (!written.problems.empty()) return result;

    // Read back what would be written, from memory, exactly as it will be read from disk.
    load_options back = options;
    back.format = format;  // what it is written as, whatever `in` was read as
    const fs::path folder = out.parent_path();
    back.files_in_memory[out] = written.text;
    for (const auto& [name, text] : written.files) back.files_in_memory[folder / name] = text;
    file_meanings before;
    add_meanings(try_load_every_tree(in, reg, options), before);
    file_meanings after;
    std::vector<diagnostic> unread;
    auto read_back = [&](const fs::path& path) {
        file_load_result again = try_load_every_tree(path, reg, back);
        add_meanings(again, after);
        if (!again) {
            for (const diagnostic& d : again.diagnostics) {
                if (d.severity == diagnostic_severity::error) unread.push_back(d);
            }
        }
    };
    read_back(out);
    for (const auto& [name, text] : written.files) read_back(folder / name);
    for (const diagnostic& d : unread) {
        // A writer's fault, not the file's: said as what the written file would be refused for.
        result.diagnostics.push_back({in.string(),
                                      {},
                                      std::nullopt,
                                      diagnostic_code::not_expressible,
                                      "the " + std::string(info(format).name) +
                                          " written would not read back: " + to_string(d)});
    }
    // A file of one tree, written in a format that names it otherwise (BehaviorTree.CPP's
    // MainTree for a tree without a name), is still that tree.
    if (before.text.size() == 1 && after.text.size() == 1 && unread.empty()) {
        after.text = {{before.text.begin()->first, after.text.begin()->second}};
    }
    for (const auto& [name, meaning] : before.text) {
        const tree& original = *before.trees.at(name);
        auto found = after.text.find(name);
        if (found == after.text.end()) {
            if (!unread.empty()) continue;  // said above
            result.diagnostics.push_back(
                {in.string(), original.size() > 0 ? original.where(0) : source_location{},
                 std::nullopt, diagnostic_code::not_expressible,
                 "tree '" + name + "' is not in what " + std::string(info(format).name) +
                     " would write"});
            continue;
        }
        if (found->second == meaning) continue;
        const first_difference d = differ(meaning, found->second);
        const std::optional<tree::index> node = node_of_line(original, meaning, d.line);
        result.diagnostics.push_back(
            {in.string(), node ? original.where(*node) : source_location{},
             node ? std::optional<std::int64_t>(original.record_id(*node)) : std::nullopt,
             diagnostic_code::not_expressible,
             "tree '" + name + "' would read back otherwise from " +
                 std::string(info(format).name) + ": '" + trimmed(d.before) + "' becomes '" +
                 trimmed(d.after) + "'"});
    }
    if (has_errors(result.diagnostics)) return result;
    result.text = std::move(written.text);
    result.files = std::move(written.files);
    result.written = true;
    return result;
}

}  // namespace canopy
