#pragma once
// The trees the snapshot harness restores into, shared with the seed writer (seeds.cpp): a
// BehaviorTree.CPP tree with scripts, timers and memories, a behavior3 tree with arrays and
// waits, a flat tree with keys of every type; each with snapshots of an agent at four ticks.

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canopy/canopy.hpp"

namespace canopy_fuzz {

inline constexpr std::string_view btcpp_xml = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Parallel success_count="2" failure_count="2">
      <Repeat num_cycles="5">
        <SequenceWithMemory>
          <Script code="n := 0; name := 'a'; flag := false"/>
          <Sleep msec="250"/>
          <Script code="n += 1; name = name + 'b'"/>
          <RetryUntilSuccessful num_attempts="3"><ScriptCondition code="n >= 3"/></RetryUntilSuccessful>
          <RunOnce then_skip="true"><Script code="once := 1"/></RunOnce>
        </SequenceWithMemory>
      </Repeat>
      <Timeout msec="4000"><Sleep msec="9000"/></Timeout>
    </Parallel>
  </BehaviorTree>
</root>)";

inline constexpr std::string_view behavior3_json = R"({"name": "t", "root": {"id": 1,
  "name": "Sequence", "children": [
    {"id": 2, "name": "Calculate", "args": {"value": "a + 1"}, "output": ["a"]},
    {"id": 3, "name": "Wait", "args": {"time": 0.3}},
    {"id": 4, "name": "Push", "input": ["list", "a"]},
    {"id": 5, "name": "Filter", "input": ["list"], "output": ["x", "picked"], "children": [
      {"id": 6, "name": "Check", "args": {"value": "x % 2 == 0"}}]}]},
  "vars": [{"name": "a", "desc": ""}, {"name": "list", "desc": ""},
           {"name": "x", "desc": ""}, {"name": "picked", "desc": ""}]})";

inline constexpr std::string_view flat_json = R"({"name": "keys",
  "blackboard": {"i": "integer", "r": "number", "b": "boolean", "s": "string",
                 "v": "std::vector<double>"},
  "nodes": [{"id": 1, "type": "Selector"}, {"id": 2, "parentId": 1, "type": "Sequence"},
            {"id": 3, "parentId": 2, "type": "Wait", "params": {"seconds": 0.5}},
            {"id": 4, "parentId": 2, "type": "Repeat", "params": {"count": 3}},
            {"id": 5, "parentId": 4, "type": "AlwaysSuccess"},
            {"id": 6, "parentId": 1, "type": "AlwaysRunning"}]})";

/// A tree, and a snapshot of one of its agents after some ticks (the seeds are these).
struct fixture {
    std::shared_ptr<const canopy::tree> tree;
    std::string snapshot;
};

inline const std::vector<fixture>& fixtures() {
    static const std::vector<fixture> made = [] {
        static canopy::registry reg;
        canopy::register_builtin_nodes(reg);
        canopy::register_behavior3_nodes(reg);
        reg.add_builtin_types();
        std::vector<fixture> all;
        const std::pair<std::string_view, canopy::file_format> files[] = {
            {btcpp_xml, canopy::file_format::btcpp_xml},
            {behavior3_json, canopy::file_format::behavior3},
            {flat_json, canopy::file_format::flat_json}};
        for (const auto& [text, format] : files) {
            canopy::load_result loaded = canopy::try_load_text(text, format, reg);
            if (!loaded)
                throw std::runtime_error("a fixed tree does not load: " +
                                         canopy::to_string(loaded.diagnostics[0]));
            canopy::agent a(loaded.tree, {}, 1);
            for (int k = 0; k < 4; ++k) {
                all.push_back({loaded.tree, a.save()});
                a.tick(0.15);
            }
        }
        return all;
    }();
    return made;
}

}  // namespace canopy_fuzz
