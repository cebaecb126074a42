// The one list of the formats Canopy reads and writes: adding a format is a reader, a writer
// and a row here.
#include <algorithm>
#include <cctype>

#include "canopy/formats/format.hpp"
#include "core/diagnostic_sink.hpp"
#include "core/param_text.hpp"
#include "formats/btcpp_names.hpp"
#include "formats/readers.hpp"
#include "formats/sniff.hpp"

namespace canopy {
namespace {

std::string lower_extension(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension;
}

bool lists(const format_info& row, std::string_view extension) {
    return std::find(row.extensions.begin(), row.extensions.end(), extension) !=
           row.extensions.end();
}

}  // namespace

const std::vector<format_info>& formats() {
    // Where formats share an extension, the first row whose content test claims a file
    // reads it.
    static const std::vector<format_info> table = {
        {file_format::flat_json,
         "flat JSON",
         {".json"},
         detail::claims_flat_json,
         detail::read_flat_json,
         detail::write_flat_json},
        {file_format::flat_xml,
         "flat XML",
         {".xml"},
         detail::claims_flat_xml,
         detail::read_flat_xml,
         detail::write_flat_xml},
        {file_format::btcpp_xml,
         "BehaviorTree.CPP XML",
         {".xml", ".btproj"},
         detail::claims_btcpp_xml,
         detail::read_btcpp_xml,
         detail::write_btcpp_xml,
         nullptr,
         {std::begin(detail::btcpp::builtin_types), std::end(detail::btcpp::builtin_types)}},
        {file_format::behavior3,
         "behavior3",
         {".json", ".b3", ".b3-setting"},
         detail::claims_behavior3,
         detail::read_behavior3,
         detail::write_behavior3,
         detail::read_behavior3_overridden},
    };
    return table;
}

const format_info& info(file_format format) {
    for (const format_info& row : formats()) {
        if (row.id == format) return row;
    }
    return formats().front();  // every enumerator has a row; see formats()
}

std::optional<file_format> format_for_path(const std::filesystem::path& path) {
    const std::string extension = lower_extension(path);
    for (const format_info& row : formats()) {
        if (lists(row, extension)) return row.id;
    }
    return std::nullopt;
}

std::optional<file_format> detect_format(const std::filesystem::path& path, std::string_view text) {
    const std::string extension = lower_extension(path);
    for (const format_info& row : formats()) {
        if (lists(row, extension) && row.claims(text)) return row.id;
    }
    return format_for_path(path);
}

namespace detail {

std::optional<runtime_rules> rules_named(std::string_view name) {
    if (name == "btcpp") return runtime_rules::btcpp;
    if (name == "behavior3") return runtime_rules::behavior3;
    return std::nullopt;
}

std::string_view rules_name(runtime_rules rules) {
    switch (rules) {
        case runtime_rules::btcpp: return "btcpp";
        case runtime_rules::behavior3: return "behavior3";
        default: return {};
    }
}

void set_rules(tree_document& document, runtime_rules rules) {
    document.rules = rules;
    document.implicit_keys = rules != runtime_rules::canopy;
}

void report_duplicate_tree_names(read_result& result, const std::string& path) {
    diagnostic_sink sink(path, result.diagnostics);
    const std::vector<record_set>& trees = result.document.trees;
    for (std::size_t t = 1; t < trees.size(); ++t) {
        if (trees[t].name().empty()) continue;
        for (std::size_t before = 0; before < t; ++before) {
            if (trees[before].name() != trees[t].name()) continue;
            const source_location first =
                trees[before].empty() ? source_location{} : trees[before].where(0);
            sink.report(trees[t].empty() ? source_location{} : trees[t].where(0),
                        diagnostic_code::duplicate_field,
                        "a second tree named '" + trees[t].name() +
                            "': a subtree or --tree names one tree by its name" +
                            (first.line != 0
                                 ? " (the first starts at line " + std::to_string(first.line) + ")"
                                 : std::string()));
            break;
        }
    }
}

void report_overrides(const tree_document& document, write_result& result) {
    for (const subtree_override& change : document.overrides) {
        result.problems.push_back({{},
                                   change.where,
                                   std::nullopt,
                                   diagnostic_code::not_expressible,
                                   "the override of subtree node '" + change.node +
                                       "', a change for this tree's uses only (write behavior3 "
                                       "JSON, or make the change in the subtree file)"});
    }
}

void report_scaled_keys(const tree_document& document, write_result& result) {
    for (const record_set& records : document.trees) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                if (p->key_scale == 1) continue;
                result.problems.push_back(
                    {{},
                     p->where,
                     records.id(i),
                     diagnostic_code::not_expressible,
                     "node " + std::to_string(records.id(i)) + "'s '" +
                         std::string(p->name_as_written()) + "' reads blackboard key " +
                         (std::holds_alternative<std::string>(p->value)
                              ? std::get<std::string>(p->value)
                              : value_text(p->value)) +
                         " in milliseconds, which this format cannot say (write BehaviorTree.CPP "
                         "XML)"});
            }
        }
    }
}

}  // namespace detail

read_result read_records(std::string_view text, file_format format, const std::string& path) {
    if (detail::skip_space(text).empty()) {
        read_result result;
        result.complete = false;
        detail::diagnostic_sink(path, result.diagnostics)
            .report_file(diagnostic_code::empty_file,
                         "the file is empty; a tree needs at least its root node");
        return result;
    }
    return info(format).read(text, path);
}

}  // namespace canopy
