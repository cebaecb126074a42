#include "canopy/core/diagnostic.hpp"

#include <algorithm>
#include <ostream>

#include "canopy/core/error.hpp"

namespace canopy {

std::string_view to_string(diagnostic_code code) noexcept {
    switch (code) {
        case diagnostic_code::io_error: return "io-error";
        case diagnostic_code::unknown_format: return "unknown-format";
        case diagnostic_code::empty_file: return "empty-file";
        case diagnostic_code::syntax_error: return "syntax-error";
        case diagnostic_code::invalid_utf8: return "invalid-utf8";
        case diagnostic_code::unexpected_element: return "unexpected-element";
        case diagnostic_code::unknown_field: return "unknown-field";
        case diagnostic_code::duplicate_field: return "duplicate-field";
        case diagnostic_code::missing_field: return "missing-field";
        case diagnostic_code::wrong_field_type: return "wrong-field-type";
        case diagnostic_code::invalid_id: return "invalid-id";
        case diagnostic_code::duplicate_id: return "duplicate-id";
        case diagnostic_code::unknown_parent: return "unknown-parent";
        case diagnostic_code::self_parent: return "self-parent";
        case diagnostic_code::parent_cycle: return "parent-cycle";
        case diagnostic_code::no_root: return "no-root";
        case diagnostic_code::multiple_roots: return "multiple-roots";
        case diagnostic_code::unknown_type: return "unknown-type";
        case diagnostic_code::leaf_with_children: return "leaf-with-children";
        case diagnostic_code::decorator_child_count: return "decorator-child-count";
        case diagnostic_code::composite_without_children: return "composite-without-children";
        case diagnostic_code::unknown_param: return "unknown-param";
        case diagnostic_code::missing_param: return "missing-param";
        case diagnostic_code::wrong_param_type: return "wrong-param-type";
        case diagnostic_code::invalid_param: return "invalid-param";
        case diagnostic_code::too_many_nodes: return "too-many-nodes";
        case diagnostic_code::too_many_types: return "too-many-types";
        case diagnostic_code::unknown_key: return "unknown-key";
        case diagnostic_code::invalid_key: return "invalid-key";
        case diagnostic_code::key_type_mismatch: return "key-type-mismatch";
        case diagnostic_code::unsupported_feature: return "unsupported-feature";
        case diagnostic_code::unknown_tree: return "unknown-tree";
        case diagnostic_code::no_main_tree: return "no-main-tree";
        case diagnostic_code::subtree_cycle: return "subtree-cycle";
        case diagnostic_code::limit_exceeded: return "limit-exceeded";
        case diagnostic_code::not_expressible: return "not-expressible";
        case diagnostic_code::invalid_script: return "invalid-script";
    }
    return "unknown";
}

std::string_view to_string(diagnostic_severity severity) noexcept {
    return severity == diagnostic_severity::warning ? "warning" : "error";
}

bool has_errors(const std::vector<diagnostic>& diagnostics) noexcept {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const diagnostic& d) {
        return d.severity == diagnostic_severity::error;
    });
}

namespace {

std::string located(const std::string& path, source_location where, std::string_view kind,
                    const std::string& message) {
    std::string text = path;
    if (where.line != 0) {
        text += ':' + std::to_string(where.line);
        if (where.column != 0) text += ':' + std::to_string(where.column);
    }
    text += ": ";
    text += kind;
    text += ": ";
    text += message;
    return text;
}

}  // namespace

std::string to_string(const diagnostic& d, hint_audience audience) {
    std::string text = located(d.path, d.where, to_string(d.severity), d.message);
    const std::string& hint = audience == hint_audience::api ? d.hint.api : d.hint.command_line;
    if (!hint.empty()) text += " (" + hint + ")";
    for (const diagnostic_note& note : d.notes)
        text += '\n' + located(note.path, note.where, "note", note.message);
    return text;
}

std::string_view to_string(error_code code) noexcept {
    switch (code) {
        case error_code::invalid_argument: return "invalid-argument";
        case error_code::registry: return "registry";
        case error_code::load: return "load";
        case error_code::param: return "param";
        case error_code::blackboard: return "blackboard";
        case error_code::host: return "host";
        case error_code::not_runnable: return "not-runnable";
        case error_code::trace: return "trace";
        case error_code::limit_exceeded: return "limit-exceeded";
        case error_code::unsupported: return "unsupported";
        case error_code::script: return "script";
        case error_code::snapshot: return "snapshot";
    }
    return "unknown";
}

std::ostream& operator<<(std::ostream& out, const diagnostic& d) {
    return out << to_string(d);
}

namespace {

std::string render_all(const std::vector<diagnostic>& diagnostics) {
    std::string text;
    for (const diagnostic& d : diagnostics) {
        if (!text.empty()) text += '\n';
        text += to_string(d);
    }
    return text;
}

}  // namespace

namespace detail {

void throw_registry_error(const std::string& message) {
    throw registry_error(message);
}

void throw_param_error(const std::string& message) {
    throw param_error(message);
}

void call_ignoring_errors(void (*f)()) {
    try {
        f();
    } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): the caller's choice
    }
}

}  // namespace detail

load_error::load_error(std::vector<diagnostic> diagnostics)
    : error(error_code::load, render_all(diagnostics)),
      diagnostics_(std::make_shared<const std::vector<diagnostic>>(std::move(diagnostics))) {}

}  // namespace canopy
