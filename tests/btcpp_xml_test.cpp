// BehaviorTree.CPP XML: the reader, the writer and the round trip between them.
#include <doctest/doctest.h>
#include <tinyxml2.h>

#include <canopy/formats/format.hpp>
#include <canopy/load/load.hpp>
#include <canopy/nodes/builtin_nodes.hpp>
#include <canopy/run/agent.hpp>
#include <canopy/run/port.hpp>
#include <canopy/run/registry.hpp>
#include <canopy/run/tree.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.hpp"

using namespace canopy;
using testing::corpus_folder;
using testing::only;
namespace fs = std::filesystem;

namespace {

read_result read(std::string_view text) {
    return read_records(text, file_format::btcpp_xml, "t.xml");
}

write_result write(const tree_document& document) {
    return info(file_format::btcpp_xml).write(document);
}

// A record's parameter, or null.
const record_set::raw_param* find_param(const record_set& records, std::size_t i,
                                        std::string_view name) {
    for (const record_set::raw_param* p = records.params_begin(i); p != records.params_end(i);
         ++p) {
        if (p->name == name) return p;
    }
    return nullptr;
}

std::string text_of(const record_set& records, std::size_t i, std::string_view name) {
    const record_set::raw_param* p = find_param(records, i, name);
    REQUIRE_MESSAGE(p != nullptr, "no parameter " << name);
    REQUIRE(std::holds_alternative<std::string>(p->value));
    CHECK(p->from_text);
    return std::get<std::string>(p->value);
}

std::string metadata_text(const record_set& records, std::size_t i) {
    std::string out;
    for (auto [note, end] = records.metadata(i); note != end; ++note)
        out += " " + note->name + "=" + note->value;
    return out;
}

std::string params_text(const record_set& records, std::size_t i) {
    std::ostringstream out;
    for (const record_set::raw_param* p = records.params_begin(i); p != records.params_end(i);
         ++p) {
        out << ' ' << p->name << '=';
        std::visit([&](const auto& v) { out << v; }, p->value);
        out << (p->from_text ? "" : "(typed)");
    }
    return out.str();
}

// Everything a document says, as text: trees, records, keys, main tree, includes.
std::string describe(const tree_document& document) {
    std::ostringstream out;
    out << "main=" << document.main_tree << '\n';
    for (const file_reference& include : document.includes)
        out << "include " << include.path << '\n';
    for (const record_set& records : document.trees) {
        out << "tree " << records.name() << '\n';
        for (const record_set::key_declaration& key : records.declared_keys()) {
            out << "  key " << key.name << ' ' << key.type;
            if (key.initial)
                std::visit([&](const auto& v) { out << " = " << v; }, key.initial->value);
            out << '\n';
        }
        for (std::size_t i = 0; i < records.size(); ++i) {
            out << "  #" << records.id(i) << " <" << records.parent_id(i) << ' '
                << records.type_name(i) << " \"" << records.describe(i) << '"'
                << params_text(records, i) << '\n';
        }
    }
    return out.str();
}

// Reads, writes and reads again: the same document, and writing is stable.
void check_round_trip(std::string_view text, bool expect_no_problems = true) {
    read_result first = read(text);
    for (const diagnostic& d : first.diagnostics) FAIL_CHECK(to_string(d));
    write_result written = write(first.document);
    INFO("written:\n" << written.text);
    if (expect_no_problems) {
        for (const diagnostic& d : written.problems) FAIL_CHECK(d.message);
    }
    read_result second = read(written.text);
    for (const diagnostic& d : second.diagnostics) FAIL_CHECK(to_string(d));
    CHECK(describe(second.document) == describe(first.document));
    for (const node_model& model : first.document.models) {
        CHECK(std::any_of(second.document.models.begin(), second.document.models.end(),
                          [&](const node_model& m) {
                              return m.name == model.name && m.shape == model.shape &&
                                     m.ports.size() == model.ports.size();
                          }));
    }
    CHECK(write(second.document).text == written.text);
}

// n nested Inverters around an AlwaysSuccess, under <root> and <BehaviorTree>.
std::string nested(std::size_t depth) {
    std::string text = "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"Deep\">\n";
    for (std::size_t i = 0; i < depth; ++i) text += "<Inverter>\n";
    text += "<AlwaysSuccess/>\n";
    for (std::size_t i = 0; i < depth; ++i) text += "</Inverter>\n";
    return text + "</BehaviorTree>\n</root>\n";
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

TEST_SUITE("BehaviorTree.CPP XML") {
    TEST_CASE("claims XML whose first element is <root>") {
        const format_info& row = info(file_format::btcpp_xml);
        CHECK(row.claims("<root BTCPP_format=\"4\"/>"));
        CHECK(row.claims("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- <tree> -->\n<root >"));
        CHECK_FALSE(row.claims("<tree name=\"x\"/>"));
        CHECK_FALSE(row.claims("<rooted/>"));
        CHECK_FALSE(row.claims("{\"root\": 1}"));
        CHECK(detect_format("a.xml", "<root><BehaviorTree/></root>") == file_format::btcpp_xml);
        CHECK(detect_format("a.btproj", "<root/>") == file_format::btcpp_xml);
    }

    TEST_CASE("reads compact and explicit nodes, names, parameters and lines") {
        read_result r = read(R"(<?xml version="1.0"?>
<root BTCPP_format = "4" main_tree_to_execute = "Main">
  <BehaviorTree ID="Main">
    <Sequence name="root &amp; all">
      <Action ID="Say" message="hi {there}" target="{goal}"/>
      <Condition ID="IsOpen"/>
      <Decorator ID="Twice"><Move speed="{@speed}"/></Decorator>
      <Control ID="Both"><A/><B/></Control>
    </Sequence>
  </BehaviorTree>
</root>)");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r.complete);
        CHECK(r.document.implicit_keys);
        CHECK(r.document.main_tree == "Main");
        CHECK(r.document.main_tree_where.line == 2);
        REQUIRE(r.document.trees.size() == 1);
        const record_set& t = r.document.trees[0];
        CHECK(t.name() == "Main");
        CHECK(describe(r.document) == R"(main=Main
tree Main
  #1 <0 Sequence "root & all"
  #2 <1 Say "" message=hi {there} target={goal}
  #3 <1 IsOpen ""
  #4 <1 Twice ""
  #5 <4 Move "" speed={@speed}
  #6 <1 Both ""
  #7 <6 A ""
  #8 <6 B ""
)");
        CHECK(t.where(0).line == 4);
        CHECK(t.where(1).line == 5);
        CHECK(t.where(4).line == 7);
        CHECK(t.where(7).line == 8);
        CHECK(find_param(t, 1, "message")->where.line == 5);
        CHECK(text_of(t, 1, "target") == "{goal}");
    }

    TEST_CASE("reads several trees, includes and a project file's models") {
        read_result r = read(R"(<root BTCPP_format="4" project_name="demo">
  <include path="sub/other.xml"/>
  <BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree>
  <BehaviorTree ID="B" _fullpath=""><AlwaysFailure/></BehaviorTree>
  <TreeNodesModel>
    <Action ID="Say" editable="true">
      <input_port name="message" type="std::string" default="hello">What to say</input_port>
      <output_port name="said" type="bool" description="whether it was said"/>
      <inout_port name="count" type="int"/>
      <bidirectional_port name="index" type="int"/>
    </Action>
    <Condition ID="IsOpen"/>
    <Decorator ID="Twice"><description>runs it twice</description></Decorator>
    <Control ID="Both"><MetadataFields><Metadata color="red"/></MetadataFields></Control>
  </TreeNodesModel>
</root>)");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        const tree_document& doc = r.document;
        CHECK(doc.main_tree.empty());
        REQUIRE(doc.trees.size() == 2);
        CHECK(doc.trees[0].name() == "A");
        CHECK(doc.trees[1].name() == "B");
        REQUIRE(doc.includes.size() == 1);
        CHECK(doc.includes[0].path == "sub/other.xml");
        CHECK(doc.includes[0].where.line == 2);
        REQUIRE(doc.models.size() == 4);
        const node_model& say = doc.models[0];
        CHECK(say.name == "Say");
        CHECK(say.shape == arity::leaf);
        CHECK(say.where.line == 6);
        REQUIRE(say.ports.size() == 4);
        CHECK(say.ports[0].name == "message");
        CHECK(say.ports[0].dir == port_model::direction::input);
        CHECK(say.ports[0].type == "std::string");
        CHECK(say.ports[0].default_value == std::optional<std::string>("hello"));
        CHECK(say.ports[0].description == "What to say");
        CHECK(say.ports[1].dir == port_model::direction::output);
        CHECK(say.ports[1].description == "whether it was said");
        CHECK_FALSE(say.ports[1].default_value);
        CHECK(say.ports[2].dir == port_model::direction::inout);
        CHECK(say.ports[3].dir == port_model::direction::inout);
        CHECK(doc.models[1].shape == arity::leaf);
        CHECK(doc.models[2].shape == arity::decorator);
        CHECK(doc.models[2].description == "runs it twice");
        CHECK(doc.models[3].shape == arity::composite);
    }

    TEST_CASE("a <SubTree> model declares its tree's keys") {
        read_result r = read(R"(<root BTCPP_format="4">
  <TreeNodesModel>
    <SubTree ID="Patrol">
      <input_port name="wait" type="double" default="2.5"/>
      <input_port name="laps" type="int"/>
      <output_port name="done" type="bool" default="false"/>
      <inout_port name="mode" type="std::string" default="calm"/>
      <input_port name="n" type="unsigned"/>
      <input_port name="f" type="float"/>
      <input_port name="pose" type="Pose2D" default="1;2;3"/>
      <input_port name="untyped" default="7"/>
    </SubTree>
    <SubTree ID="ElsewhereTree"><input_port name="x" type="int"/></SubTree>
  </TreeNodesModel>
  <BehaviorTree ID="Patrol"><Wait seconds="{wait}"/></BehaviorTree>
</root>)");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        CHECK(r.document.models.empty());  // tree ports, not node types
        CHECK(describe(r.document) == R"(main=
tree Patrol
  key wait number = 2.5
  key laps integer
  key done boolean = false
  key mode string = calm
  key n integer
  key f number
  #1 <0 Wait "" seconds={wait}
)");
        CHECK(r.document.trees[0].declared_keys()[0].where.line == 3);
        CHECK(r.document.trees[0].declared_keys()[0].initial->from_text);

        const read_result keyed = read(R"(<root BTCPP_format="4">
  <BehaviorTree ID="T"><A/></BehaviorTree>
  <TreeNodesModel>
    <SubTree ID="T"><input_port name="goal" type="int" default="{target}"/></SubTree>
  </TreeNodesModel>
</root>)");
        // A default naming a key is what a use that leaves the port out remaps it to.
        for (const diagnostic& d : keyed.diagnostics) FAIL_CHECK(to_string(d));
        const auto& defaults = keyed.document.trees[0].port_defaults();
        REQUIRE(defaults.size() == 1);
        CHECK(defaults[0].name == "goal");
        CHECK(std::get<std::string>(defaults[0].value) == "{target}");
        CHECK_FALSE(keyed.document.trees[0].declared_keys()[0].initial);
    }

    TEST_CASE("a script's text for a registered type's key is read as it runs, as there") {
        // BehaviorTree.CPP converts the text with the entry's convertFromString when the
        // script runs: a branch never run may hold text it cannot read.
        struct point {
            double x = 0;
        };
        registry reg;
        register_builtin_nodes(reg);
        int reads = 0;
        reg.add_type<point>(
            "Point",
            [&](std::string_view text) {
                ++reads;
                if (text == "bad") throw std::runtime_error("not a point");
                return point{1};
            },
            [](const point&) { return std::string("point"); });
        reg.add_action("UsePoint", [](context&) { return status::success; }, std::nullopt,
                       {param_spec::required("p", reg.find_type<point>())});
        const std::string text = R"(<root BTCPP_format="4"><BehaviorTree ID="T">
  <Sequence>
    <UsePoint p="{where}"/>
    <Script code="where = '1'"/>
    <Fallback><AlwaysSuccess/><Script code="where = 'bad'"/></Fallback>
    <Script code="where = 'bad'"/>
  </Sequence>
</BehaviorTree></root>)";
        const load_result loaded = try_load_text(text, file_format::btcpp_xml, reg, "p.xml");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        CHECK(reads == 0);
        agent a(loaded.tree);
        CHECK_THROWS_WITH_AS(a.tick(0), doctest::Contains("not a point"), error);
        CHECK(reads == 2);
    }

    TEST_CASE("a text port's key a script gives a number holds it, and the port reads its text") {
        // BehaviorTree.CPP's empty entry takes the first value written, whatever the port
        // declared; getInput<std::string> gives the number's text.
        registry reg;
        register_builtin_nodes(reg);
        std::string said;
        reg.add_action("Say",
                       [&](context& ctx) {
                           said =
                               std::string(input<std::string_view>(ctx.params(), "text").get(ctx));
                           return status::success;
                       },
                       std::nullopt, {param_spec::required("text", param_type::string)});
        const std::string text = R"(<root BTCPP_format="4"><BehaviorTree ID="T">
  <Sequence><Script code="msg := 2.5"/><Say text="{msg}"/></Sequence>
</BehaviorTree></root>)";
        const load_result loaded = try_load_text(text, file_format::btcpp_xml, reg, "s.xml");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0) == status::success);
        CHECK(said == "2.500000");
    }

    TEST_CASE("a key a tree's script gives a number and its subtree's text port reads converts") {
        // BehaviorTree.CPP's entry holds the number; the port reads its text.
        registry reg;
        register_builtin_nodes(reg);
        std::string said;
        reg.add_action("Say",
                       [&](context& ctx) {
                           said =
                               std::string(input<std::string_view>(ctx.params(), "text").get(ctx));
                           return status::success;
                       },
                       std::nullopt, {param_spec::required("text", param_type::string)});
        const std::string text = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence><Script code="n := 42"/><SubTree ID="Sub" _autoremap="true"/></Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub"><Say text="{n}"/></BehaviorTree>
</root>)";
        const load_result loaded = try_load_text(text, file_format::btcpp_xml, reg, "n.xml");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0) == status::success);
        CHECK(said == "42");
    }

    TEST_CASE("a SubTree that leaves a port out gets its model's default, a value or a key") {
        // As BehaviorTree.CPP fills ports in: `in` reads 42, `out` writes the user's `result`;
        // `state` is remapped by the SubTree itself, which the default does not override.
        const std::string text = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <TreeNodesModel>
    <SubTree ID="Sub">
      <input_port name="in" default="42"/>
      <output_port name="out" default="{result}"/>
      <output_port name="state" default="{unused}"/>
    </SubTree>
  </TreeNodesModel>
  <BehaviorTree ID="Sub">
    <Sequence>
      <ScriptCondition code="in == 42"/>
      <Script code="out := in + 1; state := 'done'"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Main">
    <Sequence>
      <SubTree ID="Sub" state="{mine}"/>
      <ScriptCondition code="result == 43 &amp;&amp; mine == 'done'"/>
    </Sequence>
  </BehaviorTree>
</root>)";
        registry reg;
        register_builtin_nodes(reg);
        const load_result loaded = try_load_text(text, file_format::btcpp_xml, reg, "sub.xml");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0) == status::success);
        CHECK(a.blackboard().find("unused") == blackboard::npos);
    }

    TEST_CASE("reads BehaviorTree.CPP 4 subtrees: ID, remaps, {=} and _autoremap") {
        read_result r = read(R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <SubTree ID="Sub" name="first" goal="{target}" speed="2.5" mode="{=}" _autoremap="true"/>
      <SubTree ID="Sub" _autoremap="0"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree>
</root>)");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        const record_set& t = r.document.trees[0];
        CHECK(t.type_name(1) == "SubTree");
        CHECK(t.describe(1) == "first");
        CHECK(params_text(t, 1) ==
              " tree=Sub goal={target} speed=2.5 mode={mode} _autoremap=1(typed)");
        CHECK(params_text(t, 2) == " tree=Sub _autoremap=0(typed)");
        // (An element that names a tree of the file, <Sub/>, is a subtree in a version 3 file
        // only: "refused as BehaviorTree.CPP 4.10 refuses" below.)

        const read_result bad = read(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<SubTree ID="S" _autoremap="maybe"/></BehaviorTree></root>)");
        const diagnostic& d = only(bad, diagnostic_code::wrong_param_type);
        CHECK(d.where.line == 2);
        CHECK(d.record_id == std::optional<std::int64_t>(1));
    }

    TEST_CASE("a ReactiveSequence of two AsyncSequences is refused, as BehaviorTree.CPP does") {
        const read_result two = read(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<ReactiveSequence>
  <AsyncSequence><AlwaysSuccess/></AsyncSequence>
  <AsyncSequence><AlwaysSuccess/></AsyncSequence>
</ReactiveSequence></BehaviorTree></root>)");
        const diagnostic& d = only(two, diagnostic_code::invalid_param);
        CHECK(d.where.line == 2);
        CHECK(d.message.find("more than one async child") != std::string::npos);
        const read_result one = read(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<ReactiveSequence>
  <AsyncSequence><AlwaysSuccess/></AsyncSequence>
  <Sequence><AlwaysSuccess/></Sequence>
</ReactiveSequence></BehaviorTree></root>)");
        CHECK(one.diagnostics.empty());
    }

    TEST_CASE(
        "reads BehaviorTree.CPP 3 subtrees: bare key names, __shared_blackboard, SubTreePlus") {
        for (const char* format : {"", " BTCPP_format=\"3\""}) {
            CAPTURE(format);
            read_result r = read(std::string("<root") + format + R"(>
  <BehaviorTree ID="Main">
    <Sequence>
      <SubTree ID="Sub" message="myMsg" other="{already}" __shared_blackboard="true"/>
      <SubTreePlus ID="Sub" message="{myMsg}" literal="hello" __autoremap="true"/>
    </Sequence>
  </BehaviorTree>
</root>)");
            for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
            const record_set& t = r.document.trees[0];
            CHECK(params_text(t, 1) ==
                  " tree=Sub message={myMsg} other={already} _autoremap=1(typed)");
            CHECK(t.type_name(2) == "SubTree");
            CHECK(params_text(t, 2) ==
                  " tree=Sub message={myMsg} literal=hello _autoremap=1(typed)");
        }
        // In a version 4 file a bare value is a literal, and __shared_blackboard means nothing.
        read_result v4 = read(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<SubTree ID="Sub" message="myMsg" __shared_blackboard="true"/></BehaviorTree></root>)");
        const diagnostic& ignored = only(v4, diagnostic_code::unsupported_feature);
        CHECK(ignored.where.line == 2);
        CHECK(ignored.severity == diagnostic_severity::warning);
        CHECK(params_text(v4.document.trees[0], 0) == " tree=Sub message=myMsg");
    }

    TEST_CASE("each BehaviorTree.CPP pre- and post-condition is kept as a parameter of its name") {
        for (const char* attribute : {"_skipIf", "_successIf", "_failureIf", "_while", "_onSuccess",
                                      "_onFailure", "_onHalted", "_post"}) {
            CAPTURE(attribute);
            const read_result r = read(std::string(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<Sequence>
  <Say )") + attribute + R"(="x &gt; 1"/>
</Sequence></BehaviorTree></root>)");
            for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
            const record_set& t = r.document.trees[0];
            REQUIRE(t.size() == 2);
            CHECK(params_text(t, 1) == std::string(" ") + attribute + "=x > 1");
            CHECK(t.params_begin(1)->where.line == 3);
        }
        const read_result unknown = read(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<Say _skipif="x" _custom="y"/></BehaviorTree></root>)");
        // A near miss of a reserved name is kept, as BehaviorTree.CPP keeps it, but said.
        REQUIRE(unknown.diagnostics.size() == 1);
        const diagnostic& near = unknown.diagnostics[0];
        CHECK(near.severity == diagnostic_severity::warning);
        CHECK(near.code == diagnostic_code::unknown_field);
        CHECK(near.where.line == 2);
        CHECK(near.message.find("did you mean '_skipIf'") != std::string::npos);
        CHECK(params_text(unknown.document.trees[0], 0).empty());
        CHECK(metadata_text(unknown.document.trees[0], 0) == " _skipif=x _custom=y");
    }

    TEST_CASE("editor attributes that start with '_' are the node's and the tree's metadata") {
        const std::string text = R"(<root BTCPP_format="4" main_tree_to_execute="Pick">
<BehaviorTree ID="Pick" _description="pick up a cube" _favorite="true">
  <Sequence _collapsed="false">
    <AlwaysSuccess name="hi" _collapsed="true" _description="greets"/>
    <SubTree ID="Place" _collapsed="true"/>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Place"><AlwaysFailure/></BehaviorTree>
</root>)";
        const read_result r = read(text);
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        const record_set& t = r.document.trees[0];
        REQUIRE(t.size() == 3);
        REQUIRE(t.tree_metadata().size() == 2);
        CHECK(t.tree_metadata()[0].name == "_description");
        CHECK(t.tree_metadata()[0].value == "pick up a cube");
        CHECK(t.tree_metadata()[1].name == "_favorite");
        CHECK(metadata_text(t, 0) == " _collapsed=false");
        CHECK(metadata_text(t, 1) == " _collapsed=true _description=greets");
        CHECK(t.describe(1) == "hi");
        CHECK(metadata_text(t, 2) == " _collapsed=true");
        CHECK(metadata_text(r.document.trees[1], 0).empty());

        // The writer gives them back, and they read the same again.
        const write_result written = write(r.document);
        for (const diagnostic& d : written.problems) FAIL_CHECK(to_string(d));
        CHECK(written.text.find(R"(<BehaviorTree ID="Pick" _description="pick up a cube" )"
                                R"(_favorite="true">)") != std::string::npos);
        CHECK(written.text.find(R"(_collapsed="true" _description="greets")") != std::string::npos);
        const read_result again = read(written.text);
        for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
        CHECK(metadata_text(again.document.trees[0], 1) == " _collapsed=true _description=greets");
        CHECK(again.document.trees[0].tree_metadata().size() == 2);

        // A tree that loads keeps them, subtrees put in place included.
        registry reg;
        register_builtin_nodes(reg);
        const load_result loaded = try_load_text(text, file_format::btcpp_xml, reg, "pick.xml");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        CHECK(loaded.tree->tree_metadata().size() == 2);
        auto notes = [&](tree::index i) {
            std::string out;
            for (auto [n, end] = loaded.tree->metadata(i); n != end; ++n)
                out += " " + n->name + "=" + n->value;
            return out;
        };
        CHECK(notes(1) == " _collapsed=true _description=greets");
        CHECK(notes(2) == " _collapsed=true");
        CHECK(notes(3).empty());
    }

    TEST_CASE("a warning leaves the load standing unless warnings are errors") {
        const std::string text = R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<Sequence><AlwaysSuccess _onsuccess="x := 1"/></Sequence></BehaviorTree></root>)";
        registry reg;
        register_builtin_nodes(reg);
        const load_result loaded = try_load_text(text, file_format::btcpp_xml, reg, "w.xml");
        REQUIRE(loaded);
        REQUIRE(loaded.diagnostics.size() == 1);
        CHECK(to_string(loaded.diagnostics[0]) ==
              "w.xml:2: warning: attribute '_onsuccess' on <AlwaysSuccess> is kept as editor "
              "metadata, but it looks like a misspelled '_onSuccess', which BehaviorTree.CPP "
              "reserves (did you mean '_onSuccess'?)");
        load_options strict;
        strict.warnings_as_errors = true;
        const load_result refused =
            try_load_text(text, file_format::btcpp_xml, reg, "w.xml", strict);
        CHECK_FALSE(refused);
        REQUIRE(refused.diagnostics.size() == 1);
        CHECK(refused.diagnostics[0].severity == diagnostic_severity::error);
    }

    TEST_CASE("_uid gives record ids when every node has a distinct one; _fullpath is metadata") {
        read_result r = read(R"(<root BTCPP_format="4"><BehaviorTree ID="M" _fullpath="">
<Sequence _uid="10" _fullpath="Sequence::10"><A _uid="-3"/><B _uid="7"/></Sequence>
</BehaviorTree></root>)");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        CHECK(describe(r.document) == R"(main=
tree M
  #10 <0 Sequence ""
  #-3 <10 A ""
  #7 <10 B ""
)");
        // One missing or repeated: ids by preorder.
        for (const char* uids : {R"(<A _uid="2"/><B/>)", R"(<A _uid="2"/><B _uid="2"/>)"}) {
            read_result partial = read(std::string(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
<Sequence _uid="1">)") + uids + "</Sequence></BehaviorTree></root>");
            CHECK(partial.diagnostics.empty());
            CHECK(partial.document.trees[0].id(2) == 3);
        }
    }

    TEST_CASE("maps BehaviorTree.CPP's names, ports and units to Canopy's") {
        struct row {
            const char* element;
            const char* expected;  // type and parameters
        };
        const row rows[] = {
            {R"(<Sleep msec="300"/>)", "Wait seconds=0.3(typed)"},
            {R"(<Sleep msec="0"/>)", "Wait seconds=0(typed)"},
            {R"(<Wait wait_duration="5.5" server_timeout="10"/>)",
             "Wait seconds=5.5(typed) server_timeout=10"},
            {R"(<Wait seconds="{nap}"/>)", "Wait seconds={nap}"},
            {R"(<Timeout seconds="0.0001"><A/></Timeout>)", "Timeout seconds=0.0001(typed)"},
            {R"(<Timeout msec="1500"><A/></Timeout>)", "Timeout seconds=1.5(typed)"},
            {R"(<Delay delay_msec="3000"><A/></Delay>)", "Delay seconds=3(typed)"},
            {R"(<Sleep msec="{nap}"/>)", "Wait seconds={nap}"},
            {R"(<Timeout msec="{=}"><A/></Timeout>)", "Timeout seconds={msec}"},
            {R"(<Repeat num_cycles="3"><A/></Repeat>)", "Repeat count=3"},
            {R"(<RetryUntilSuccessful num_attempts="{n}"><A/></RetryUntilSuccessful>)",
             "RetryUntilSuccessful attempts={n}"},
            // {=}, on any port: the key of the port's own name, then mapped as that.
            {R"(<RetryUntilSuccessful num_attempts="{=}"><A/></RetryUntilSuccessful>)",
             "RetryUntilSuccessful attempts={num_attempts}"},
            {R"(<Wait seconds="{=}"/>)", "Wait seconds={seconds}"},
            {R"(<Say message="{=}"/>)", "Say message={message}"},
            {R"(<Parallel success_count="2" failure_count="1"><A/><B/></Parallel>)",
             "Parallel success_threshold=2 failure_threshold=1"},
            {R"(<SetBlackboard output_key="mode" value="calm"/>)",
             "SetBlackboard key=mode value=calm"},
            {R"(<SequenceStar><A/></SequenceStar>)", "SequenceWithMemory"},
            // Registry aliases and names shared with Canopy pass as they are.
            {R"(<Fallback><A/></Fallback>)", "Fallback"},
            {R"(<ReactiveFallback><A/></ReactiveFallback>)", "ReactiveFallback"},
            {R"(<Inverter><A/></Inverter>)", "Inverter"},
            {R"(<KeepRunningUntilFailure><A/></KeepRunningUntilFailure>)",
             "KeepRunningUntilFailure"},
            {R"(<SequenceWithMemory><A/></SequenceWithMemory>)", "SequenceWithMemory"},
            {R"(<ParallelAll max_failures="2"><A/><B/></ParallelAll>)",
             "ParallelAll max_failures=2"},
            {R"(<Switch2 variable="{v}" case_1="a" case_2="b"><A/><B/><C/></Switch2>)",
             "Switch2 variable={v} case_1=a case_2=b"},
            {R"(<IfThenElse><A/><B/></IfThenElse>)", "IfThenElse"},
            {R"(<WhileDoElse><A/><B/></WhileDoElse>)", "WhileDoElse"},
            {R"(<RunOnce then_skip="false"><A/></RunOnce>)", "RunOnce then_skip=false"},
            {R"(<RateController hz="1.0"><A/></RateController>)", "RateController hz=1.0"},
            {R"(<RecoveryNode number_of_retries="6"><A/><B/></RecoveryNode>)",
             "RecoveryNode number_of_retries=6"},
            {R"(<PipelineSequence><A/></PipelineSequence>)", "PipelineSequence"},
            {R"(<RoundRobin wrap_around="true"><A/></RoundRobin>)", "RoundRobin wrap_around=true"},
            {R"(<Script code="x := 1"/>)", "Script code=x := 1"},
            {R"(<ScriptCondition code="x == 1"/>)", "ScriptCondition code=x == 1"},
            {R"(<Precondition if="A &gt; 1" else="FAILURE"><A/></Precondition>)",
             "Precondition if=A > 1 else=FAILURE"},
            // Built-ins Canopy lacks pass through, for the loader to report.
            {R"(<UnsetBlackboard key="x"/>)", "UnsetBlackboard key=x"},
            {R"(<LoopInt queue="1;2" value="{v}"><A/></LoopInt>)", "LoopInt queue=1;2 value={v}"},
            {R"(<WasEntryUpdated entry="x"/>)", "WasEntryUpdated entry=x"},
            {R"(<SkipUnlessUpdated entry="x"><A/></SkipUnlessUpdated>)",
             "SkipUnlessUpdated entry=x"},
            {R"(<WaitValueUpdate entry="x"><A/></WaitValueUpdate>)", "WaitValueUpdate entry=x"},
            {R"(<BlackboardCheckInt value_A="{x}" value_B="1" return_on_mismatch="FAILURE"><A/></BlackboardCheckInt>)",
             "BlackboardCheckInt value_A={x} value_B=1 return_on_mismatch=FAILURE"},
            {R"(<inverter><A/></inverter>)", "inverter"},
        };
        for (const row& r : rows) {
            CAPTURE(r.element);
            read_result result =
                read(std::string(R"(<root BTCPP_format="4"><BehaviorTree ID="M">)") + r.element +
                     "</BehaviorTree></root>");
            for (const diagnostic& d : result.diagnostics) FAIL_CHECK(to_string(d));
            const record_set& t = result.document.trees[0];
            CHECK(std::string(t.type_name(0)) + params_text(t, 0) == r.expected);
        }
    }

    TEST_CASE("a millisecond port bound to a key reads it in milliseconds, and writes back") {
        const std::string text = R"(<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M">
<Sequence><Sleep msec="{nap}"/><Delay delay_msec="{nap}"><A/></Delay></Sequence>
</BehaviorTree></root>)";
        const read_result result = read(text);
        for (const diagnostic& d : result.diagnostics) FAIL_CHECK(to_string(d));
        const record_set& t = result.document.trees[0];
        REQUIRE(t.params_end(1) - t.params_begin(1) == 1);
        CHECK(t.params_begin(1)->key_scale == 0.001);
        CHECK(t.params_begin(1)->name_as_written() == "msec");
        check_round_trip(text);
        // Canopy's flat formats have no milliseconds: converting there is refused.
        for (file_format to : {file_format::flat_json, file_format::flat_xml}) {
            const write_result flat = info(to).write(result.document);
            REQUIRE(flat.problems.size() == 2);
            CHECK(flat.problems[0].code == diagnostic_code::not_expressible);
            CHECK(flat.problems[0].message.find("'msec' reads blackboard key {nap} in "
                                                "milliseconds") != std::string::npos);
        }
    }

    TEST_CASE("refuses what a mapping cannot say, where it stands") {
        struct row {
            const char* element;
            diagnostic_code code;
            const char* words;
        };
        const row rows[] = {
            {R"(<Delay delay_msec="1.5"><A/></Delay>)", diagnostic_code::wrong_param_type,
             "whole number of milliseconds"},
            {R"(<Sleep msec="-1"/>)", diagnostic_code::wrong_param_type, "\"-1\""},
        };
        for (const row& r : rows) {
            CAPTURE(r.element);
            const read_result result = read(std::string(R"(<root BTCPP_format="4">
<BehaviorTree ID="M">
)") + r.element + "</BehaviorTree></root>");
            const diagnostic& d = only(result, r.code);
            CHECK(d.where.line == 3);
            CHECK(d.record_id == std::optional<std::int64_t>(1));
            CHECK(d.message.find(r.words) != std::string::npos);
        }
    }

    TEST_CASE("reports the file's defects, located") {
        struct row {
            const char* text;
            diagnostic_code code;
            std::uint32_t line;
            const char* words;
        };
        const row rows[] = {
            {"<root>\n<BehaviorTree ID=\"Guest\">\n</BehaviorTree>\n</root>",
             diagnostic_code::no_root, 2, "empty"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<A/>\n<B/>\n</BehaviorTree>\n</root>",
             diagnostic_code::multiple_roots, 4, "second root"},
            {"<root>\n<BehaviorTree ID=\"T\"><A/></BehaviorTree>\n<BehaviorTree>\n<A/>\n"
             "</BehaviorTree>\n</root>",
             diagnostic_code::missing_field, 3, "'ID'"},
            {"<root>\n<BehaviorTree ID=\"T\"><A/></BehaviorTree>\n<BehaviorTree ID=\"T\">\n<A/>\n"
             "</BehaviorTree>\n</root>",
             diagnostic_code::duplicate_field, 3, "line 2"},
            {"<root>\n<BehaviorTree ID=\"T\"><A/></BehaviorTree><BehaviorTree ID=\"T\"><B/>"
             "</BehaviorTree>\n</root>",
             diagnostic_code::duplicate_field, 2, "a second tree with ID 'T'"},
            // BehaviorTree.CPP runs a tree with an empty ID only as <root>'s one element.
            {"<root>\n<BehaviorTree ID=\"\">\n<A/>\n</BehaviorTree>\n<TreeNodesModel/>\n</root>",
             diagnostic_code::missing_field, 2, "empty ID"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<Action name=\"x\"/>\n</BehaviorTree>\n</root>",
             diagnostic_code::missing_field, 3, "<Action> has no 'ID'"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<SubTree/>\n</BehaviorTree>\n</root>",
             diagnostic_code::missing_field, 3, "naming its tree"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<SubTree ID=\"\"/>\n</BehaviorTree>\n</root>",
             diagnostic_code::missing_field, 3, "naming its tree (it is empty)"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<Action ID=\"\"/>\n</BehaviorTree>\n</root>",
             diagnostic_code::missing_field, 3, "naming its type (it is empty)"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<SubTree ID=\"S\">\n<A/>\n</SubTree>\n"
             "</BehaviorTree>\n</root>",
             diagnostic_code::unexpected_element, 4, "no children"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<SubTree ID=\"S\">\n<remap internal=\"a\" "
             "external=\"b\"/>\n</SubTree>\n</BehaviorTree>\n</root>",
             diagnostic_code::unexpected_element, 4, "<remap>"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<Sleep ID=\"Sleep\" msec=\"1\"/>\n"
             "</BehaviorTree>\n</root>",
             diagnostic_code::unknown_field, 3, "'ID'"},
            {"<root>\n<include ros_pkg=\"nav2\" path=\"a.xml\"/>\n</root>",
             diagnostic_code::unsupported_feature, 2, "ROS package"},
            {"<root>\n<include/>\n</root>", diagnostic_code::missing_field, 2, "'path'"},
            {"<root>\n<TreeNodesModel/>\n<TreeNodesModel/>\n</root>",
             diagnostic_code::duplicate_field, 3, "second <TreeNodesModel>"},
            {"<root>\n<TreeNodesModel>\n<Action/>\n</TreeNodesModel>\n</root>",
             diagnostic_code::missing_field, 3, "'ID'"},
            {"<root>\n<TreeNodesModel>\n<Action ID=\"A\"><input_port/></Action>\n"
             "</TreeNodesModel>\n</root>",
             diagnostic_code::missing_field, 3, "'name'"},
            {"<root>\n<TreeNodesModel>\n<Acton ID=\"A\"/>\n</TreeNodesModel>\n</root>",
             diagnostic_code::unexpected_element, 3, "did you mean 'Action'"},
            {"<root>\n<BehaviourTree ID=\"T\"/>\n</root>", diagnostic_code::unexpected_element, 2,
             "did you mean 'BehaviorTree'"},
            {"<tree>\n</tree>", diagnostic_code::unexpected_element, 1, "<root>"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<Sequence>\n<BehaviorTree name=\"U\"/>\n"
             "</Sequence>\n</BehaviorTree>\n</root>",
             diagnostic_code::unexpected_element, 4, "trees do not nest"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<Inverter>\n<include path=\"a.xml\"/>\n"
             "</Inverter>\n</BehaviorTree>\n</root>",
             diagnostic_code::unexpected_element, 4, "<include> inside a tree"},
            {"<root>\n<BehaviorTree ID=\"T\">\n<A>\n</BehaviorTree>\n</root>",
             diagnostic_code::syntax_error, 3, "XML_ERROR_MISMATCHED_ELEMENT"},
        };
        for (const row& r : rows) {
            CAPTURE(r.text);
            const read_result result = read(r.text);
            const diagnostic& d = only(result, r.code);
            CHECK(d.where.line == r.line);
            CHECK(d.message.find(r.words) != std::string::npos);
        }
        CHECK(only(read("  \n"), diagnostic_code::empty_file).where.line == 0);
        CHECK_FALSE(read("<root>\n<BehaviorTree>\n").complete);
        CHECK(only(read("<root>\n<B a=\"\xff\"/></root>"), diagnostic_code::invalid_utf8).where ==
              source_location{2, 7});
    }

    TEST_CASE("an attribute no port can be named is skipped, as BehaviorTree.CPP skips it") {
        const read_result r = read(
            R"(<root BTCPP_format="4"><BehaviorTree ID="T"><Sleep msec="5" xmlns:x="urn:x"
editor.color="red" a-b="1"/></BehaviorTree></root>)");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        // `a-b` is a port name BehaviorTree.CPP would look for, and so does Canopy.
        CHECK(params_text(r.document.trees.at(0), 0) == " seconds=0.005(typed) a-b=1");
    }

    TEST_CASE("a port's text reads as BehaviorTree.CPP's convertFromString reads it") {
        registry reg;
        register_builtin_nodes(reg);
        auto tree = [](const std::string& body) {
            return R"(<root BTCPP_format="4"><BehaviorTree ID="T">)" + body +
                   "</BehaviorTree></root>";
        };
        // A number from the start of the text; TRUE as true.
        const load_result read =
            try_load_text(tree(R"(<Sequence><Repeat num_cycles="2.9"><AlwaysSuccess/></Repeat>
<RunOnce then_skip="TRUE"><AlwaysSuccess/></RunOnce></Sequence>)"),
                          file_format::btcpp_xml, reg, "t.xml");
        for (const diagnostic& d : read.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(read);
        CHECK(read.tree->params(1).find_param("count")->value == param_value(std::int64_t{2}));
        CHECK(read.tree->params(3).find_param("then_skip")->value == param_value(true));
        // An `int` port's range, and text that starts with no number, are refused, as there.
        for (const char* bad : {R"(<Repeat num_cycles="99999999999"><AlwaysSuccess/></Repeat>)",
                                R"(<Repeat num_cycles=" 3"><AlwaysSuccess/></Repeat>)",
                                R"(<RunOnce then_skip="yes"><AlwaysSuccess/></RunOnce>)"}) {
            CAPTURE(std::string(bad));
            const load_result refused =
                try_load_text(tree(bad), file_format::btcpp_xml, reg, "t.xml");
            CHECK_FALSE(refused);
            CHECK(refused.diagnostics.at(0).code == diagnostic_code::wrong_param_type);
        }
    }

    TEST_CASE("a single tree without ID is named as BehaviorTree.CPP names it") {
        read_result r = read("<root > \n <BehaviorTree> \n <A/> \n </BehaviorTree> \n</root>");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r.document.trees.size() == 1);
        CHECK(r.document.trees[0].name() == "BehaviorTree_0");
        // An empty ID too (BehaviorTree.CPP 4.10 runs it); not beside another element.
        read_result empty = read("<root><BehaviorTree ID=\"\"><A/></BehaviorTree></root>");
        for (const diagnostic& d : empty.diagnostics) FAIL_CHECK(to_string(d));
        CHECK(empty.document.trees.at(0).name() == "BehaviorTree_0");
        CHECK(only(read("<root><BehaviorTree><A/></BehaviorTree><TreeNodesModel/></root>"),
                   diagnostic_code::missing_field)
                  .message.find("only as <root>'s single element") != std::string::npos);
    }

    TEST_CASE("nesting past tinyxml2's depth limit is a located limit_exceeded error") {
        const auto limit = static_cast<std::size_t>(TINYXML2_MAX_ELEMENT_DEPTH);
        // <root> and <BehaviorTree> take two levels, the leaf one more, and tinyxml2 stops
        // when an element would open at depth `limit` (counted from 0).
        const read_result deepest = read(nested(limit - 4));
        for (const diagnostic& d : deepest.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(deepest.document.trees.size() == 1);
        const record_set& t = deepest.document.trees[0];
        REQUIRE(t.size() == limit - 3);
        CHECK(t.parent_id(t.size() - 1) == static_cast<std::int64_t>(limit - 4));
        CHECK(t.type_name(t.size() - 1) == "AlwaysSuccess");

        for (std::size_t depth : {limit - 3, limit + 500}) {
            CAPTURE(depth);
            const read_result r = read(nested(depth));
            CHECK_FALSE(r.complete);
            const diagnostic& d = only(r, diagnostic_code::limit_exceeded);
            CHECK(d.message.find(std::to_string(limit)) != std::string::npos);
            CHECK(d.message.find("TINYXML2_MAX_ELEMENT_DEPTH") != std::string::npos);
            CHECK(d.where.line > 2);
            CHECK(d.where.line <= depth + 3);
        }
    }

    TEST_CASE("every corpus file reads; the defective ones give located errors") {
        const fs::path folder = corpus_folder() / "btcpp-xml";
        if (!fs::is_directory(folder)) {
            MESSAGE("skipped: no corpus at " << folder.string());
            return;
        }
        std::size_t files = 0;
        for (const auto& entry : fs::directory_iterator(folder)) {
            const std::string name = entry.path().filename().string();
            CAPTURE(name);
            ++files;
            const read_result r = read_records(slurp(entry.path()), file_format::btcpp_xml, name);
            CHECK(r.complete);
            if (name == "BehaviorTree__Groot__issue_3.xml") {
                const diagnostic& d = only(r, diagnostic_code::no_root);
                CHECK(d.where.line == 3);
                continue;
            }
            // <Action ID="Pippo"> directly in a ReactiveSequence: "Unknown node type: Action".
            if (name == "BehaviorTree__Groot__show_all.xml") {
                const diagnostic& d = only(r, diagnostic_code::unexpected_element);
                CHECK(d.where.line == 27);
                continue;
            }
            // Version 3's Parallel ports without BTCPP_format: 4.10 reads the file as version
            // 4 and refuses them.
            if (name == "aerostack2__aerostack2__RTL_test_2.xml") {
                REQUIRE(r.diagnostics.size() == 2);
                for (const diagnostic& d : r.diagnostics) {
                    CHECK(d.code == diagnostic_code::unknown_param);
                    CHECK(d.where.line == 10);
                }
                continue;
            }
            for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
            check_round_trip(slurp(entry.path()));
        }
        CHECK(files >= 22);

        const read_result issue_24 = read(slurp(folder / "BehaviorTree__Groot__issue_24.xml"));
        CHECK(issue_24.document.trees.at(0).name() == "BehaviorTree_0");

        const read_result nav2 =
            read(slurp(folder / "ros-navigation__navigation2__nav2_tree_nodes.xml"));
        CHECK(nav2.document.trees.empty());
        CHECK(nav2.document.models.size() > 50);

        const read_result with_subtrees =
            read(slurp(corpus_folder() / "layouts" / "btcpp-subtree-test" / "subtree_test.xml"));
        REQUIRE(with_subtrees.document.includes.size() == 2);
        CHECK(with_subtrees.document.includes[1].path == "subtrees/Talk.xml");
        for (const char* file : {"Check.xml", "subtrees/Talk.xml"}) {
            CAPTURE(file);
            const read_result r =
                read(slurp(corpus_folder() / "layouts" / "btcpp-subtree-test" / file));
            CHECK(r.diagnostics.empty());
            CHECK(r.document.trees.size() == 1);
        }
    }

    TEST_CASE("a lowercase <inverter> reaches the loader, which suggests Inverter") {
        const fs::path file =
            corpus_folder() / "btcpp-xml" / "ros-navigation__navigation2__application_example.xml";
        if (!fs::exists(file)) {
            MESSAGE("skipped: no corpus file " << file.string());
            return;
        }
        registry reg;
        register_builtin_nodes(reg);
        const load_result loaded =
            try_load_text(slurp(file), file_format::btcpp_xml, reg, "app.xml");
        CHECK_FALSE(loaded);
        bool found = false;
        for (const diagnostic& d : loaded.diagnostics) {
            if (d.message == "unknown node type 'inverter' (did you mean 'Inverter'?)") {
                found = true;
                CHECK(d.where.line == 22);
            }
        }
        CHECK(found);
    }

    TEST_CASE("writes BehaviorTree.CPP 4 names, ports and units") {
        read_result r = read(R"(<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M">
  <Sequence name="all">
    <Sleep msec="300"/>
    <Wait wait_duration="2"/>
    <Timeout msec="1500"><Delay delay_msec="20"><A/></Delay></Timeout>
    <Repeat num_cycles="3"><RetryUntilSuccessful num_attempts="2"><A/></RetryUntilSuccessful></Repeat>
    <Parallel success_count="2" failure_count="1"><A/><B/></Parallel>
    <SetBlackboard output_key="mode" value="calm"/>
    <SequenceStar><A/></SequenceStar>
    <RunOnce><A/></RunOnce>
  </Sequence>
</BehaviorTree></root>)");
        REQUIRE(r.diagnostics.empty());
        const write_result w = write(r.document);
        CHECK(w.problems.empty());
        INFO(w.text);
        for (const char* expected :
             {R"(<root BTCPP_format="4" main_tree_to_execute="M">)", R"(<Sleep msec="300"/>)",
              R"(<Sleep msec="2000"/>)", R"(<Timeout msec="1500">)", R"(<Delay delay_msec="20">)",
              R"(<Repeat num_cycles="3">)", R"(<RetryUntilSuccessful num_attempts="2">)",
              R"(<Parallel success_count="2" failure_count="1">)",
              R"(<SetBlackboard output_key="mode" value="calm"/>)", "<SequenceWithMemory>",
              "<RunOnce>", R"(<Sequence name="all">)"}) {
            CHECK_MESSAGE(w.text.find(expected) != std::string::npos, expected);
        }
        // BehaviorTree.CPP built-ins need no model.
        CHECK(w.text.find("TreeNodesModel") != std::string::npos);  // for A and B
        CHECK(w.text.find(R"(<Action ID="Sleep")") == std::string::npos);
        CHECK(w.text.find(R"(<Action ID="A"/>)") != std::string::npos);
    }

    TEST_CASE("writes Canopy's own names, keys, ids and subtrees so that they read back") {
        tree_document doc;
        doc.main_tree = "Main";
        record_set main;
        main.set_name("Main");
        main.declare_key(
            {"patrol_wait", "number", record_set::raw_param{"patrol_wait", 2.5, {}, false}, {}});
        main.declare_key({"laps", "integer", std::nullopt, {}});
        main.declare_key(
            {"mode", "string", record_set::raw_param{"mode", std::string("a <b>"), {}, false}, {}});
        main.add(10, 0, "Selector", "top \"quoted\"\nline");
        main.add(-4, 10, "Wait");
        main.add_param("seconds", 0.0005);
        main.add(3, 10, "Timeout");
        main.add_param("seconds", std::string("{patrol_wait}"));
        main.add(5, 3, "WaitTicks");
        main.add_param("ticks", std::int64_t{2});
        main.add(6, 10, "Switch2");
        main.add_param("variable", std::string("mode"));
        main.add_param("case_1", std::string("a"));
        main.add_param("case_2", std::string("b"));
        main.add(7, 6, "CheckBlackboard");
        main.add_param("key", std::string("laps"));
        main.add_param("op", std::string(">"));
        main.add_param("value", std::int64_t{3});
        main.add(8, 6, "Not");
        main.add(9, 8, "Cooldown");
        main.add_param("seconds", 2.0);
        main.add(11, 9, "Log");
        main.add(12, 6, "SubTree");
        main.add_param("tree", std::string("Other"));
        main.add_param("file", std::string("other.xml"));
        main.add_param("goal", std::string("{mode}"));
        main.add_param("_autoremap", true);
        doc.trees.push_back(main);
        const write_result w = write(doc);
        INFO(w.text);
        REQUIRE(w.problems.size() == 1);  // Timeout's key of seconds
        CHECK(w.problems[0].code == diagnostic_code::not_expressible);
        CHECK(w.problems[0].record_id == std::optional<std::int64_t>(3));
        CHECK(w.problems[0].path.empty());
        for (const char* expected :
             {R"(<include path="other.xml"/>)", R"(<Fallback name="top &quot;quoted&quot;)",
              R"(_uid="10")", R"(<Wait _uid="-4" seconds="5e-04"/>)",
              R"(<Timeout _uid="3" seconds="{patrol_wait}">)", R"(variable="{mode}")",
              R"(<Inverter _uid="8">)",
              R"(<SubTree ID="Other" _uid="12" goal="{mode}" _autoremap="true"/>)",
              // Canopy's own nodes' models are marked so, to read back as Canopy's.
              R"(<Action ID="WaitTicks" canopy="builtin">)",
              R"(<Condition ID="CheckBlackboard" canopy="builtin">)",
              R"(<Decorator ID="Cooldown" canopy="builtin">)",
              R"(<Action ID="Log" canopy="builtin"/>)", R"(<Action ID="Wait" canopy="builtin">)",
              R"(<SubTree ID="Main">)",
              R"(<inout_port name="patrol_wait" type="double" default="2.5"/>)",
              R"(<inout_port name="laps" type="int"/>)",
              R"(<inout_port name="mode" type="std::string" default="a &lt;b&gt;"/>)"}) {
            CHECK_MESSAGE(w.text.find(expected) != std::string::npos, expected);
        }
        // Read back: the same ids, parents, describes and keys; values as text.
        read_result again = read(w.text);
        for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
        CHECK(describe(again.document) == R"(main=Main
include other.xml
tree Main
  key patrol_wait number = 2.5
  key laps integer
  key mode string = a <b>
  #10 <0 Fallback "top "quoted"
line"
  #-4 <10 Wait "" seconds=0.0005(typed)
  #3 <10 Timeout "" seconds={patrol_wait}
  #5 <3 WaitTicks "" ticks=2
  #6 <10 Switch2 "" variable={mode} case_1=a case_2=b
  #7 <6 CheckBlackboard "" key=laps op=> value=3
  #8 <6 Inverter ""
  #9 <8 Cooldown "" seconds=2
  #11 <9 Log ""
  #12 <6 SubTree "" tree=Other goal={mode} _autoremap=1(typed)
)");
        REQUIRE(again.document.models.size() == 5);
        CHECK(again.document.models[0].name == "Wait");
        CHECK(again.document.models[1].name == "WaitTicks");
        CHECK(again.document.models[1].ports.at(0).name == "ticks");
        CHECK(again.document.models[2].name == "CheckBlackboard");
        CHECK(again.document.models[2].shape == arity::leaf);
        CHECK(again.document.models[3].shape == arity::decorator);
    }

    TEST_CASE("reports what BehaviorTree.CPP XML cannot say") {
        tree_document doc;
        record_set t;
        t.add(1, 0, "Sequence");
        t.add_with_type_id(2, 1, 42);
        t.add(3, 1, "SubTree");
        t.add_param("file", std::string("x.xml"));
        t.add(4, 1, "Delay");
        t.add_param("seconds", 0.0001);
        t.add(5, 1, "Say");
        t.add_param("_private", std::string("x"));
        t.add(6, 99, "Orphan");
        doc.trees.push_back(t);
        record_set unnamed_again;
        unnamed_again.add(1, 0, "A");
        doc.trees.push_back(unnamed_again);
        const write_result w = write(doc);
        INFO(w.text);
        std::vector<std::optional<std::int64_t>> ids;
        for (const diagnostic& d : w.problems) {
            CHECK(d.code == diagnostic_code::not_expressible);
            ids.push_back(d.record_id);
        }
        CHECK(ids ==
              std::vector<std::optional<std::int64_t>>{std::nullopt, 6, 2, 3, 4, 5, std::nullopt});
        CHECK(w.text.find(R"(<BehaviorTree ID="MainTree">)") != std::string::npos);
        CHECK(w.text.find(R"(<BehaviorTree ID="MainTree_2">)") != std::string::npos);
    }

    TEST_CASE("round trips: reader, writer, reader give the same document") {
        check_round_trip(R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <include path="lib/more.xml"/>
  <BehaviorTree ID="Main">
    <Sequence name="guard &amp; go">
      <Sleep msec="250" name="nap"/>
      <Timeout msec="1000"><Action ID="Move" goal="{goal}" speed="1.5"/></Timeout>
      <SubTree ID="Sub" target="{goal}" mode="{=}" literal="x" _autoremap="true"/>
      <Switch3 variable="{v}" case_1="a" case_2="b" case_3="c"><A/><B/><C/><D/></Switch3>
      <Control ID="My Control"><A/><B/></Control>
      <Decorator ID="Gate"><A/></Decorator>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <Fallback><Condition ID="IsOpen"/><Say text="line1&#10;line2"/></Fallback>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="Move"><input_port name="goal" type="Pose"/><input_port name="speed" type="double" default="1"/></Action>
    <Condition ID="IsOpen"/>
    <SubTree ID="Sub">
      <input_port name="target" type="int" default="3"/>
      <output_port name="mode" type="std::string"/>
    </SubTree>
  </TreeNodesModel>
</root>)");
        check_round_trip(nested(TINYXML2_MAX_ELEMENT_DEPTH - 4));
        check_round_trip(
            R"(<root><BehaviorTree ID="T"><Seq _uid="5"><A _uid="2"/></Seq></BehaviorTree></root>)");
    }

    TEST_CASE("version 3's Parallel thresholds are refused in a version 4 file, as there") {
        const std::string parallel = R"(<BehaviorTree ID="T"><Parallel success_threshold="1">
<AlwaysSuccess/></Parallel></BehaviorTree></root>)";
        const read_result v4 = read(R"(<root BTCPP_format="4">)" + parallel);
        const diagnostic& d = only(v4, diagnostic_code::unknown_param);
        CHECK(d.where.line == 1);
        CHECK(d.message.find("write 'success_count'") != std::string::npos);
        // BehaviorTree.CPP 4 reads a file without BTCPP_format as version 4 (aerostack2's
        // event_test.xml): refused, with the way to say version 3.
        const read_result unsaid = read(R"(<root>)" + parallel);
        const diagnostic& u = only(unsaid, diagnostic_code::unknown_param);
        CHECK(u.message.find("BTCPP_format=\"3\"") != std::string::npos);
        const read_result v3 = read(R"(<root BTCPP_format="3">)" + parallel);
        CHECK(v3.diagnostics.empty());
        CHECK(text_of(v3.document.trees[0], 0, "success_threshold") == "1");
    }

    // Each case checked against BehaviorTree.CPP 4.10's createTreeFromText (its VerifyXML and
    // validateModelName, validatePortName, validateInstanceName), whose message is quoted.
    TEST_CASE("names BehaviorTree.CPP 4.10 refuses when it reads the file are refused, located") {
        auto first = [](const std::string& text, diagnostic_code code) {
            const read_result r = read(text);
            INFO(r.diagnostics.size());
            REQUIRE_FALSE(r.diagnostics.empty());
            CHECK(r.diagnostics[0].code == code);
            return r.diagnostics[0];
        };
        SUBCASE("a tree's ID with a forbidden character (MoveIt Pro's 'Move Home')") {
            // "Model name 'Move Home' contains forbidden character ' '"
            const diagnostic d = first(R"(<root BTCPP_format="4">
<BehaviorTree ID="Move Home"><AlwaysSuccess/></BehaviorTree></root>)",
                                       diagnostic_code::invalid_id);
            CHECK(d.where.line == 2);
            CHECK(d.message.find("contains ' '") != std::string::npos);
            first(R"(<root><BehaviorTree ID="Root"><AlwaysSuccess/></BehaviorTree></root>)",
                  diagnostic_code::invalid_id);
        }
        SUBCASE("a tree or a SubTree named as a node type") {
            // "The attribute [ID] of tag <BehaviorTree> must not use the name of a registered
            // Node"
            const diagnostic d = first(R"(<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree>
<BehaviorTree ID="Sleep"><AlwaysSuccess/></BehaviorTree></root>)",
                                       diagnostic_code::invalid_id);
            CHECK(d.where.line == 3);
            first(R"(<root BTCPP_format="4"><BehaviorTree ID="Main"><SubTree ID="Sequence"/>
</BehaviorTree></root>)",
                  diagnostic_code::invalid_id);
        }
        SUBCASE("the explicit form directly in a ReactiveSequence (book_ros2's bumpgo.xml)") {
            // "Error at line 3: -> Unknown node type: Action"
            const diagnostic d = first(R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
<ReactiveSequence>
<Action ID="AlwaysSuccess"/></ReactiveSequence></BehaviorTree></root>)",
                                       diagnostic_code::unexpected_element);
            CHECK(d.where.line == 3);
            CHECK(d.message.find("<AlwaysSuccess/>") != std::string::npos);
        }
        SUBCASE("an element named as a tree of the file, unless the file says version 3") {
            // "Node not recognized: X"
            const std::string trees = R"(<BehaviorTree ID="Main"><X/></BehaviorTree>
<BehaviorTree ID="X"><AlwaysSuccess/></BehaviorTree></root>)";
            first(R"(<root BTCPP_format="4" main_tree_to_execute="Main">)" + trees,
                  diagnostic_code::unknown_type);
            CHECK(read(R"(<root BTCPP_format="3" main_tree_to_execute="Main">)" + trees)
                      .diagnostics.empty());
        }
        SUBCASE("a SubTree model's port named as no port can be") {
            // "Port name '1x' cannot start with a digit"
            const diagnostic d = first(R"(<root BTCPP_format="4">
<BehaviorTree ID="X"><AlwaysSuccess/></BehaviorTree>
<TreeNodesModel><SubTree ID="X">
<input_port name="1x" default="1"/></SubTree></TreeNodesModel></root>)",
                                       diagnostic_code::invalid_param);
            CHECK(d.where.line == 4);
        }
        SUBCASE("a node's name with a control character") {
            // "Instance name 'ab' contains invalid control character (ASCII 1)"
            first(R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
<AlwaysSuccess name="a&#1;b"/></BehaviorTree></root>)",
                  diagnostic_code::invalid_param);
        }
    }

    TEST_CASE("a script is refused where BehaviorTree.CPP 4.10's tokenizer refuses it") {
        registry reg;
        register_builtin_nodes(reg);
        auto load = [&](const std::string& code) {
            return try_load_text(R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
<Script code=")" + code + R"("/></BehaviorTree></root>)",
                                 file_format::btcpp_xml, reg, "t.xml");
        };
        // Panther's lights.xml: "Invalid token '\' at position 28".
        load_result r = load("a := 1 \\\nb := 2");
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].code == diagnostic_code::invalid_script);
        CHECK(r.diagnostics[0].where.line == 2);
        CHECK(r.diagnostics[0].message.find("line continuation") != std::string::npos);
        // "Invalid token '\"' at position 5"
        r = load("a := &quot;x&quot;");
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].message.find("single quotes") != std::string::npos);
        CHECK_FALSE(load("\xc3\xa9t\xc3\xa9 := 1"));  // "Invalid token" at position 0
        // Loaded as there: several ';' after a statement, and none between two.
        CHECK(load("a := 1;; b := 2;;"));
        CHECK(load("a := 1 b := 2"));
    }

    TEST_CASE("two SubTrees of one name under one tree are refused, as BehaviorTree.CPP does") {
        registry reg;
        register_builtin_nodes(reg);
        auto load = [&](const std::string& uses) {
            return try_load_text(R"(<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><Sequence>)" +
                                     uses + R"(</Sequence></BehaviorTree>
<BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree></root>)",
                                 file_format::btcpp_xml, reg, "dup.xml");
        };
        const load_result twice = load(R"(<SubTree ID="Sub" name="reload"/>
<SubTree ID="Sub" name="reload"/>)");
        REQUIRE(twice.diagnostics.size() == 1);
        const diagnostic& d = twice.diagnostics[0];
        CHECK(d.code == diagnostic_code::invalid_param);
        CHECK(d.where.line == 3);
        CHECK(d.message.find("Duplicate SubTree path") != std::string::npos);
        CHECK_FALSE(twice);
        // Without a name, or with two names, each use has its own path.
        CHECK(load(R"(<SubTree ID="Sub"/><SubTree ID="Sub"/>)"));
        CHECK(load(R"(<SubTree ID="Sub" name="a"/><SubTree ID="Sub" name="b"/>)"));
    }

    TEST_CASE("a lenient load checks a node against the ports its model declares") {
        registry reg;
        register_builtin_nodes(reg);
        auto lenient_load = [&](const std::string& use) {
            load_options lenient;
            lenient.lenient = true;
            return try_load_text(R"(<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><Sequence>)" +
                                     use + R"(</Sequence></BehaviorTree>
<TreeNodesModel><Action ID="Shoot"><input_port name="target"/></Action></TreeNodesModel>
</root>)",
                                 file_format::btcpp_xml, reg, "shoot.xml", lenient);
        };
        CHECK(lenient_load(R"(<Shoot target="{enemy}"/>)"));
        const load_result misspelt = lenient_load(R"(<Shoot tagret="{enemy}"/>)");
        REQUIRE(misspelt.diagnostics.size() == 1);
        const diagnostic& d = misspelt.diagnostics[0];
        CHECK(d.code == diagnostic_code::unknown_param);
        CHECK(d.message == "'Shoot' has no parameter 'tagret' (did you mean 'target'?)");
        CHECK(d.where.line == 2);
        // Undeclared, a type is still learned from its uses, whatever ports they give.
        CHECK(lenient_load(R"(<Aim tagret="{enemy}"/>)"));
    }

    TEST_CASE("another program's node under one of Canopy's names is the file's own, leniently") {
        registry reg;
        register_builtin_nodes(reg);
        const std::string text = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><Sequence>
<Wait wait_duration="5"/>
<Wait wait_duration="5" error_code_id="{code}"/>
</Sequence></BehaviorTree></root>)";
        const load_result strict = try_load_text(text, file_format::btcpp_xml, reg, "nav2.xml");
        CHECK_FALSE(strict);
        REQUIRE(strict.diagnostics.size() == 1);
        CHECK(strict.diagnostics[0].where.line == 4);
        CHECK(strict.diagnostics[0].message.find("'Wait' has no parameter 'error_code_id'") == 0);
        CHECK(strict.diagnostics[0].hint.command_line.find(
                  "`--lenient` reads it as the file's own") != std::string::npos);
        load_options lenient;
        lenient.lenient = true;
        const load_result learned =
            try_load_text(text, file_format::btcpp_xml, reg, "nav2.xml", lenient);
        for (const diagnostic& d : learned.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(learned);
        // Both uses are the file's Wait: a node without behaviour, so agents refuse the tree.
        CHECK_FALSE(learned.tree->layout().runnable);
        // A program's own Wait (registered in place of Canopy's) is checked as strictly as
        // ever, leniently too.
        registry own;
        own.add_action("Wait", [](context&) { return status::success; }, std::nullopt,
                       {param_spec::required("wait_duration", param_type::number)});
        CHECK_FALSE(try_load_text(text, file_format::btcpp_xml, own, "nav2.xml", lenient));
        // Canopy's own names stay Canopy's in Canopy's formats, leniently too.
        const load_result flat = try_load_text(
            R"({"nodes": [{"id": 1, "type": "Wait", "params": {"seconds": 1, "error_code_id": "{c}"}}]})",
            file_format::flat_json, reg, "flat.json", lenient);
        CHECK_FALSE(flat);
    }

    TEST_CASE("Canopy's own names are the file's own nodes in a BehaviorTree.CPP file") {
        registry reg;
        register_builtin_nodes(reg);
        auto file = [](const std::string& models) {
            return R"(<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><Sequence>
<WaitTicks ticks="2"/>
<PipelineSequence><AlwaysSuccess/></PipelineSequence>
</Sequence></BehaviorTree>)" +
                   models + "</root>";
        };
        // BehaviorTree.CPP has no WaitTicks: strictly, an unknown type where it stands; the
        // documented Nav2 names are Canopy's.
        const load_result strict = try_load_text(file(""), file_format::btcpp_xml, reg, "t.xml");
        CHECK_FALSE(strict);
        REQUIRE(strict.diagnostics.size() == 1);
        CHECK(strict.diagnostics[0].code == diagnostic_code::unknown_type);
        CHECK(strict.diagnostics[0].where.line == 3);
        CHECK(strict.diagnostics[0].message.find("unknown node type 'WaitTicks'") == 0);
        CHECK(strict.diagnostics[0].hint.command_line.find("`--lenient`") != std::string::npos);
        // Leniently, the file's own node: learned, without behaviour.
        load_options lenient;
        lenient.lenient = true;
        const load_result learned =
            try_load_text(file(""), file_format::btcpp_xml, reg, "t.xml", lenient);
        REQUIRE(learned);
        CHECK_FALSE(learned.tree->layout().runnable);
        // Declared as Canopy's, by its writer's mark or with its ports as its Groot2 palette
        // types them, it is Canopy's node.
        for (const char* model :
             {R"(<TreeNodesModel><Action ID="WaitTicks" canopy="builtin"/></TreeNodesModel>)",
              R"(<TreeNodesModel><Action ID="WaitTicks"><input_port name="ticks" type="int"/>
</Action></TreeNodesModel>)"}) {
            CAPTURE(std::string(model));
            const load_result canopys =
                try_load_text(file(model), file_format::btcpp_xml, reg, "t.xml");
            for (const diagnostic& d : canopys.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(canopys);
            CHECK(canopys.tree->layout().runnable);
        }
        // A model of another shape is the file's own node's.
        CHECK_FALSE(
            try_load_text(file(R"(<TreeNodesModel><Action ID="WaitTicks"><input_port name="ticks"/>
</Action></TreeNodesModel>)"),
                          file_format::btcpp_xml, reg, "t.xml"));
    }
}
