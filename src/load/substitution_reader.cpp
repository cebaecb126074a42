// Reads BehaviorTree.CPP 4.10's substitution rules (docs/testing.md, "Substitution rules"):
// what its loadSubstitutionRuleFromJSON accepts, with its meaning, every problem located.
// Where BehaviorTree.CPP ignores a key it does not know, Canopy warns, since a misspelt
// `return_staus` would otherwise make the node fail as "must contain return_status".
#include <cmath>
#include <iterator>

#include "canopy/load/load.hpp"
#include "canopy/load/substitution.hpp"
#include "core/diagnostic_sink.hpp"
#include "core/suggest.hpp"
#include "formats/located_json.hpp"

namespace canopy {
namespace {

using detail::json_copy::jvalue;
using detail::json_copy::kind;
using detail::json_copy::kind_name;
using detail::json_copy::no_value;

constexpr std::string_view config_keys[] = {"return_status",  "return_status_script",
                                            "async_delay",    "success_script",
                                            "failure_script", "post_script"};

class rules_reader {
public:
    rules_reader(std::string_view text, substitution_read_result& result)
        : text_(text), result_(result), sink_(result.rules.path, result.diagnostics) {}

    void run() {
        if (!detail::json_copy::copy_json(text_, values_, sink_) || values_.empty()) return;
        const jvalue& top = values_[0];
        if (top.type != kind::object) {
            return sink_.report(
                top.where, diagnostic_code::unexpected_element,
                "substitution rules are a JSON object, not " + std::string(kind_name(top)));
        }
        std::uint32_t configs = no_value;
        std::uint32_t rules = no_value;
        for (std::uint32_t m = top.first; m != no_value; m = values_[m].next) {
            const jvalue& member = values_[m];
            if (member.key == "TestNodeConfigs") {
                configs = m;
            } else if (member.key == "SubstitutionRules") {
                rules = m;
            } else {
                unknown_key(member, {"TestNodeConfigs", "SubstitutionRules"}, "substitution rules");
            }
        }
        if (configs != no_value && values_[configs].type != kind::null) read_configs(configs);
        if (rules == no_value) {
            return sink_.report(top.where, diagnostic_code::missing_field,
                                "substitution rules need \"SubstitutionRules\", an object of "
                                "patterns and what replaces the nodes they match");
        }
        read_rules(rules);
    }

private:
    void unknown_key(const jvalue& member, const std::vector<std::string_view>& known,
                     const std::string& where) {
        std::string hint = detail::did_you_mean(member.key, known);
        sink_.warn(member.key_where, diagnostic_code::unknown_field,
                   "'" + member.key + "' means nothing in " + where +
                       " (BehaviorTree.CPP ignores it)" + hint);
    }

    bool is_object(const jvalue& v, const std::string& what) {
        if (v.type == kind::object) return true;
        sink_.report(v.where, diagnostic_code::wrong_field_type,
                     what + " must be an object, not " + std::string(kind_name(v)));
        return false;
    }

    void read_configs(std::uint32_t at) {
        const jvalue& all = values_[at];
        if (!is_object(all, "\"TestNodeConfigs\"")) return;
        for (std::uint32_t c = all.first; c != no_value; c = values_[c].next) {
            const jvalue& entry = values_[c];
            const std::string what = "test node config '" + entry.key + "'";
            if (!is_object(entry, what)) continue;
            test_node_config config;
            config.name = entry.key;
            config.where = entry.key_where;
            bool ok = true;
            for (std::uint32_t f = entry.first; f != no_value; f = values_[f].next) {
                const jvalue& field = values_[f];
                const std::string name = "'" + field.key + "' of " + what;
                if (field.key == "async_delay") {
                    ok = read_delay(field, name, config) && ok;
                    continue;
                }
                std::string* script = field.key == "return_status_script"
                                          ? &config.return_status_script
                                      : field.key == "success_script" ? &config.success_script
                                      : field.key == "failure_script" ? &config.failure_script
                                      : field.key == "post_script"    ? &config.post_script
                                                                      : nullptr;
                if (field.key != "return_status" && script == nullptr) {
                    unknown_key(field, {std::begin(config_keys), std::end(config_keys)}, what);
                    continue;
                }
                if (field.type != kind::string) {
                    sink_.report(field.where, diagnostic_code::wrong_field_type,
                                 name + " must be a string, not " + std::string(kind_name(field)));
                    ok = false;
                } else if (script != nullptr) {
                    *script = field.text;
                } else {
                    ok = read_status(field, name, config) && ok;
                }
            }
            if (!config.return_status && config.return_status_script.empty() && ok) {
                sink_.report(entry.key_where, diagnostic_code::missing_field,
                             what + R"( must give "return_status" or "return_status_script")");
            }
            result_.rules.configs.push_back(std::move(config));
        }
    }

    bool read_status(const jvalue& field, const std::string& name, test_node_config& config) {
        static constexpr std::pair<std::string_view, status> names[] = {
            {"SUCCESS", status::success},
            {"FAILURE", status::failure},
            {"RUNNING", status::running},
            {"SKIPPED", status::skipped}};
        for (const auto& [written, value] : names) {
            if (field.text == written) {
                config.return_status = value;
                return true;
            }
        }
        sink_.report(
            field.where, diagnostic_code::invalid_param,
            name + " must be SUCCESS, FAILURE, RUNNING or SKIPPED, not \"" + field.text + "\"" +
                (field.text == "IDLE" ? " (a node cannot return IDLE)"
                                      : detail::did_you_mean(field.text, {"SUCCESS", "FAILURE",
                                                                          "RUNNING", "SKIPPED"})));
        return false;
    }

    // Milliseconds, truncated to a whole number as BehaviorTree.CPP reads them.
    bool read_delay(const jvalue& field, const std::string& name, test_node_config& config) {
        double milliseconds = 0;
        if (field.type == kind::integer) {
            milliseconds = static_cast<double>(field.integer);
        } else if (field.type == kind::number && std::isfinite(field.number) &&
                   std::fabs(field.number) < 2147483648.0) {
            milliseconds = std::trunc(field.number);
        } else {
            sink_.report(
                field.where, diagnostic_code::wrong_field_type,
                name + " must be a number of milliseconds, not " + std::string(kind_name(field)));
            return false;
        }
        if (std::fabs(milliseconds) >= 2147483648.0) {
            sink_.report(field.where, diagnostic_code::invalid_param,
                         name + " is past the milliseconds BehaviorTree.CPP can count (an int)");
            return false;
        }
        config.async_delay = milliseconds / 1000.0;
        return true;
    }

    void read_rules(std::uint32_t at) {
        const jvalue& all = values_[at];
        if (!is_object(all, "\"SubstitutionRules\"")) return;
        for (std::uint32_t r = all.first; r != no_value; r = values_[r].next) {
            const jvalue& rule = values_[r];
            if (rule.type != kind::string) {
                sink_.report(rule.where, diagnostic_code::wrong_field_type,
                             "the rule for '" + rule.key +
                                 "' must name a test node config or a node type, not " +
                                 std::string(kind_name(rule)));
                continue;
            }
            result_.rules.rules.push_back({rule.key, rule.text, rule.key_where});
        }
    }

    std::string_view text_;
    substitution_read_result& result_;
    detail::diagnostic_sink sink_;
    std::vector<jvalue> values_;
};

}  // namespace

const test_node_config* substitution_rules::config(std::string_view name) const {
    for (const test_node_config& c : configs) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

substitution_read_result read_substitution_rules(std::string_view json_text,
                                                 const std::string& path) {
    substitution_read_result result;
    result.rules.path = path;
    rules_reader(json_text, result).run();
    detail::diagnostic_sink::sort(result.diagnostics);
    return result;
}

substitution_read_result load_substitution_rules(const std::filesystem::path& path) {
    file_read_result file = read_file(path);
    if (!file) {
        substitution_read_result result;
        result.rules.path = path.string();
        result.diagnostics.push_back({path.string(),
                                      {},
                                      std::nullopt,
                                      diagnostic_code::io_error,
                                      "cannot read the substitution rules file: " + file.problem,
                                      diagnostic_severity::error});
        return result;
    }
    return read_substitution_rules(*file.text, path.string());
}

}  // namespace canopy
