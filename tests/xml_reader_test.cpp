#include "test_support.hpp"

using namespace canopy;
using testing::load_json;
using testing::load_xml;
using testing::only;
using testing::xml_tree;

TEST_SUITE("flat XML reader") {
    TEST_CASE("reads records, the tree name and parameters converted to their declared types") {
        load_result r = load_xml(R"(<?xml version="1.0"?>
<tree name="waiting">
  <!-- a comment is fine -->
  <node id="1" type="Sequence"/>
  <node id="2" parentId="1" type="Pause" describe="a &quot;pause&quot;">
    <params seconds="2.5" loud="true" label="hi"/>
  </node>
  <node id="3" parentId="1" type="201"/>
</tree>)");
        REQUIRE(r);
        CHECK(r.tree->name() == "waiting");
        CHECK(r.tree->describe(1) == "a \"pause\"");
        CHECK(r.tree->params(1).get<double>("seconds") == 2.5);
        CHECK(r.tree->params(1).get<bool>("loud"));
        CHECK(r.tree->params(1).get<std::string>("label") == "hi");
        CHECK(r.tree->type_name(2) == "Pause");                  // type given by numeric id
        CHECK(r.tree->params(2).get<double>("seconds") == 1.0);  // the default
        CHECK(r.tree->where(1) == source_location{5, 0});
    }

    TEST_CASE("gives the same tree as the same records in JSON") {
        load_result xml =
            load_xml(xml_tree({R"(<node id="1" type="Selector" describe="root"/>)",
                               R"(<node id="3" parentId="1" type="CoinNearby"/>)",
                               R"(<node id="2" parentId="1" type="Wander" describe="é"/>)"}));
        load_result json = load_json(R"([{"id": 1, "type": "Selector", "describe": "root"},
            {"id": 3, "parentId": 1, "type": "CoinNearby"},
            {"id": 2, "parentId": 1, "type": "Wander", "describe": "é"}])");
        REQUIRE(xml);
        REQUIRE(json);
        CHECK(to_canopy_text(*xml.tree) == to_canopy_text(*json.tree));
    }

    TEST_CASE("reports a syntax error at its line") {
        load_result r = load_xml("<tree>\n  <node id=\"1\" type=\"Sequence\">\n</tree>\n");
        diagnostic d = only(r, diagnostic_code::syntax_error);
        CHECK(d.where.line == 2);  // tinyxml2 names the element left open
        INFO(d.message);
        CHECK(d.message.rfind("XML syntax error", 0) == 0);
    }

    TEST_CASE("reports text that is not XML, and bytes that are not UTF-8") {
        CHECK(only(load_xml("just words"), diagnostic_code::syntax_error).where.line == 1);
        diagnostic d = only(
            load_xml(
                "<tree>\n<node id=\"1\" type=\"AlwaysSuccess\" describe=\"caf\xe9\"/>\n</tree>"),
            diagnostic_code::invalid_utf8);
        CHECK(d.where == source_location{2, 48});
    }

    TEST_CASE("reports a root element other than <tree>, with a hint for BehaviorTree.CPP files") {
        diagnostic d = only(load_xml("<root BTCPP_format=\"4\"><BehaviorTree ID=\"Main\"/></root>"),
                            diagnostic_code::unexpected_element);
        CHECK(d.message ==
              "the root element must be <tree> or <trees>, not <root> (this looks like "
              "BehaviorTree.CPP XML, a different format)");
    }

    TEST_CASE("reports misspelled attributes and unexpected elements instead of ignoring them") {
        load_result r = load_xml(xml_tree({
            R"(<node id="1" type="Sequence"/>)",
            R"(<node id="2" parentid="1" type="AlwaysSuccess"/>)",
            R"(<nod id="3" parentId="1" type="AlwaysSuccess"/>)",
            R"(<node id="4" parentId="1" type="AlwaysSuccess"><node id="5" type="AlwaysSuccess"/></node>)",
        }));
        std::vector<diagnostic> unknown;
        for (const diagnostic& d : r.diagnostics) {
            if (d.code == diagnostic_code::unknown_field) unknown.push_back(d);
        }
        REQUIRE(unknown.size() == 1);
        CHECK(unknown[0].message ==
              "unknown attribute 'parentid' on <node> (did you mean 'parentId'?)");
        CHECK(unknown[0].where.line == 3);
        CHECK(unknown[0].record_id == 2);
        std::vector<diagnostic> unexpected;
        for (const diagnostic& d : r.diagnostics) {
            if (d.code == diagnostic_code::unexpected_element) unexpected.push_back(d);
        }
        REQUIRE(unexpected.size() == 2);
        CHECK(unexpected[0].message ==
              "unexpected element <nod> in <tree> (did you mean 'node'?); a tree holds <node> "
              "elements and a <blackboard>");
        CHECK(unexpected[1].message ==
              "unexpected element <node> in <node>; nodes are flat: give the child a parentId");
        CHECK(unexpected[1].where.line == 5);
        CHECK_FALSE(r.tree);
    }

    TEST_CASE("reports attributes of the wrong type and missing attributes") {
        load_result r = load_xml(xml_tree({
            R"(<node id="one" type="Sequence"/>)",
            R"(<node id="2" parentId="x" type="AlwaysSuccess"/>)",
            R"(<node parentId="1" type="AlwaysSuccess"/>)",
            R"(<node id="4" parentId="1"/>)",
        }));
        std::vector<std::pair<std::uint32_t, std::string>> found;
        for (const diagnostic& d : r.diagnostics) found.emplace_back(d.where.line, d.message);
        CHECK(found == std::vector<std::pair<std::uint32_t, std::string>>{
                           {2, "'id' must be an integer, not \"one\""},
                           {3, "'parentId' must be an integer, not \"x\""},
                           {4, "<node> has no 'id' attribute"},
                           {5, "<node> has no 'type' attribute"},
                       });
    }

    TEST_CASE("reports a parameter that does not convert to its declared type") {
        load_result r = load_xml(
            xml_tree({R"(<node id="1" type="Pause"><params seconds="soon" loud="yes"/></node>)"}));
        std::vector<std::string> messages;
        for (const diagnostic& d : r.diagnostics) {
            CHECK(d.code == diagnostic_code::wrong_param_type);
            CHECK(d.where.line == 2);
            messages.push_back(d.message);
        }
        CHECK(messages == std::vector<std::string>{
                              "parameter 'seconds' of 'Pause' must be a number, not \"soon\"",
                              "parameter 'loud' of 'Pause' must be a boolean, not \"yes\""});
    }

    TEST_CASE("reports a second <params> element and stray text") {
        load_result r = load_xml(
            xml_tree({R"(<node id="1" type="Pause"><params/><params seconds="1"/>words</node>)"}));
        CHECK(only(r, diagnostic_code::duplicate_field).message ==
              "<node> has two <params> elements");
        CHECK(only(r, diagnostic_code::unexpected_element).message == "unexpected text in <node>");
    }

    TEST_CASE("reports a second root element and text inside <params>") {
        load_result r = load_xml(
            "<tree><node id=\"1\" type=\"Pause\"><params>soon</params></node></tree>\n<tree/>");
        std::vector<std::string> messages;
        for (const diagnostic& d : r.diagnostics) messages.push_back(d.message);
        CHECK(messages == std::vector<std::string>{
                              "<params> takes attributes only, e.g. <params seconds=\"1.5\"/>",
                              "a second root element <tree>; a file holds one <tree>"});
    }

    TEST_CASE("refuses infinity and NaN for a number parameter, as JSON cannot express them") {
        for (const char* value : {"inf", "nan", "-infinity"}) {
            CAPTURE(value);
            load_result r =
                load_xml(xml_tree({std::string(R"(<node id="1" type="Pause"><params seconds=")") +
                                   value + R"("/></node>)"}));
            CHECK(only(r, diagnostic_code::wrong_param_type).where.line == 2);
        }
    }
}
