// Runs a scenario (docs/testing.md, "Scenarios"): one agent of its tree, fed and checked step
// by step, every failure located in the scenario with the trace of its tick.
#include <chrono>
#include <cmath>
#include <sstream>

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/tree.hpp"
#include "canopy/testing/scenario.hpp"
#include "canopy/views/trace_printer.hpp"
#include "core/json_text.hpp"

namespace canopy {
namespace {

// Which nodes of the scenario's tree a tick visited, and, through printer(), the agent's other
// observer, its trace. A visit on another tree (a hook moved the agent) names none of this
// tree's nodes: it is traced but not marked, and the run fails once the tick is over.
class tick_watch final : public observer {
public:
    explicit tick_watch(const tree& t) : tree_(&t), visited_(t.size(), false) {}

    void start_tick() {
        std::fill(visited_.begin(), visited_.end(), false);
        trace_.str({});
        printer_ = trace_printer(trace_);
    }
    void on_visit(const agent& a, tree::index node) override {
        if (&a.tree() == tree_) {
            visited_[node] = true;
            ever_.resize(visited_.size(), false);
            ever_[node] = true;
        }
    }
    void on_tick(const agent& /*a*/, tree::index /*node*/, status /*before*/,
                 status /*result*/) override {}
    void on_halt(const agent& /*a*/, tree::index /*node*/) override {}
    // The printer of the tick's trace, made anew at each start_tick() at the same address.
    observer* printer() { return &printer_; }
    bool visited(tree::index node) const { return visited_[node]; }
    bool ever(tree::index node) const { return node < ever_.size() && ever_[node]; }
    std::string trace() const { return trace_.str(); }

private:
    const tree* tree_;
    std::vector<bool> visited_;
    std::vector<bool> ever_;
    std::ostringstream trace_;
    trace_printer printer_{trace_};
};

// The nodes a reference names: `#ID`, else every node of that name or written type.
std::vector<tree::index> named(const tree& t, const std::string& ref) {
    std::vector<tree::index> found;
    for (tree::index i = 0; i < t.size(); ++i) {
        const bool match = ref[0] == '#' ? ref.substr(1) == std::to_string(t.record_id(i))
                                         : t.describe(i) == ref || t.written_type(i) == ref;
        if (match) found.push_back(i);
    }
    return found;
}

// A blackboard value as a dynamic value; null when unset or of a program's type.
std::optional<dynamic_value> read_value(const blackboard& board, std::uint32_t slot) {
    if (!board.is_set(slot)) return std::nullopt;
    const blackboard_key& key = board.keys()[slot];
    switch (key.type) {
        case param_type::integer: return dynamic_value(board.get<std::int64_t>(slot));
        case param_type::number: return dynamic_value(board.get<double>(slot));
        case param_type::boolean: return dynamic_value(board.get<bool>(slot));
        case param_type::string: return dynamic_value(board.get<std::string_view>(slot));
        default: break;
    }
    if (key.custom != nullptr && key.custom->is<dynamic_value>())
        return board.get_ref<dynamic_value>(slot);
    return dynamic_value(board.text(slot));  // a program's type: compared as its text
}

std::string shown(const std::optional<dynamic_value>& v) {
    return v ? v->to_json() : std::string("nothing (not set)");
}

bool same(const std::optional<dynamic_value>& got, const dynamic_value& want) {
    if (!got) return false;
    if (got->is_number() && want.is_number())
        return got->number() == want.number() ||
               std::fabs(got->number() - want.number()) <= 1e-9 * std::fabs(want.number());
    return *got == want;
}

// Writes a scenario's value into a key of whatever type it has, or says why it cannot.
std::string write_value(blackboard board, std::uint32_t slot, const dynamic_value& v) {
    const blackboard_key& key = board.keys()[slot];
    std::string wrong = "cannot write " + v.to_json() + " into key '" + key.name +
                        "', which holds " + std::string(key.type_name());
    switch (key.type) {
        case param_type::integer:
            if (!v.is_number() || v.number() != std::trunc(v.number())) return wrong;
            board.set(slot, static_cast<std::int64_t>(v.number()));
            return {};
        case param_type::number:
            if (!v.is_number()) return wrong;
            board.set(slot, v.number());
            return {};
        case param_type::boolean:
            if (v.type() != dynamic_value::kind::boolean) return wrong;
            board.set(slot, v.boolean());
            return {};
        case param_type::string:
            if (!v.is_string()) return wrong;
            board.set(slot, std::string_view(v.string()));
            return {};
        default: break;
    }
    if (key.custom == nullptr) return wrong;
    if (key.custom->is<dynamic_value>()) {
        board.set(slot, v);
        return {};
    }
    if (key.custom->takes_plain != nullptr) {  // a BehaviorTree.CPP file's dynamic entry
        try {
            if (v.type() == dynamic_value::kind::boolean) {
                board.set(slot, v.boolean());
            } else if (v.is_number() && v.number() == std::trunc(v.number()) &&
                       std::fabs(v.number()) < 9.2e18) {
                board.set(slot, static_cast<std::int64_t>(v.number()));
            } else if (v.is_number()) {
                board.set(slot, v.number());
            } else if (v.is_string()) {
                board.set(slot, std::string_view(v.string()));
            } else {
                return wrong;
            }
        } catch (const error& e) {
            return wrong + ": " + e.what();
        }
        return {};
    }
    try {
        const std::shared_ptr<const void> made =
            key.custom->from_text(v.is_string() ? v.string() : v.to_json());
        board.set_object(slot, key.custom->cpp_type, made.get());
    } catch (const std::exception& e) {
        return wrong + ": " + e.what();
    }
    return {};
}

class scenario_run {
public:
    scenario_run(const scenario& s, scenario_result& result) : s_(s), result_(result) {}

    void fail(std::uint64_t tick, source_location where, std::string message,
              std::string trace = {}) {
        result_.failures.push_back({tick, where, std::move(message), std::move(trace)});
    }

    void run(const registry& reg, const scenario_hooks& hooks) {
        load_result loaded = try_load_file(s_.tree, reg, s_.load);
        result_.load_problems = loaded.diagnostics;
        if (!loaded) {
            std::string problems;
            for (const diagnostic& d : loaded.diagnostics) problems += "\n  " + to_string(d);
            return fail(0, s_.where, "the tree does not load:" + problems);
        }
        std::shared_ptr<const tree> t = loaded.tree;
        std::optional<agent> a;
        try {
            a.emplace(t, hooks.host ? hooks.host(*t) : host_ref(), s_.seed);
        } catch (const error& e) {
            return fail(0, s_.where, std::string("the tree cannot run: ") + e.what());
        }
        tick_watch watch(*t);
        a->set_observer(&watch);
        a->add_observer(watch.printer());
        if (hooks.observe) a->add_observer(hooks.observe(t));
        for (const scenario_value& v : s_.blackboard) set(*a, 0, v);
        auto step = s_.steps.begin();
        for (std::uint64_t k = 1; k <= s_.ticks; ++k) {
            const bool checked = step != s_.steps.end() && step->tick == k;
            if (checked) {
                for (const scenario_value& v : step->set) set(*a, k, v);
                for (const std::string& e : step->events) {
                    try {
                        a->post_event(e);
                    } catch (const std::exception& refused) {  // the agent's own names
                        fail(k, step->where,
                             std::string("cannot post '") + e + "': " + refused.what());
                    }
                }
            }
            watch.start_tick();
            status root = status::idle;
            try {
                if (hooks.before_tick) hooks.before_tick(*a, s_.dt);
                root = a->tick(s_.dt);
            } catch (const std::exception& e) {
                fail(k, checked ? step->where : s_.where,
                     std::string("the tick threw: ") + e.what(), watch.trace());
                result_.ticks = k;
                return;
            }
            result_.ticks = k;
            if (&a->tree() != t.get()) {
                // The steps name nodes and keys of the tree loaded: checked on another tree,
                // they would name other nodes, or none.
                fail(k, checked ? step->where : s_.where,
                     "the agent no longer runs the scenario's tree (a hook moved it to another "
                     "tree); a scenario checks the tree it loaded",
                     watch.trace());
                return;
            }
            if (checked) check(*a, *step, root, watch);
            if (checked) ++step;
        }
        for (const scenario_node& n : s_.ran) {
            const std::vector<tree::index> nodes = named(*t, n.ref);
            if (unknown(*t, n, nodes)) continue;
            if (std::none_of(nodes.begin(), nodes.end(),
                             [&](tree::index i) { return watch.ever(i); }))
                fail(0, n.where,
                     "'" + n.ref + "' never ran in " + std::to_string(s_.ticks) + " ticks");
        }
        for (const scenario_node& n : s_.never_ran) {
            const std::vector<tree::index> nodes = named(*t, n.ref);
            if (unknown(*t, n, nodes)) continue;
            for (tree::index i : nodes) {
                if (!watch.ever(i)) continue;
                fail(0, n.where,
                     "'" + n.ref + "' ran (node #" + std::to_string(t->record_id(i)) +
                         "), though it must never run");
                break;
            }
        }
    }

private:
    bool unknown(const tree& t, const scenario_node& n, const std::vector<tree::index>& nodes) {
        if (!nodes.empty()) return false;
        std::string hint;
        if (n.ref[0] == '#') hint = " (ids run from #" + std::to_string(t.record_id(0)) + ")";
        fail(0, n.where,
             "no node of the tree is '" + n.ref +
                 "': name one by \"#ID\", its name "
                 "or its type" +
                 hint);
        return true;
    }

    void set(agent& a, std::uint64_t tick, const scenario_value& v) {
        blackboard board = a.blackboard();
        const std::uint32_t slot = board.find(v.key);
        if (slot >= board.keys().size()) {
            return fail(tick, v.where, "the tree has no blackboard key '" + v.key + "'");
        }
        if (std::string why = write_value(board, slot, v.value); !why.empty())
            fail(tick, v.where, why);
    }

    void check(agent& a, const scenario_step& step, status root, tick_watch& watch) {
        const std::uint64_t k = step.tick;
        std::string trace;
        auto trace_once = [&] {
            if (trace.empty()) trace = watch.trace();
            return trace;
        };
        if (step.expect_status && *step.expect_status != root) {
            fail(k, step.where,
                 "expected status " + std::string(to_string(*step.expect_status)) + ", got " +
                     std::string(to_string(root)),
                 trace_once());
        }
        const blackboard board = a.blackboard();
        for (const scenario_value& v : step.expect_blackboard) {
            const std::uint32_t slot = board.find(v.key);
            if (slot >= board.keys().size()) {
                fail(k, v.where, "the tree has no blackboard key '" + v.key + "'");
                continue;
            }
            const std::optional<dynamic_value> got = read_value(board, slot);
            if (!same(got, v.value)) {
                fail(k, v.where,
                     "expected " + v.key + " = " + v.value.to_json() + ", got " + shown(got),
                     trace_once());
            }
        }
        const tree& t = a.tree();
        for (const scenario_node& n : step.ran) {
            const std::vector<tree::index> nodes = named(t, n.ref);
            if (unknown(t, n, nodes)) continue;
            if (std::none_of(nodes.begin(), nodes.end(),
                             [&](tree::index i) { return watch.visited(i); }))
                fail(k, n.where, "expected '" + n.ref + "' to run, and it did not", trace_once());
        }
        for (const scenario_node& n : step.not_ran) {
            const std::vector<tree::index> nodes = named(t, n.ref);
            if (unknown(t, n, nodes)) continue;
            for (tree::index i : nodes) {
                if (!watch.visited(i)) continue;
                fail(k, n.where,
                     "expected '" + n.ref + "' not to run, and node #" +
                         std::to_string(t.record_id(i)) + " ran",
                     trace_once());
                break;
            }
        }
    }

    const scenario& s_;
    scenario_result& result_;
};

std::string location_text(const std::string& path, source_location where) {
    std::string text = path;
    if (where.line != 0) text += ":" + std::to_string(where.line);
    if (where.line != 0 && where.column != 0) text += ":" + std::to_string(where.column);
    return text;
}

}  // namespace

std::string scenario_result::report() const {
    std::string text;
    for (const scenario_failure& f : failures) {
        text += location_text(path, f.where) + ": ";
        if (f.tick != 0) text += "tick " + std::to_string(f.tick) + ": ";
        text += f.message + "\n";
        if (!f.trace.empty()) {
            text += "  the tick, as `canopy run --trace` shows it:\n";
            std::istringstream lines(f.trace);
            for (std::string line; std::getline(lines, line);) text += "    " + line + "\n";
        }
    }
    return text;
}

scenario_result run_scenario(const scenario& s, const registry& reg, const scenario_hooks& hooks) {
    scenario_result result;
    result.name = s.name;
    result.path = s.path;
    const auto start = std::chrono::steady_clock::now();
    scenario_run(s, result).run(reg, hooks);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

std::string junit_xml(const std::vector<scenario_result>& results, const std::string& suite) {
    std::size_t failed = 0;
    double seconds = 0;
    for (const scenario_result& r : results) {
        failed += r.passed() ? 0 : 1;
        seconds += r.seconds;
    }
    auto escaped = [](std::string_view text) {
        std::string out;
        for (const char c : text) {
            switch (c) {
                case '&': out += "&amp;"; break;
                case '<': out += "&lt;"; break;
                case '>': out += "&gt;"; break;
                case '"': out += "&quot;"; break;
                default:
                    // XML 1.0 has no other control characters than tab and the line ends.
                    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                        out += ' ';
                    else
                        out += c;
            }
        }
        return out;
    };
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\""
        << escaped(suite) << "\" tests=\"" << results.size() << "\" failures=\"" << failed
        << R"(" errors="0" time=")" << seconds << "\">\n";
    for (const scenario_result& r : results) {
        out << "    <testcase classname=\"" << escaped(r.path) << "\" name=\"" << escaped(r.name)
            << "\" time=\"" << r.seconds << "\"";
        if (r.passed()) {
            out << "/>\n";
            continue;
        }
        const scenario_failure& first = r.failures.front();
        out << ">\n      <failure message=\"" << escaped(first.message) << "\">"
            << escaped(r.report()) << "</failure>\n    </testcase>\n";
    }
    out << "  </testsuite>\n</testsuites>\n";
    return out.str();
}

}  // namespace canopy
