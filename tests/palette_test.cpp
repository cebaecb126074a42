// Editors' palettes (canopy/views/palette.hpp): each read back with Canopy's own reader gives the
// registry's types, and trees drawn with them (tests/data/editing/) load strictly.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>

#include "canopy/canopy.hpp"
#include "test_support.hpp"

namespace canopy {
namespace {

const std::filesystem::path editing =
    std::filesystem::path(CANOPY_SOURCE_DIR) / "tests/data/editing";

std::map<std::string, node_model> by_name(const std::vector<node_model>& models) {
    std::map<std::string, node_model> named;
    for (const node_model& model : models) {
        CAPTURE(model.name);
        CHECK(named.emplace(model.name, model).second);  // each type once
    }
    return named;
}

const port_model* port_of(const node_model& model, std::string_view name) {
    for (const port_model& port : model.ports) {
        if (port.name == name) return &port;
    }
    return nullptr;
}

// Every node of a file's trees has a type that the palette models, and only the model's
// ports as parameters: the file was drawn with that palette. `drawn_elsewhere` are the types
// the editor models itself (Groot2's BehaviorTree.CPP built-ins).
void check_drawn_with(const tree_document& drawn, const std::map<std::string, node_model>& palette,
                      const std::set<std::string>& drawn_elsewhere) {
    for (const record_set& records : drawn.trees) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            const std::string type(records.type_name(i));
            CAPTURE(type);
            if (type == "SubTree" || drawn_elsewhere.count(type) != 0) continue;
            auto model = palette.find(type);
            REQUIRE(model != palette.end());
            for (auto p = records.params_begin(i); p != records.params_end(i); ++p) {
                CAPTURE(p->name);
                CHECK(port_of(model->second, p->name) != nullptr);
            }
        }
    }
}

// The registry's type a model names, after checking that it has one of the model's shape.
const node_type& type_of_model(const registry& reg, const std::string& name,
                               const node_model& model) {
    CAPTURE(name);
    const node_type* type = reg.find(name);
    REQUIRE(type != nullptr);
    REQUIRE(model.shape.has_value());
    CHECK(*model.shape == type->arity);
    return *type;
}

read_result read_file_as(const std::filesystem::path& path, file_format format) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return read_records(text, format, path.string());
}

}  // namespace

TEST_SUITE("palette") {
    TEST_CASE("the Groot2 palette reads back as one model per type BehaviorTree.CPP lacks") {
        const registry reg = testing::test_registry();
        const std::string text = write_palette(reg, file_format::btcpp_xml);
        CHECK(text.find(R"(<root BTCPP_format="4">)") != std::string::npos);
        const read_result back = read_records(text, file_format::btcpp_xml, "palette.xml");
        CHECK(back.complete);
        CHECK(back.diagnostics.empty());
        CHECK(back.document.trees.empty());
        const auto models = by_name(back.document.models);

        // Canopy's own types and the demo leaves are in it, each a type of the registry
        // with its arity.
        for (const char* name :
             {"CoinNearby", "PickUpCoin", "AggressiveAttack", "ChangeColour", "RandomSelector",
              "PipelineSequence", "RoundRobin", "Switch", "Cooldown", "RateController",
              "RepeatUntilSuccess", "CheckBlackboard", "WaitTicks", "Log", "Counted", "Pause"}) {
            CAPTURE(name);
            CHECK(models.count(name) == 1);
        }
        for (const auto& [name, model] : models) {
            const std::string model_name =
                name;  // a copy: doctest's lambda cannot capture a binding
            CAPTURE(model_name);
            const node_type& type = type_of_model(reg, name, model);
            CHECK(model.ports.size() == type.params.size());
            CHECK_FALSE(model.description.empty());
        }
        // BehaviorTree.CPP's built-ins are Groot2's own models, which the reader maps (Wait
        // is drawn as Sleep with msec), or which Canopy takes as they are (Precondition).
        for (const char* name :
             {"Sequence",      "Selector", "Fallback",      "Wait",         "Sleep",
              "Not",           "Inverter", "Repeat",        "Retry",        "RetryUntilSuccessful",
              "Timeout",       "Delay",    "Parallel",      "Precondition", "RunOnce",
              "SetBlackboard", "Switch2",  "AlwaysSuccess", "ForceFailure", "IfThenElse"}) {
            CAPTURE(name);
            CHECK(models.count(name) == 0);
        }

        // Kinds: a leaf registered as a condition is a <Condition>, other leaves <Action>s.
        CHECK(models.at("CoinNearby").condition);
        CHECK(models.at("CheckBlackboard").condition);
        CHECK_FALSE(models.at("PickUpCoin").condition);
        CHECK_FALSE(models.at("WaitTicks").condition);
        CHECK(*models.at("RandomSelector").shape == arity::composite);
        CHECK(*models.at("Cooldown").shape == arity::decorator);

        // Ports: names, directions, C++ types and defaults as the reader takes them.
        const port_model* seconds = port_of(models.at("Cooldown"), "seconds");
        REQUIRE(seconds != nullptr);
        CHECK(seconds->dir == port_model::direction::input);
        CHECK(seconds->type == "double");
        CHECK_FALSE(seconds->default_value.has_value());
        CHECK(seconds->description.find("required") != std::string::npos);
        const node_model& pause = models.at("Pause");
        REQUIRE(port_of(pause, "loud") != nullptr);
        CHECK(port_of(pause, "loud")->type == "bool");
        CHECK(port_of(pause, "loud")->default_value == std::optional<std::string>("false"));
        CHECK(port_of(pause, "seconds")->default_value == std::optional<std::string>("1"));
        CHECK(port_of(pause, "label")->default_value == std::optional<std::string>("wait"));
        CHECK(port_of(models.at("AggressiveAttack"), "strikes")->type == "int");
        CHECK(port_of(models.at("RoundRobin"), "wrap_around")->default_value ==
              std::optional<std::string>("false"));
    }

    TEST_CASE("a BehaviorTree.CPP tree drawn with the Groot2 palette loads strictly") {
        const registry reg = testing::test_registry();
        const auto palette = by_name(
            read_records(write_palette(reg, file_format::btcpp_xml), file_format::btcpp_xml, "p")
                .document.models);
        const read_result drawn = read_file_as(editing / "groot_pet.xml", file_format::btcpp_xml);
        REQUIRE(drawn.diagnostics.empty());
        // As the reader names them: Groot2's Sleep and RetryUntilSuccessful are Wait and
        // RetryUntilSuccessful (Retry's alias), Fallback and Sequence its own.
        check_drawn_with(drawn.document, palette,
                         {"Fallback", "Sequence", "Wait", "RetryUntilSuccessful"});

        const load_result loaded = try_load_file(editing / "groot_pet.xml", reg);
        for (const diagnostic& d : loaded.diagnostics) MESSAGE(d);
        REQUIRE(loaded.tree != nullptr);
        CHECK(loaded.tree->size() == 15);
        const std::string printed = to_canopy_text(*loaded.tree);
        CHECK(printed.find("    Cooldown #4\n      PickUpCoin #5\n") != std::string::npos);
        CHECK(printed.find("    Wait #13\n") != std::string::npos);
    }

    TEST_CASE("Groot2's script nodes load as Canopy's, which the palette leaves to Groot2") {
        const registry reg = testing::test_registry();
        const load_result loaded = try_load_text(
            R"(<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
<Script code="health := 10"/>
<Precondition if="health &lt; 30" else="FAILURE"><ScriptCondition code="health > 3"/></Precondition>
</Sequence></BehaviorTree></root>)",
            file_format::btcpp_xml, reg, "drawn.xml");
        for (const diagnostic& d : loaded.diagnostics) MESSAGE(d);
        REQUIRE(loaded.tree != nullptr);
        CHECK(loaded.tree->type_name(2) == "Precondition");
        const std::string palette = write_palette(reg, file_format::btcpp_xml);
        for (const char* name : {"Precondition", "Script", "ScriptCondition"}) {
            CAPTURE(name);
            CHECK(palette.find(std::string("ID=\"") + name + "\"") == std::string::npos);
        }
    }

    TEST_CASE("the behavior3editor node config reads back as one model per registry type") {
        const registry reg = testing::test_registry();
        const std::string text = write_palette(reg, file_format::behavior3);
        // behavior3's names, and the fields behavior3editor reads.
        for (const char* expected :
             {R"("name": "Invert")", R"("name": "JustSuccess")", R"("name": "canopy.Parallel")",
              R"("name": "RetryUntilSuccess")", R"("type": "Condition")", R"("children": 0)",
              R"("children": -1)", R"("oneof": "time")", R"("input": [)", R"("type": "float?")"}) {
            CAPTURE(expected);
            CHECK(text.find(expected) != std::string::npos);
        }
        const read_result back =
            read_records(text, file_format::behavior3, "node-config.b3-setting");
        CHECK(back.complete);
        CHECK(back.diagnostics.empty());
        CHECK(back.document.trees.empty());
        const auto models = by_name(back.document.models);
        std::set<std::string> covered;
        for (const auto& [name, model] : models) {
            const std::string model_name =
                name;  // a copy: doctest's lambda cannot capture a binding
            CAPTURE(model_name);
            const node_type& type = type_of_model(reg, name, model);
            CHECK(covered.insert(type.name).second);
            // An output of a type without a table row is an output slot, which the reader
            // names by its position, as a tree's node wiring it.
            std::size_t outputs = 0;
            for (const param_spec& spec : type.params) {
                CAPTURE(spec.name);
                const std::string slot = "output" + std::to_string(++outputs);
                if (!spec.output) --outputs;
                CHECK((port_of(model, spec.name) != nullptr ||
                       (spec.output && port_of(model, slot) != nullptr)));
            }
        }
        CHECK(covered.size() == reg.types().size());
        CHECK(models.at("CoinNearby").condition);
        CHECK_FALSE(models.at("PickUpCoin").condition);
        // Wait's time (argument or input) is Canopy's seconds.
        REQUIRE(port_of(models.at("Wait"), "seconds") != nullptr);
        CHECK(port_of(models.at("Wait"), "time") == nullptr);
        CHECK(port_of(models.at("Pause"), "loud")->default_value ==
              std::optional<std::string>("false"));
    }

    TEST_CASE("a nested behavior3 tree drawn with the node config loads strictly, subtree too") {
        const registry reg = testing::test_registry();
        const auto palette = by_name(read_records(write_palette(reg, file_format::behavior3),
                                                  file_format::behavior3, "node-config.b3-setting")
                                         .document.models);
        for (const char* file : {"b3/trees/hornet.json", "b3/trees/recover.json"}) {
            CAPTURE(file);
            const read_result drawn = read_file_as(editing / file, file_format::behavior3);
            REQUIRE(drawn.diagnostics.empty());
            check_drawn_with(drawn.document, palette, {});
        }
        const load_result loaded = try_load_file(editing / "b3/trees/hornet.json", reg);
        for (const diagnostic& d : loaded.diagnostics) MESSAGE(d);
        REQUIRE(loaded.tree != nullptr);
        const std::string printed = to_canopy_text(*loaded.tree);
        CHECK(printed.find("  Parallel #6\n") != std::string::npos);
        CHECK(printed.find("    Not #3\n      AlwaysFailure #4\n") != std::string::npos);
        CHECK(printed.find("  SubTree #16\n    Sequence #") != std::string::npos);
        CHECK(printed.find("Log #") != std::string::npos);
    }

    TEST_CASE("the flat formats have no palette") {
        try {
            (void)write_palette(testing::test_registry(), file_format::flat_json);
            FAIL("a palette in flat JSON was written");
        } catch (const canopy::error& e) {
            CHECK(e.code() == error_code::unsupported);
            CHECK(std::string(e.what()).find("flat JSON") != std::string::npos);
        }
    }

    TEST_CASE("a flat JSON file that names its schema in $schema loads") {
        const load_result loaded =
            try_load_file(editing / "schema_named.json", testing::test_registry());
        for (const diagnostic& d : loaded.diagnostics) MESSAGE(d);
        REQUIRE(loaded.tree != nullptr);
        CHECK(loaded.tree->size() == 3);
    }
}

}  // namespace canopy
