// Runs a behavior3 tree for a number of ticks and prints, one line per tick, the root's status
// (s, f, r) and the values of the variables named on the command line: the Canopy side of
// scripts/behavior3_differential.py, whose other side runs the same tree in behavior3-ts.
//
//   canopy_behavior3_runner TREE.json TICKS DT [VAR...]
//
// The tree may use `Scripted`, a leaf whose argument `script` ("sfr", say) gives its status
// on each of its ticks, round and round: the same leaf as the behavior3-ts runner's.

#include <canopy/canopy.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Counts the leaf's own ticks, so that both runtimes see the same sequence however often
// their parents tick it within one tree tick.
struct scripted_state {
    std::uint64_t ticks = 0;
};

class scripted_leaf : public canopy::stateful_node<scripted_state> {
public:
    explicit scripted_leaf(const canopy::param_list& params)
        : script_(params.get<std::string>("script")) {
        if (script_.empty() || script_.find_first_not_of("sfr") != std::string::npos) {
            throw std::invalid_argument("script must be a non-empty string of s, f and r");
        }
    }
    static std::vector<canopy::param_spec> parameters() {
        return {canopy::param_spec::required("script", canopy::param_type::string)};
    }
    canopy::status tick(canopy::context& ctx) const override {
        std::uint64_t& ticks = state(ctx).ticks;
        const char step = script_[ticks % script_.size()];
        ++ticks;
        if (step == 's') return canopy::status::success;
        return step == 'f' ? canopy::status::failure : canopy::status::running;
    }

private:
    std::string script_;
};

bool is_json(const canopy::blackboard& board, std::uint32_t slot) {
    const canopy::blackboard_key& key = board.keys()[slot];
    return key.type == canopy::param_type::custom && key.custom->is<canopy::dynamic_value>();
}

void start_at_zero(canopy::blackboard& board, std::uint32_t slot) {
    switch (board.keys()[slot].type) {
        case canopy::param_type::integer: board.set(slot, std::int64_t{0}); break;
        case canopy::param_type::number: board.set(slot, 0.0); break;
        case canopy::param_type::boolean: board.set(slot, false); break;
        case canopy::param_type::string: board.set(slot, std::string_view("0")); break;
        default:
            if (is_json(board, slot)) board.set(slot, canopy::dynamic_value(0.0));
            break;
    }
}

// JavaScript's String() of a number that is not finite (JSON has no text for it).
std::string javascript_text(double x) {
    if (std::isnan(x)) return "NaN";
    return x > 0 ? "Infinity" : "-Infinity";
}

// A variable's value as behavior3-ts's runner prints it: a boolean as 1 or 0, a string
// without quotes, undefined or null as 0, an array or object as compact JSON.
std::string shown(const canopy::blackboard& board, std::uint32_t slot) {
    if (is_json(board, slot) && board.is_set(slot)) {
        const auto& value = board.get_ref<canopy::dynamic_value>(slot);
        if (value.type() == canopy::dynamic_value::kind::boolean)
            return value.boolean() ? "1" : "0";
        if (value.is_string()) return value.string();
        if (value.is_number() && !std::isfinite(value.number()))
            return javascript_text(value.number());
    }
    if (board.keys()[slot].type == canopy::param_type::number && board.is_set(slot) &&
        !std::isfinite(board.get<double>(slot)))
        return javascript_text(board.get<double>(slot));
    if (board.keys()[slot].type == canopy::param_type::boolean && board.is_set(slot))
        return board.get<bool>(slot) ? "1" : "0";
    const std::string text = board.text(slot);
    return text == "null" ? "0" : text;
}

char status_letter(canopy::status s) {
    switch (s) {
        case canopy::status::success: return 's';
        case canopy::status::failure: return 'f';
        case canopy::status::running: return 'r';
        default: return '?';
    }
}

int run(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: canopy_behavior3_runner TREE.json TICKS DT [VAR...]\n";
        return 2;
    }
    const long ticks = std::strtol(argv[2], nullptr, 10);
    const double dt = std::strtod(argv[3], nullptr);
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    canopy::register_behavior3_nodes(reg);
    reg.add<scripted_leaf>("Scripted");
    canopy::load_result loaded = canopy::try_load_file(argv[1], reg);
    if (!loaded.tree) {
        for (const canopy::diagnostic& d : loaded.diagnostics)
            std::cerr << canopy::to_string(d) << '\n';
        return 1;
    }
    canopy::agent agent(loaded.tree);
    canopy::blackboard board = agent.blackboard();
    // behavior3-ts's runner starts every variable at 0: so does this one, each key at its
    // type's 0 (a key that holds nothing is undefined to an expression, which then interrupts
    // the tree). A variable no node of the tree uses has no key; it prints as 0. A json
    // variable that holds nothing (behavior3-ts's undefined) prints as 0, as that runner
    // prints undefined.
    std::vector<std::int64_t> slots;
    for (int i = 4; i < argc; ++i) {
        std::int64_t slot = -1;
        for (std::size_t k = 0; k < board.keys().size(); ++k) {
            if (board.keys()[k].name == argv[i]) slot = static_cast<std::int64_t>(k);
        }
        if (slot >= 0) start_at_zero(board, static_cast<std::uint32_t>(slot));
        slots.push_back(slot);
    }
    for (long t = 0; t < ticks; ++t) {
        const canopy::status result = agent.tick(dt);
        // behavior3-ts's runner says `i` for a tree an error interrupted.
        std::cout << (agent.interruption().empty() ? status_letter(result) : 'i');
        for (const std::int64_t slot : slots)
            std::cout << ' ' << (slot < 0 ? "0" : shown(board, static_cast<std::uint32_t>(slot)));
        std::cout << '\n';
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
}
