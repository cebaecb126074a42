// Reads a scenario file (docs/testing.md, "Scenarios"), every problem located.
#include <iterator>

#include "canopy/load/load.hpp"
#include "canopy/load/substitution.hpp"
#include "canopy/testing/scenario.hpp"
#include "core/diagnostic_sink.hpp"
#include "core/suggest.hpp"
#include "formats/located_json.hpp"

namespace canopy {
namespace {

using detail::json_copy::jvalue;
using detail::json_copy::kind;
using detail::json_copy::kind_name;
using detail::json_copy::no_value;

constexpr std::string_view scenario_keys[] = {
    "name", "tree",  "tree_name",  "lenient", "stub", "substitute", "dt",
    "seed", "ticks", "blackboard", "steps",   "ran",  "never_ran"};
constexpr std::string_view step_keys[] = {"tick",       "set", "events", "status",
                                          "blackboard", "ran", "not_ran"};

std::optional<status> status_named(std::string_view name) {
    if (name == "success") return status::success;
    if (name == "failure") return status::failure;
    if (name == "running") return status::running;
    if (name == "skipped") return status::skipped;
    return std::nullopt;
}

class scenario_reader {
public:
    scenario_reader(std::string_view text, scenario_read_result& result)
        : text_(text), result_(result), sink_(result.scenario.path, result.diagnostics) {}

    void run() {
        if (!detail::json_copy::copy_json(text_, values_, sink_) || values_.empty()) return;
        const jvalue& top = values_[0];
        scenario& s = result_.scenario;
        s.where = top.where;
        if (top.type != kind::object) {
            return sink_.report(top.where, diagnostic_code::unexpected_element,
                                "a scenario is a JSON object, not " + std::string(kind_name(top)));
        }
        bool has_tree = false;
        for (std::uint32_t m = top.first; m != no_value; m = values_[m].next) {
            const jvalue& v = values_[m];
            if (v.key == "name") {
                s.name = text(v);
            } else if (v.key == "tree") {
                has_tree = true;
                s.tree = resolve(text(v));
            } else if (v.key == "tree_name") {
                s.load.tree = text(v);
            } else if (v.key == "lenient") {
                s.load.lenient = boolean(v);
            } else if (v.key == "stub") {
                s.load.stub = status_of(v, false);
                s.load.lenient = s.load.lenient || s.load.stub.has_value();
            } else if (v.key == "substitute") {
                substitute(v);
            } else if (v.key == "dt") {
                s.dt = number(v);
                if (!(s.dt >= 0)) wrong(v, "'dt' must be 0 or more seconds");
            } else if (v.key == "seed") {
                s.seed = whole(v, "'seed'");
            } else if (v.key == "ticks") {
                s.ticks = whole(v, "'ticks'");
            } else if (v.key == "blackboard") {
                s.blackboard = values(v);
            } else if (v.key == "steps") {
                steps(v);
            } else if (v.key == "ran") {
                s.ran = nodes(v);
            } else if (v.key == "never_ran") {
                s.never_ran = nodes(v);
            } else {
                unknown(v, {std::begin(scenario_keys), std::end(scenario_keys)}, "a scenario");
            }
        }
        if (!has_tree) {
            sink_.report(top.where, diagnostic_code::missing_field,
                         "a scenario names the tree it runs: \"tree\", a path from its folder");
        }
        if (s.ticks == 0 && !s.steps.empty()) s.ticks = s.steps.back().tick;
        for (const scenario_step& step : s.steps) {
            if (step.tick > s.ticks) {
                sink_.report(step.where, diagnostic_code::invalid_param,
                             "this step is at tick " + std::to_string(step.tick) + ", past the " +
                                 std::to_string(s.ticks) + " ticks the scenario runs (\"ticks\")");
            }
        }
        if (s.ticks == 0) {
            sink_.report(top.where, diagnostic_code::missing_field,
                         R"(a scenario runs some ticks: give "ticks" or "steps")");
        }
    }

private:
    void wrong(const jvalue& v, const std::string& message) {
        sink_.report(v.where, diagnostic_code::wrong_field_type, message);
    }
    void unknown(const jvalue& v, const std::vector<std::string_view>& known,
                 const std::string& in) {
        sink_.report(v.key_where, diagnostic_code::unknown_field,
                     "'" + v.key + "' means nothing in " + in + detail::did_you_mean(v.key, known));
    }
    std::string text(const jvalue& v) {
        if (v.type == kind::string) return v.text;
        wrong(v, "'" + v.key + "' must be a string, not " + std::string(kind_name(v)));
        return {};
    }
    bool boolean(const jvalue& v) {
        if (v.type == kind::boolean) return v.boolean;
        wrong(v, "'" + v.key + "' must be true or false, not " + std::string(kind_name(v)));
        return false;
    }
    double number(const jvalue& v) {
        if (v.type == kind::integer) return static_cast<double>(v.integer);
        if (v.type == kind::number) return v.number;
        wrong(v, "'" + v.key + "' must be a number, not " + std::string(kind_name(v)));
        return 0;
    }
    std::uint64_t whole(const jvalue& v, const std::string& what) {
        if (v.type == kind::integer && v.integer >= 0) return static_cast<std::uint64_t>(v.integer);
        wrong(v, what + " must be a whole number, 0 or more");
        return 0;
    }
    std::optional<status> status_of(const jvalue& v, bool skipped_too) {
        const std::string name = text(v);
        std::optional<status> found = status_named(name);
        if (found && (skipped_too || *found != status::skipped)) return found;
        if (v.type == kind::string) {
            std::vector<std::string_view> names{"success", "failure", "running"};
            if (skipped_too) names.emplace_back("skipped");
            sink_.report(v.where, diagnostic_code::invalid_param,
                         "'" + name + "' is no status here (" +
                             std::string(skipped_too ? "success, failure, running or skipped"
                                                     : "success, failure or running") +
                             ")" + detail::did_you_mean(name, names));
        }
        return std::nullopt;
    }
    std::filesystem::path resolve(const std::string& relative) const {
        if (relative.empty()) return {};
        const std::filesystem::path own =
            std::filesystem::path(result_.scenario.path).parent_path();
        const std::filesystem::path given(relative);
        return given.is_absolute() ? given : own / given;
    }

    // A rules file's path, from the scenario's folder.
    void substitute(const jvalue& v) {
        if (v.type != kind::string) {
            return wrong(v, "'substitute' must be a substitution rules file's path, not " +
                                std::string(kind_name(v)));
        }
        substitution_read_result read = load_substitution_rules(resolve(v.text));
        result_.diagnostics.insert(result_.diagnostics.end(), read.diagnostics.begin(),
                                   read.diagnostics.end());
        if (!read) return;
        result_.scenario.load.substitutions =
            std::make_shared<const substitution_rules>(std::move(read.rules));
        result_.scenario.load.lenient = true;
    }

    std::vector<scenario_value> values(const jvalue& v) {
        std::vector<scenario_value> out;
        if (v.type != kind::object) {
            wrong(v, "'" + v.key + "' must be an object of keys and values, not " +
                         std::string(kind_name(v)));
            return out;
        }
        for (std::uint32_t m = v.first; m != no_value; m = values_[m].next) {
            const jvalue& e = values_[m];
            dynamic_value value;
            switch (e.type) {
                case kind::boolean: value = e.boolean; break;
                case kind::integer: value = e.integer; break;
                case kind::number: value = e.number; break;
                case kind::string: value = e.text; break;
                default:
                    wrong(e, "the value of '" + e.key +
                                 "' must be a number, a string or a boolean, not " +
                                 std::string(kind_name(e)));
                    continue;
            }
            out.push_back({e.key, std::move(value), e.key_where});
        }
        return out;
    }
    std::vector<scenario_node> nodes(const jvalue& v) {
        std::vector<scenario_node> out;
        if (v.type != kind::array) {
            wrong(v, "'" + v.key + "' must be an array of nodes (\"#ID\", a name or a type), not " +
                         std::string(kind_name(v)));
            return out;
        }
        for (std::uint32_t e = v.first; e != no_value; e = values_[e].next) {
            if (values_[e].type == kind::string && !values_[e].text.empty()) {
                out.push_back({values_[e].text, values_[e].where});
            } else {
                wrong(values_[e], "a node is named by \"#ID\", a name or a type, not " +
                                      std::string(kind_name(values_[e])));
            }
        }
        return out;
    }
    void steps(const jvalue& v) {
        if (v.type != kind::array) {
            return wrong(v, "'steps' must be an array of steps, not " + std::string(kind_name(v)));
        }
        std::uint64_t previous = 0;
        for (std::uint32_t e = v.first; e != no_value; e = values_[e].next) {
            const jvalue& object = values_[e];
            if (object.type != kind::object) {
                wrong(object, "a step is an object, not " + std::string(kind_name(object)));
                continue;
            }
            scenario_step step;
            step.where = object.where;
            for (std::uint32_t m = object.first; m != no_value; m = values_[m].next) {
                const jvalue& f = values_[m];
                if (f.key == "tick") {
                    step.tick = whole(f, "'tick'");
                } else if (f.key == "set") {
                    step.set = values(f);
                } else if (f.key == "events") {
                    if (f.type != kind::array) {
                        wrong(f, "'events' must be an array of event names");
                        continue;
                    }
                    for (std::uint32_t n = f.first; n != no_value; n = values_[n].next) {
                        if (values_[n].type == kind::string) {
                            step.events.push_back(values_[n].text);
                        } else {
                            wrong(values_[n], "an event is named by a string, not " +
                                                  std::string(kind_name(values_[n])));
                        }
                    }
                } else if (f.key == "status") {
                    step.expect_status = status_of(f, true);
                } else if (f.key == "blackboard") {
                    step.expect_blackboard = values(f);
                } else if (f.key == "ran") {
                    step.ran = nodes(f);
                } else if (f.key == "not_ran") {
                    step.not_ran = nodes(f);
                } else {
                    unknown(f, {std::begin(step_keys), std::end(step_keys)}, "a step");
                }
            }
            if (step.tick == 0) {
                sink_.report(object.where, diagnostic_code::missing_field,
                             "a step says at which tick it applies: \"tick\", from 1");
                continue;
            }
            if (step.tick <= previous) {
                sink_.report(object.where, diagnostic_code::invalid_param,
                             "steps go in tick order: tick " + std::to_string(step.tick) +
                                 " comes after tick " + std::to_string(previous));
                continue;
            }
            previous = step.tick;
            result_.scenario.steps.push_back(std::move(step));
        }
    }

    std::string_view text_;
    scenario_read_result& result_;
    detail::diagnostic_sink sink_;
    std::vector<jvalue> values_;
};

}  // namespace

scenario_read_result read_scenario(std::string_view json_text, const std::string& path) {
    scenario_read_result result;
    result.scenario.path = path;
    result.scenario.name = std::filesystem::path(path).stem().string();
    scenario_reader(json_text, result).run();
    detail::diagnostic_sink::sort(result.diagnostics);
    return result;
}

scenario_read_result load_scenario(const std::filesystem::path& path) {
    file_read_result file = read_file(path);
    if (!file) {
        scenario_read_result result;
        result.scenario.path = path.string();
        result.diagnostics.push_back({path.string(),
                                      {},
                                      std::nullopt,
                                      diagnostic_code::io_error,
                                      "cannot read the scenario file: " + file.problem,
                                      diagnostic_severity::error});
        return result;
    }
    return read_scenario(*file.text, path.string());
}

}  // namespace canopy
