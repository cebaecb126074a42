#pragma once
// Shared by the test files: a registry with types that take parameters, and loaders for text.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "canopy/canopy.hpp"
#include "demo.hpp"

namespace canopy {
inline std::ostream& operator<<(std::ostream& out, source_location where) {
    return out << where.line << ':' << where.column;
}
}  // namespace canopy

namespace canopy::testing {

/// A folder of its own under the system's temporary folder, removed at the end.
struct scratch_folder {
    scratch_folder() {
        static std::atomic<int> made{0};
        path = std::filesystem::temp_directory_path() /
               (std::string("canopy_test_") +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "_" +
                std::to_string(made++));
        std::filesystem::create_directories(path);
    }
    ~scratch_folder() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    scratch_folder(const scratch_folder&) = delete;
    scratch_folder& operator=(const scratch_folder&) = delete;
    std::filesystem::path operator/(const std::string& name) const { return path / name; }
    std::filesystem::path path;
};

/// The source tree: data/'s trees, tests/data/'s files.
inline const std::filesystem::path source_dir = CANOPY_SOURCE_DIR;

/// Other projects' tree files, beside the source tree; the tests that read them skip when it
/// is not there.
inline std::filesystem::path corpus_folder() {
    return source_dir / ".." / "shared" / "corpus";
}

/// A file with `text` in the system's temporary folder, removed at the end.
class temp_file {
public:
    temp_file(const std::string& name, const std::string& text)
        : path_(std::filesystem::temp_directory_path() / name) {
        std::ofstream(path_, std::ios::binary) << text;
    }
    ~temp_file() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    temp_file(const temp_file&) = delete;
    temp_file& operator=(const temp_file&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// Whether `text` has `part` in it.
inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// A behavior3 file's variable (a `json` key) or a number key, as a number: NaN when it holds
/// another kind of value.
inline double number_at(const blackboard& board, std::string_view name) {
    for (std::uint32_t k = 0; k < board.keys().size(); ++k) {
        if (board.keys()[k].name != name) continue;
        if (board.type(k) != param_type::custom) return board.get<double>(k);
        const dynamic_value& v = board.get_ref<dynamic_value>(k);
        return v.is_number() ? v.number() : std::nan("");
    }
    throw std::runtime_error("no variable '" + std::string(name) + "'");
}
/// Sets a behavior3 file's variable (a `json` key) to a value.
inline void set_at(blackboard board, std::string_view name, const dynamic_value& value) {
    const std::uint32_t slot = board.slot(name);
    if (board.type(slot) == param_type::number) {  // a variable the tree only gives numbers
        board.set(slot, value.to_number());
    } else {
        board.set(slot, value);
    }
}
/// The same for a boolean: false unless it holds true.
inline bool boolean_at(const blackboard& board, std::string_view name) {
    for (std::uint32_t k = 0; k < board.keys().size(); ++k) {
        if (board.keys()[k].name != name) continue;
        if (board.type(k) != param_type::custom) return board.get<bool>(k);
        const dynamic_value& v = board.get_ref<dynamic_value>(k);
        return v.type() == dynamic_value::kind::boolean && v.boolean();
    }
    throw std::runtime_error("no variable '" + std::string(name) + "'");
}

/// A script parsed and compiled against `scope`, or the problem that stopped it, at parse or
/// compile.
inline std::variant<std::shared_ptr<const script>, script_problem> compile_script(
    const std::string& text, const script_scope& scope,
    script_dialect dialect = script_dialect::btcpp) {
    auto parsed = parsed_script::parse(text, dialect);
    if (auto* p = std::get_if<script_problem>(&parsed)) return std::move(*p);
    return script::compile(std::get<parsed_script>(parsed), scope);
}

/// A script compiled against `scope`; throws, naming the text and its problem, if it is not.
inline std::shared_ptr<const script> compiled_script(
    const std::string& text, const script_scope& scope,
    script_dialect dialect = script_dialect::btcpp) {
    auto compiled = compile_script(text, scope, dialect);
    if (auto* p = std::get_if<script_problem>(&compiled)) {
        throw std::runtime_error("'" + text + "' at " + std::to_string(p->offset) + ": " +
                                 p->message);
    }
    return std::get<0>(compiled);
}

/// A leaf that sets its output port `total` to 1: to see outputs survive a round trip.
class output_port_leaf final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::output_port("total", param_type::integer)};
    }
    explicit output_port_leaf(const param_list& params) : total_(params, "total") {}
    status tick(context& ctx) const override {
        total_.set(ctx, std::int64_t{1});
        return status::success;
    }

private:
    output<std::int64_t> total_;
};

/// A node object that remembers its parameter, to show creators receive checked values.
struct counted_node : node {
    explicit counted_node(std::int64_t n) : count(n) {}
    status tick(context& ctx) const override { return ctx.tick(ctx.node() + 1); }
    std::int64_t count;
};

/// Writes what a writer made into `folder`: its text as `stem` with the format's extension,
/// and each further file it made (a behavior3 subtree file, say) by its name. The paths
/// written, the main file first.
inline std::vector<std::filesystem::path> write_files(const write_result& written,
                                                      file_format format,
                                                      const std::filesystem::path& folder,
                                                      const std::string& stem) {
    const std::filesystem::path out =
        folder / (stem + std::string(info(format).extensions.front()));
    std::ofstream(out, std::ios::binary) << written.text;
    std::vector<std::filesystem::path> paths{out};
    for (const auto& [name, text] : written.files) {
        std::ofstream(folder / name, std::ios::binary) << text;
        paths.push_back(folder / name);
    }
    return paths;
}

/// The built-in nodes only.
inline registry builtin_registry() {
    registry reg;
    register_builtin_nodes(reg);
    return reg;
}

/// Built-ins, the behavior3 family, every demo pack (so that each tree in data/ loads), and types
/// with parameters of every kind.
inline registry test_registry() {
    registry reg;
    register_builtin_nodes(reg);
    register_behavior3_nodes(reg);
    demo::register_demo_nodes(reg);
    reg.add({"Counted",
             200,
             arity::decorator,
             {param_spec::required("count", param_type::integer)},
             [](const param_list& params) -> std::unique_ptr<node> {
                 std::int64_t count = params.get<std::int64_t>("count");
                 if (count < 0) throw std::invalid_argument("'count' must not be negative");
                 return std::make_unique<counted_node>(count);
             }});
    reg.add({"Pause",
             201,
             arity::leaf,
             {param_spec::optional("seconds", 1.0), param_spec::optional("loud", false),
              param_spec::optional("label", std::string("wait"))},
             {}});
    return reg;
}

/// Canopy's flat JSON text, loaded as "t.json" with `reg`'s types.
inline load_result load_json(const std::string& text, const registry& reg) {
    return try_load_text(text, file_format::flat_json, reg, "t.json");
}

inline load_result load_json(const std::string& text) {
    return load_json(text, test_registry());
}

inline load_result load_xml(const std::string& text) {
    return try_load_text(text, file_format::flat_xml, test_registry(), "t.xml");
}

/// Wraps records in a flat JSON tree file, one record per line from line 2.
inline std::string json_tree(const std::vector<std::string>& records) {
    std::string text = "{\"nodes\": [\n";
    for (std::size_t i = 0; i < records.size(); ++i) {
        text += records[i] + (i + 1 < records.size() ? ",\n" : "\n");
    }
    return text + "]}\n";
}

/// The same with a blackboard section, `board` (a JSON object), before the records.
inline std::string with_board(const std::string& board, const std::vector<std::string>& records) {
    std::string nodes = json_tree(records);
    return "{\"blackboard\": " + board + ",\n" + nodes.substr(1);
}

/// Wraps <node .../> lines in a flat XML tree, one per line from line 2.
inline std::string xml_tree(const std::vector<std::string>& nodes) {
    std::string text = "<tree>\n";
    for (const std::string& n : nodes) text += n + "\n";
    return text + "</tree>\n";
}

/// A behavior3 file of one tree, its root and `vars` given as JSON, loaded with Canopy's
/// built-ins and the behavior3 family.
inline load_result load_behavior3(const std::string& root, const std::string& vars = "[]") {
    registry reg;
    register_builtin_nodes(reg);
    register_behavior3_nodes(reg);
    return try_load_text(R"({"name": "t", "vars": )" + vars + R"(, "root": )" + root + "}",
                         file_format::behavior3, reg, "t.json");
}

/// The same, which must load without a diagnostic.
inline std::shared_ptr<const tree> behavior3_tree(const std::string& root,
                                                  const std::string& vars = "[]") {
    load_result result = load_behavior3(root, vars);
    for (const diagnostic& d : result.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(result);
    return result.tree;
}

/// The one diagnostic with that code; fails the test when there is not exactly one.
inline diagnostic only(const load_result& result, diagnostic_code code) {
    std::vector<diagnostic> found;
    for (const diagnostic& d : result.diagnostics) {
        if (d.code == code) found.push_back(d);
    }
    INFO("diagnostics: " << [&] {
        std::string all;
        for (const diagnostic& d : result.diagnostics)
            all += "\n  " + to_string(d) + " [" + std::string(to_string(d.code)) + "]";
        return all;
    }());
    REQUIRE(found.size() == 1);
    return found.front();
}

/// The one diagnostic of a read, which must have that code; fails the test when the read has
/// any other.
inline diagnostic only(const read_result& result, diagnostic_code code) {
    INFO("diagnostics: " << [&] {
        std::string all;
        for (const diagnostic& d : result.diagnostics) all += "\n  " + to_string(d);
        return all;
    }());
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics.front().code == code);
    return result.diagnostics.front();
}

/// A chain `depth` levels deep: Not over Not ... over AlwaysSuccess, records 1 to depth.
inline record_set not_chain(int depth) {
    record_set records;
    for (int i = 1; i < depth; ++i) records.add(i, i - 1, "Not");
    records.add(depth, depth - 1, "AlwaysSuccess");
    return records;
}

inline std::vector<diagnostic_code> codes(const load_result& result) {
    std::vector<diagnostic_code> all;
    for (const diagnostic& d : result.diagnostics) all.push_back(d.code);
    return all;
}

}  // namespace canopy::testing
