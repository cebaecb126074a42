// A program that only ticks: it makes its tree in code, as records, and links canopy::runtime
// alone (no parser, no viewer). Its size beside the file-loading consumer's is in the README.
#include <canopy/builder/build.hpp>
#include <canopy/nodes/builtin_nodes.hpp>
#include <canopy/records/records.hpp>
#include <canopy/run/agent.hpp>
#include <canopy/run/registry.hpp>
#include <iostream>

int main() {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    reg.add_condition("Hungry", [](canopy::context& ctx) { return ctx.random() % 2 == 0; });
    reg.add_action("Eat", [](canopy::context&) { return canopy::status::success; });
    reg.add_action("Rest", [](canopy::context&) { return canopy::status::running; });

    canopy::record_set records;  // id, parent id, type, describe
    records.add(1, 0, "Selector", "eat when hungry, else rest");
    records.add(2, 1, "Sequence");
    records.add(3, 2, "Hungry");
    records.add(4, 2, "Eat");
    records.add(5, 1, "Rest");
    canopy::load_result built = canopy::build_tree(std::move(records), reg, "<code>");
    if (!built) {
        for (const canopy::diagnostic& d : built.diagnostics) std::cerr << d << '\n';
        return 1;
    }
    int ate = 0;
    int rested = 0;
    for (int seed = 0; seed < 100; ++seed) {
        canopy::agent animal(built.tree, nullptr, seed);
        canopy::status result = animal.tick(0.1);
        ate += result == canopy::status::success;
        rested += result == canopy::status::running;
    }
    std::cout << "built " << built.tree->size() << " nodes; " << ate << " ate, " << rested
              << " rested\n";
    return ate + rested == 100 && ate > 0 && rested > 0 ? 0 : 1;
}
