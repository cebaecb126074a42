// Reads flat JSON through nlohmann's SAX interface: no DOM is built, so reading costs less than
// parsing the file into a json value, and each record is stored compactly as it ends.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/diagnostic_sink.hpp"
#include "core/suggest.hpp"
#include "formats/flat_sections.hpp"
#include "formats/json_tracking.hpp"
#include "formats/readers.hpp"
#include "formats/sniff.hpp"
#include "formats/text_position.hpp"

namespace canopy::detail {
namespace {

using json = nlohmann::json;

enum class field : std::uint8_t { id, parent_id, type, describe, params, none };

// final: sax_parse is a template over the handler type, so the calls are not virtual.
class flat_json_handler final : public nlohmann::json_sax<json> {
public:
    flat_json_handler(std::string_view text, const std::string& path, read_result& result)
        : text_(text), path_(path), result_(result), position_(text), reached_(text.data()) {}

    const char** reached() { return &reached_; }

    bool null() override {
        std::size_t start = token_start();
        if (skipping()) return true;
        if (in_blackboard()) return blackboard_value(start, std::nullopt, "null");
        return scalar(start, "null", [&](record_state& r) {
            if (pending_field_ == field::parent_id) {
                r.parent_id = 0;
                return true;
            }
            return false;
        });
    }
    bool boolean(bool value) override {
        std::size_t start = token_start();
        if (skipping()) return true;
        if (state_ == state::params) return add_param(value);
        if (in_blackboard()) return blackboard_value(start, value, "a boolean");
        return scalar(start, "a boolean", [](record_state&) { return false; });
    }
    bool number_integer(std::int64_t value) override {
        std::size_t start = token_start();
        if (skipping()) return true;
        if (state_ == state::params) return add_param(value);
        if (in_blackboard()) return blackboard_value(start, value, "a number");
        return scalar(start, "a number", [&](record_state& r) { return take_integer(r, value); });
    }
    bool number_unsigned(std::uint64_t value) override {
        std::size_t start = token_start();
        if (skipping()) return true;
        if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return scalar(start, "an integer beyond 64 bits", [](record_state&) { return false; });
        }
        auto signed_value = static_cast<std::int64_t>(value);
        if (state_ == state::params) return add_param(signed_value);
        if (in_blackboard()) return blackboard_value(start, signed_value, "a number");
        return scalar(start, "a number",
                      [&](record_state& r) { return take_integer(r, signed_value); });
    }
    bool number_float(double value, const std::string& written) override {
        std::size_t start = token_start();
        if (skipping()) return true;
        if (state_ == state::params) return add_param(value);
        if (in_blackboard()) return blackboard_value(start, value, "a number");
        // nlohmann reads an integer below the 64-bit range as a float.
        bool integral = written.find_first_of(".eE") == std::string::npos;
        return scalar(start, integral ? "an integer beyond 64 bits" : "a fractional number",
                      [](record_state&) { return false; });
    }
    bool string(std::string& value) override {
        std::size_t start = token_start();
        if (skipping()) return true;
        if (state_ == state::params) return add_param(std::move(value));
        if (in_blackboard()) return blackboard_value(start, std::move(value), "a string");
        if (state_ == state::top_object && pending_top_key_ == top_key::name) {
            tree().set_name(std::move(value));
            pending_top_key_ = top_key::none;
            return true;
        }
        if (state_ == state::top_object && pending_top_key_ == top_key::main_tree) {
            result_.document.main_tree = std::move(value);
            result_.document.main_tree_where = location(start);
            pending_top_key_ = top_key::none;
            return true;
        }
        if (state_ == state::top_object && pending_top_key_ == top_key::schema) {
            pending_top_key_ = top_key::none;  // for editors: names the JSON Schema
            return true;
        }
        if (state_ == state::top_object && pending_top_key_ == top_key::rules) {
            pending_top_key_ = top_key::none;
            if (std::optional<runtime_rules> rules = rules_named(value)) {
                set_rules(result_.document, *rules);
            } else {
                report(location(start), diagnostic_code::wrong_field_type,
                       R"('rules' must be "btcpp" or "behavior3", not ")" + value + "\"" +
                           did_you_mean(value, {"btcpp", "behavior3"}));
            }
            return true;
        }
        if (state_ == state::includes) {
            result_.document.includes.push_back({std::move(value), location(start)});
            return true;
        }
        return scalar(start, "a string", [&](record_state& r) {
            if (pending_field_ == field::type) {
                r.type_name.assign(value);  // a copy keeps both buffers' capacity
                r.type_by_id = false;
                return true;
            }
            if (pending_field_ == field::describe) {
                r.describe.assign(value);
                return true;
            }
            return false;
        });
    }
    bool binary(binary_t& /*value*/) override { return true; }  // JSON text has no binary values

    bool start_object(std::size_t /*elements*/) override {
        std::size_t start = token_start();
        if (skipping()) return enter_skipped();
        switch (state_) {
            case state::top: state_ = state::top_object; return true;
            case state::top_object:
                if (pending_top_key_ == top_key::overrides) return read_whole(start);
                if (pending_top_key_ != top_key::blackboard) break;
                pending_top_key_ = top_key::none;
                state_ = state::blackboard;
                return true;
            case state::blackboard:
                if (pending_key_.name.empty() && !key_named_) break;
                state_ = state::key_declaration;
                key_field_ = key_field::none;
                return true;
            case state::nodes: begin_record(start); return true;
            case state::trees: begin_listed_tree(start); return true;
            case state::record:
                if (pending_field_ == field::params) {
                    pending_field_ = field::none;
                    state_ = state::params;
                    return true;
                }
                wrong_record_value(start, "an object");
                return enter_skipped();
            default: break;
        }
        unexpected_value(start, "an object");
        return enter_skipped();
    }
    bool key(std::string& name) override {
        std::size_t start = token_start();
        if (skipping()) return true;
        switch (state_) {
            case state::top_object: return top_object_key(start, name);
            case state::record: return record_key(start, name);
            case state::params: return param_key(start, name);
            case state::blackboard: return blackboard_key_name(start, name);
            case state::key_declaration: return declaration_key(start, name);
            default: return true;
        }
    }
    bool end_object() override {
        token_start();
        if (skipping()) return leave_skipped();
        switch (state_) {
            case state::top_object:
                if (listed_tree_) {
                    if (!nodes_seen_) {
                        report(listed_tree_where_, diagnostic_code::missing_field,
                               "this tree has no 'nodes' array; give one: {\"nodes\": [...]}");
                    }
                    listed_tree_ = false;
                    top_seen_ = outer_seen_;
                    state_ = state::trees;
                    return true;
                }
                if (!nodes_seen_ && !trees_seen_) {
                    report({}, diagnostic_code::missing_field,
                           "the tree file has no 'nodes' array; give one: {\"nodes\": [...]}, "
                           "or several trees: {\"trees\": [{\"name\": ..., \"nodes\": "
                           "[...]}, ...]}");
                }
                // A project: files it includes hold its trees, and it none of its own.
                if (trees_seen_ && listed_trees_ == 0) result_.document.trees.clear();
                state_ = state::done;
                return true;
            case state::record:
                end_record();
                state_ = state::nodes;
                return true;
            case state::params: state_ = state::record; return true;
            case state::blackboard: state_ = state::top_object; return true;
            case state::key_declaration:
                end_declaration();
                state_ = state::blackboard;
                return true;
            default: return true;
        }
    }
    bool start_array(std::size_t /*elements*/) override {
        std::size_t start = token_start();
        if (skipping()) return enter_skipped();
        if (state_ == state::top ||
            (state_ == state::top_object && pending_top_key_ == top_key::nodes)) {
            nodes_seen_ = true;
            pending_top_key_ = top_key::none;
            nodes_inside_object_ = state_ == state::top_object;
            state_ = state::nodes;
            return true;
        }
        if (state_ == state::top_object && pending_top_key_ == top_key::trees) {
            pending_top_key_ = top_key::none;
            trees_seen_ = true;
            state_ = state::trees;
            return true;
        }
        if (state_ == state::top_object && pending_top_key_ == top_key::include) {
            pending_top_key_ = top_key::none;
            state_ = state::includes;
            return true;
        }
        if (state_ == state::top_object && pending_top_key_ == top_key::models)
            return read_whole(start);
        if (state_ == state::record) {
            wrong_record_value(start, "an array");
        } else {
            unexpected_value(start, "an array");
        }
        return enter_skipped();
    }
    bool end_array() override {
        token_start();
        if (skipping()) return leave_skipped();
        if (state_ == state::nodes) state_ = nodes_inside_object_ ? state::top_object : state::done;
        if (state_ == state::trees || state_ == state::includes) state_ = state::top_object;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& ex) override {
        const std::string message = parse_error_text(ex.what());
        diagnostic_code code = message.find("UTF-8") != std::string::npos
                                   ? diagnostic_code::invalid_utf8
                                   : diagnostic_code::syntax_error;
        report(position_.at(position == 0 ? 0 : position - 1), code, "JSON " + message);
        result_.complete = false;
        return false;
    }

private:
    enum class state : std::uint8_t {
        top,
        top_object,
        nodes,
        record,
        params,
        blackboard,       // {"key": declaration, ...}
        key_declaration,  // {"type": ..., "default": ...}
        trees,            // [{"name": ..., "nodes": [...]}, ...]: top_object again inside each
        includes,         // ["file", ...]
        done
    };
    enum class top_key : std::uint8_t {
        name,
        nodes,
        blackboard,
        trees,
        main_tree,
        include,
        schema,
        rules,
        models,
        overrides,
        none
    };
    enum class key_field : std::uint8_t { type, initial, none };

    struct record_state {
        source_location where;
        std::int64_t id = 0;
        std::int64_t parent_id = 0;
        std::int64_t type_id = 0;
        std::string type_name;
        std::string describe;
        std::vector<record_set::raw_param> params;
        std::uint8_t seen = 0;  // one bit per field
        bool unknown_key = false;
        std::vector<std::string> param_names;  // every one seen, to catch a repeat
        std::uint8_t problems = 0;
        bool type_by_id = false;
    };

    // Called at every token: returns where the previous token ended, from which location()
    // finds this token's start when a record or a message needs it. (After a number the
    // parser has read one character more, which that search skips over as well.)
    std::size_t token_start() {
        std::size_t previous = previous_end_;
        previous_end_ = static_cast<std::size_t>(reached_ - text_.data());
        return previous;
    }

    // Where the token that follows `previous_end` starts: past white space and at most one
    // separator.
    std::size_t skip_separators(std::size_t at) const {
        auto skip_space = [&] {
            while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t' ||
                                         text_[at] == '\n' || text_[at] == '\r')) {
                ++at;
            }
        };
        skip_space();
        if (at < text_.size() && (text_[at] == ',' || text_[at] == ':')) {
            ++at;
            skip_space();
        }
        return at;
    }

    source_location location(std::size_t previous_end) {
        return position_.at(skip_separators(previous_end));
    }

    void report(source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record_id = std::nullopt) {
        sink_.report(where, code, std::move(message), record_id);
    }
    std::optional<std::int64_t> current_id() const {
        if ((record_.seen & bit(field::id)) != 0 && (record_.problems & record_set::bad_id) == 0) {
            return record_.id;
        }
        return std::nullopt;
    }

    static std::uint8_t bit(field f) {
        return static_cast<std::uint8_t>(1U << static_cast<unsigned>(f));
    }

    bool skipping() const { return skip_depth_ != 0; }
    bool enter_skipped() {
        ++skip_depth_;
        return true;
    }
    bool leave_skipped() {
        if (--skip_depth_ == 0 && whole_ != top_key::none) {
            std::vector<json_copy::jvalue> values;
            if (json_copy::copy_json(text_, values, sink_, whole_from_, previous_end_) &&
                !values.empty()) {
                if (whole_ == top_key::models) {
                    read_json_models(values, 0, sink_, result_.document.models);
                } else {
                    read_json_overrides(values, 0, sink_, result_.document.overrides);
                }
            }
            whole_ = top_key::none;
        }
        return true;
    }
    // The value of a file's `models` or `overrides`, read whole once it ends (leave_skipped):
    // they are small, and nested as records are not.
    bool read_whole(std::size_t start) {
        whole_ = pending_top_key_;
        pending_top_key_ = top_key::none;
        whole_from_ = skip_separators(start);
        return enter_skipped();
    }

    // A scalar value: `take` stores it into the record if it suits the pending field.
    template <typename Take>
    bool scalar(std::size_t start, std::string_view kind, Take take) {
        if (state_ == state::record) {
            if (pending_field_ != field::none && !take(record_)) wrong_record_value(start, kind);
            pending_field_ = field::none;
            return true;
        }
        unexpected_value(start, kind);
        return true;
    }

    bool take_integer(record_state& r, std::int64_t value) {
        switch (pending_field_) {
            case field::id: r.id = value; return true;
            case field::parent_id: r.parent_id = value; return true;
            case field::type:
                r.type_id = value;
                r.type_by_id = true;
                return true;
            default: return false;
        }
    }

    void wrong_record_value(std::size_t start, std::string_view kind) {
        static constexpr const char* expected[] = {"an integer", "an integer or null",
                                                   "a type name or numeric type id", "a string",
                                                   "an object of parameters"};
        field f = pending_field_;
        pending_field_ = field::none;
        if (f == field::none) return;  // the value of an unknown or repeated key
        auto index = static_cast<std::size_t>(f);
        report(location(start), diagnostic_code::wrong_field_type,
               "'" + std::string(record_fields[index]) + "' must be " + expected[index] + ", not " +
                   std::string(kind),
               current_id());
        if (f == field::id) record_.problems |= record_set::bad_id;
        if (f == field::parent_id) record_.problems |= record_set::bad_parent;
        if (f == field::type) record_.problems |= record_set::bad_type;
    }

    void unexpected_value(std::size_t start, std::string_view kind) {
        if (in_blackboard()) {
            blackboard_value(start, std::nullopt, kind);  // an object or array where none goes
        } else if (state_ == state::params) {
            if (!pending_param_.empty()) {
                report(location(start), diagnostic_code::wrong_param_type,
                       "parameter '" + pending_param_ +
                           "' must be a number, a string or a boolean, not " + std::string(kind),
                       current_id());
            }
            pending_param_.clear();
        } else if (state_ == state::top_object && pending_top_key_ != top_key::none) {
            static constexpr const char* expected[] = {
                "'name' must be a string",
                "'nodes' must be an array of node records",
                "'blackboard' must be an object of key declarations",
                "'trees' must be an array of trees",
                "'main_tree' must be a string, the name of a tree",
                "'include' must be an array of file paths",
                "'$schema' must be a string",
                R"('rules' must be "btcpp" or "behavior3")",
                "'models' must be an array of node models",
                "'overrides' must be an object of changes by node uuid"};
            report(location(start), diagnostic_code::wrong_field_type,
                   std::string(expected[static_cast<std::size_t>(pending_top_key_)]) + ", not " +
                       std::string(kind));
            pending_top_key_ = top_key::none;
        } else if (state_ == state::trees) {
            report(location(start), diagnostic_code::unexpected_element,
                   "a tree in 'trees' must be a JSON object, not " + std::string(kind));
        } else if (state_ == state::includes) {
            report(location(start), diagnostic_code::wrong_field_type,
                   "an included file must be a string, its path, not " + std::string(kind));
        } else if (state_ == state::nodes) {
            report(location(start), diagnostic_code::unexpected_element,
                   "a node record must be a JSON object, not " + std::string(kind));
        } else if (state_ == state::top) {
            report(location(start), diagnostic_code::unexpected_element,
                   "a tree file must be a JSON object with a 'nodes' array or an array of node "
                   "records, not " +
                       std::string(kind));
        }
        // Values under a key already reported as unknown need no second word.
    }

    bool top_object_key(std::size_t start, const std::string& name) {
        static const std::vector<std::string_view> tree_keys = {"name", "nodes", "blackboard"};
        static const std::vector<std::string_view> file_keys = {
            "name",    "nodes",   "blackboard", "trees",  "main_tree",
            "include", "$schema", "rules",      "models", "overrides"};
        const std::vector<std::string_view>& keys = listed_tree_ ? tree_keys : file_keys;
        auto known = std::find(keys.begin(), keys.end(), name);
        top_key k =
            known == keys.end() ? top_key::none : static_cast<top_key>(known - keys.begin());
        if (k == top_key::none) {
            report(location(start), diagnostic_code::unknown_field,
                   "unknown key '" + name + "' in " +
                       (listed_tree_ ? "a tree of 'trees'" : "the tree object") +
                       did_you_mean(name, keys));
        } else if ((k == top_key::trees && nodes_seen_) ||
                   (k == top_key::nodes && trees_seen_ && !listed_tree_)) {
            report(location(start), diagnostic_code::unexpected_element,
                   "a file gives either 'nodes' (one tree) or 'trees' (several), not both");
            k = top_key::none;
        } else if ((top_seen_ & (1U << static_cast<unsigned>(k))) != 0) {
            report(location(start), diagnostic_code::duplicate_field,
                   "key '" + name + "' appears twice in the tree object");
            k = top_key::none;
        } else {
            top_seen_ |= 1U << static_cast<unsigned>(k);
        }
        pending_top_key_ = k;
        return true;
    }

    // A tree of "trees": read as the top object is, into a record set of its own.
    void begin_listed_tree(std::size_t start) {
        if (listed_trees_++ > 0) result_.document.trees.emplace_back();
        listed_tree_ = true;
        listed_tree_where_ = location(start);
        outer_seen_ = top_seen_;
        top_seen_ = 0;
        nodes_seen_ = false;
        state_ = state::top_object;
    }

    // ---- the blackboard object: {"name": {"type": "number", "default": 2.5}} or, without a
    // default, {"name": "number"} ------------------------------------------------------------

    bool in_blackboard() const {
        return state_ == state::blackboard || state_ == state::key_declaration;
    }

    bool blackboard_key_name(std::size_t start, std::string& name) {
        pending_key_ = {std::move(name), {}, std::nullopt, location(start)};
        key_named_ = true;
        key_typed_ = false;
        key_seen_ = 0;
        return true;
    }

    bool declaration_key(std::size_t start, const std::string& name) {
        static const std::vector<std::string_view> fields = {"type", "default"};
        key_field_ = name == "type"      ? key_field::type
                     : name == "default" ? key_field::initial
                                         : key_field::none;
        if (key_field_ == key_field::none) {
            report(location(start), diagnostic_code::unknown_field,
                   "unknown key '" + name + "' in blackboard key '" + pending_key_.name + "'" +
                       did_you_mean(name, fields));
        } else if ((key_seen_ & (1U << static_cast<unsigned>(key_field_))) != 0) {
            report(
                location(start), diagnostic_code::duplicate_field,
                "key '" + name + "' appears twice in blackboard key '" + pending_key_.name + "'");
            key_field_ = key_field::none;
        } else {
            key_seen_ |= 1U << static_cast<unsigned>(key_field_);
        }
        return true;
    }

    // A scalar in the blackboard object: a key's type given alone, or a field of its object.
    bool blackboard_value(std::size_t start, std::optional<param_value> value,
                          std::string_view kind) {
        if (state_ == state::blackboard) {
            if (!key_named_) return true;
            key_named_ = false;
            if (value && std::holds_alternative<std::string>(*value)) {
                pending_key_.type = std::get<std::string>(*value);
                tree().declare_key(std::move(pending_key_));
            } else {
                report(location(start), diagnostic_code::wrong_field_type,
                       "blackboard key '" + pending_key_.name +
                           "' must be declared as {\"type\": ..., \"default\": ...} or by its "
                           "type's name, not " +
                           std::string(kind));
            }
            return true;
        }
        const key_field f = key_field_;
        key_field_ = key_field::none;
        if (f == key_field::type && value && std::holds_alternative<std::string>(*value)) {
            pending_key_.type = std::get<std::string>(*value);
            key_typed_ = true;
        } else if (f == key_field::initial && value) {
            pending_key_.initial =
                record_set::raw_param{pending_key_.name, std::move(*value), location(start), false};
        } else if (f != key_field::none) {
            report(location(start), diagnostic_code::wrong_field_type,
                   std::string(f == key_field::type
                                   ? "'type' must be \"integer\", \"number\", \"boolean\" or "
                                     "\"string\""
                                   : "'default' must be a number, a string or a boolean") +
                       ", not " + std::string(kind));
        }
        return true;
    }

    void end_declaration() {
        key_named_ = false;
        if ((key_seen_ & (1U << static_cast<unsigned>(key_field::type))) == 0) {
            report(pending_key_.where, diagnostic_code::missing_field,
                   "blackboard key '" + pending_key_.name +
                       "' has no 'type' (integer, number, boolean or string)");
            return;
        }
        if (!key_typed_) return;  // a type that is no string, reported
        tree().declare_key(std::move(pending_key_));
    }

    // Resets the record in place: its strings keep their capacity from one record to the next.
    void begin_record(std::size_t start) {
        record_state& r = record_;
        // Found now, while offsets still come in order: asked for at the record's end, after
        // its parameters' locations, it would send the position search back to the top of
        // the text once per record.
        r.where = location(start);
        r.id = 0;
        r.parent_id = 0;
        r.type_id = 0;
        r.type_name.clear();
        r.describe.clear();
        r.params.clear();
        r.param_names.clear();
        r.seen = 0;
        r.problems = 0;
        r.unknown_key = false;
        r.type_by_id = false;
        state_ = state::record;
    }

    static field field_named(const std::string& name) {
        // By length, then a compare of a known byte count, which the compiler turns into a
        // load and a compare: this runs for every key of every record.
        const char* text = name.data();
        switch (name.size()) {
            case 2: return std::memcmp(text, "id", 2) == 0 ? field::id : field::none;
            case 4: return std::memcmp(text, "type", 4) == 0 ? field::type : field::none;
            case 6: return std::memcmp(text, "params", 6) == 0 ? field::params : field::none;
            case 8:
                if (std::memcmp(text, "parentId", 8) == 0) return field::parent_id;
                return std::memcmp(text, "describe", 8) == 0 ? field::describe : field::none;
            default: return field::none;
        }
    }

    bool record_key(std::size_t start, const std::string& name) {
        pending_field_ = field::none;
        if (field f = field_named(name); f != field::none) {
            if ((record_.seen & bit(f)) != 0) {
                report(location(start), diagnostic_code::duplicate_field,
                       "key '" + name + "' appears twice in one node record", current_id());
                return true;
            }
            record_.seen |= bit(f);
            pending_field_ = f;
            return true;
        }
        std::vector<std::string_view> candidates(std::begin(record_fields),
                                                 std::end(record_fields));
        report(location(start), diagnostic_code::unknown_field,
               "unknown key '" + name + "' in a node record" + did_you_mean(name, candidates),
               current_id());
        record_.unknown_key = true;
        return true;
    }

    bool param_key(std::size_t start, std::string& name) {
        std::vector<std::string>& seen = record_.param_names;
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
            report(location(start), diagnostic_code::duplicate_field,
                   "parameter '" + name + "' appears twice in one node record", current_id());
            pending_param_.clear();
            return true;
        }
        seen.push_back(name);
        pending_param_ = std::move(name);
        pending_param_where_ = location(start);
        return true;
    }

    bool add_param(param_value value) {
        if (!pending_param_.empty()) {
            record_.params.emplace_back(std::move(pending_param_), std::move(value),
                                        pending_param_where_, false);
        }
        pending_param_.clear();
        return true;
    }

    void end_record() {
        const source_location where = record_.where;
        std::optional<std::int64_t> id = current_id();
        if ((record_.seen & bit(field::id)) == 0) {
            report(where, diagnostic_code::missing_field, "node record has no 'id'");
            record_.problems |= record_set::bad_id;
        }
        if ((record_.seen & bit(field::type)) == 0) {
            report(where, diagnostic_code::missing_field, "node record has no 'type'", id);
            record_.problems |= record_set::bad_type;
        }
        // An unknown key may be a misspelled parentId: then the record is no root, whatever
        // its missing parentId would otherwise say.
        if (record_.unknown_key && (record_.seen & bit(field::parent_id)) == 0) {
            record_.problems |= record_set::bad_parent;
        }
        record_set& records = tree();
        if (record_.type_by_id) {
            records.add_with_type_id(record_.id, record_.parent_id, record_.type_id,
                                     record_.describe, where);
        } else {
            records.add(record_.id, record_.parent_id, record_.type_name, record_.describe, where);
        }
        records.mark_problem(record_.problems);
        for (auto& p : record_.params) {
            records.add_param(std::move(p.name), std::move(p.value), p.where, false);
        }
    }

    std::string_view text_;
    const std::string& path_;
    record_set& tree() { return result_.document.trees.back(); }

    read_result& result_;
    detail::diagnostic_sink sink_{path_, result_.diagnostics};
    text_position position_;
    const char* reached_;
    std::size_t previous_end_ = 0;
    std::size_t skip_depth_ = 0;
    top_key whole_ = top_key::none;  // read_whole's key, while its value is skipped
    std::size_t whole_from_ = 0;     // where that value starts
    state state_ = state::top;
    top_key pending_top_key_ = top_key::none;
    unsigned top_seen_ = 0;
    unsigned outer_seen_ = 0;  // the file object's, while a tree of "trees" is read
    bool nodes_seen_ = false;
    bool trees_seen_ = false;
    bool listed_tree_ = false;  // reading a tree of "trees"
    std::size_t listed_trees_ = 0;
    source_location listed_tree_where_;
    bool nodes_inside_object_ = false;
    field pending_field_ = field::none;
    std::string pending_param_;
    source_location pending_param_where_;  // where its key stands
    record_set::key_declaration pending_key_;
    bool key_named_ = false;  // a blackboard key's name was read, its declaration not yet
    bool key_typed_ = false;  // its type was read as a string
    unsigned key_seen_ = 0;   // one bit per key_field
    key_field key_field_ = key_field::none;
    record_state record_;
};

}  // namespace

read_result read_flat_json(std::string_view text, const std::string& path) {
    read_result result;
    // No record is shorter than {"id":1,"type":"A"}: this never reserves too little by much,
    // and what it reserves too much stays untouched address space, not memory.
    result.document.trees.emplace_back();
    result.document.trees.back().reserve(text.size() / 24, text.size() / 2);
    flat_json_handler handler(text, path, result);
    tracking_iterator first(text.data(), handler.reached());
    tracking_iterator last(text.data() + text.size(), handler.reached());
    json::sax_parse(first, last, &handler);
    report_duplicate_tree_names(result, path);
    return result;
}

namespace {

// Reads only as far as it takes to tell flat JSON from behavior3, which also has "nodes"
// (an object keyed by id), "root" and "trees" (projects), and stops there.
class flat_json_sniffer final : public nlohmann::json_sax<json> {
public:
    bool flat = true;  // what a file that never says otherwise is read as

    bool null() override { return value(false); }
    bool boolean(bool /*value*/) override { return value(false); }
    bool number_integer(number_integer_t /*value*/) override { return value(false); }
    bool number_unsigned(number_unsigned_t /*value*/) override { return value(false); }
    bool number_float(number_float_t /*value*/, const string_t& /*written*/) override {
        return value(false);
    }
    bool string(string_t& /*value*/) override { return value(false); }
    bool binary(binary_t& /*value*/) override { return value(false); }
    bool start_object(std::size_t /*elements*/) override { return open(false); }
    bool start_array(std::size_t /*elements*/) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& name) override {
        key_ = name;
        // behavior3's node trees: {"root": {...}} or {"root": "id", "nodes": {...}}.
        if (depth_ == 1 && name == "root") return decide(false);
        return true;
    }
    bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& /*error*/) override {
        return false;  // the reader reports it
    }

private:
    bool decide(bool is_flat) {
        flat = is_flat;
        return false;  // stops the parse
    }
    bool value(bool is_array) {
        // "nodes" at the top, or in a tree of "trees" (depth 3), holds the records.
        if (key_ == "nodes" && (depth_ == 1 || (depth_ == 3 && in_trees_))) return decide(is_array);
        return true;
    }
    bool open(bool is_array) {
        if (depth_ == 0 && is_array) return decide(true);  // a bare array of records
        if (!value(is_array)) return false;
        if (depth_ == 1) in_trees_ = key_ == "trees" && is_array;
        ++depth_;
        key_.clear();
        return true;
    }
    bool close() {
        --depth_;
        key_.clear();
        return true;
    }

    int depth_ = 0;
    bool in_trees_ = false;
    std::string key_;
};

}  // namespace

bool claims_flat_json(std::string_view text) {
    const std::string_view start = skip_space(text);
    if (start.empty() || (start.front() != '{' && start.front() != '[')) return false;
    flat_json_sniffer sniffer;
    json::sax_parse(text.begin(), text.end(), &sniffer);
    return sniffer.flat;
}

}  // namespace canopy::detail
