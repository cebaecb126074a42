// BehaviorTree.CPP's substitution rules (docs/testing.md): the input is a rules file. It is
// read; rules it accepts are applied to a fixed tree with subtrees, named and unnamed nodes,
// a decorator and conditions, which is then ticked. Promises checked: nothing crashes, leaks,
// hangs or throws but canopy::error; every problem is located in the rules file or the tree;
// a tree that loads ticks, and a tick throws nothing but canopy::error of code `script` (a
// status script that gives no status, a script that fails as it runs).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "canopy/canopy.hpp"

namespace {

[[noreturn]] void broken(const std::string& promise) {
    std::fprintf(stderr, "substitution fuzzer: %s\n", promise.c_str());
    std::abort();
}

constexpr std::string_view tree_xml = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="a := 1; s := 'x'"/>
      <Inverter name="guard"><AlwaysFailure/></Inverter>
      <Fallback>
        <AlwaysFailure name="shoot" _onFailure="a += 1"/>
        <SubTree ID="Sub" name="reload"/>
        <SubTree ID="Sub"/>
      </Fallback>
      <Repeat num_cycles="2"><ScriptCondition code="a &gt; 0"/></Repeat>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <Sequence><AlwaysSuccess/><Script code="b := 2"/></Sequence>
  </BehaviorTree>
</root>)";

const canopy::registry& builtins() {
    static const canopy::registry reg = [] {
        canopy::registry made;
        canopy::register_builtin_nodes(made);
        canopy::register_behavior3_nodes(made);
        return made;
    }();
    return reg;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    canopy::substitution_read_result read = canopy::read_substitution_rules(text, "rules.json");
    for (const canopy::diagnostic& d : read.diagnostics) {
        if (d.path != "rules.json" || d.where.line == 0)
            broken("an unlocated problem: " + d.message);
    }
    if (!read) return 0;
    canopy::load_options options;
    options.substitutions =
        std::make_shared<const canopy::substitution_rules>(std::move(read.rules));
    const canopy::load_result loaded = canopy::try_load_text(
        tree_xml, canopy::file_format::btcpp_xml, builtins(), "main.xml", options);
    for (const canopy::diagnostic& d : loaded.diagnostics) {
        if (d.message.empty() || (d.path != "main.xml" && d.path != "rules.json"))
            broken("a problem without a file or a message");
    }
    if (!loaded) return 0;
    canopy::agent agent(loaded.tree);
    for (int tick = 0; tick < 6; ++tick) {
        try {
            agent.tick(0.1);
        } catch (const canopy::error& e) {
            if (e.code() != canopy::error_code::script)
                broken(std::string("a tick threw ") + e.what());
            agent.reset();
        }
    }
    return 0;
}
