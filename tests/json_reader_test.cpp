#include "test_support.hpp"

using namespace canopy;
using testing::json_tree;
using testing::load_json;
using testing::only;

TEST_SUITE("flat JSON reader") {
    TEST_CASE("reads the object form with a name and the bare array form alike") {
        load_result object =
            load_json(R"({"name": "tiny", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]})");
        load_result array = load_json(R"([{"id": 1, "parentId": null, "type": "AlwaysSuccess"}])");
        REQUIRE(object);
        REQUIRE(array);
        CHECK(object.tree->name() == "tiny");
        CHECK(array.tree->name().empty());
        CHECK(to_canopy_text(*object.tree) == to_canopy_text(*array.tree));
    }

    TEST_CASE("accepts a type given by numeric id and parameters of every JSON scalar type") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": 1})",
            R"({"id": 2, "parentId": 1, "type": "Pause", "params": {"seconds": 2, "loud": true, "label": "hi"}})",
        }));
        REQUIRE(r);
        CHECK(r.tree->type_name(0) == "Sequence");
        param_list params = r.tree->params(1);
        CHECK(params.get<double>("seconds") == 2.0);  // an integer is accepted as a number
        CHECK(params.get<bool>("loud"));
        CHECK(params.get<std::string>("label") == "hi");
    }

    TEST_CASE("reports a syntax error at its line and column") {
        load_result r = load_json("{\"nodes\": [\n  {\"id\": 1, \"type\": \"Sequence\",}\n]}");
        diagnostic d = only(r, diagnostic_code::syntax_error);
        CHECK(d.where.line == 2);
        CHECK(d.where.column == 32);
        CHECK(d.message.rfind("JSON syntax error", 0) == 0);
        CHECK_FALSE(r.tree);
    }

    TEST_CASE("reports text that is not JSON at all") {
        SUBCASE("prose") {
            CHECK(only(load_json("hello, tree"), diagnostic_code::syntax_error).where.line == 1);
        }
        SUBCASE("binary bytes") {
            CHECK(only(load_json(std::string("\x7f"
                                             "ELF\x02\x01\x01\0",
                                             8)),
                       diagnostic_code::syntax_error)
                      .where.line == 1);
        }
        SUBCASE("truncated") {
            CHECK(only(load_json("{\"nodes\": [{\"id\": 1,"), diagnostic_code::syntax_error)
                      .where.line == 1);
        }
        SUBCASE("a scalar") {
            CHECK(only(load_json("42"), diagnostic_code::unexpected_element).where.line == 1);
        }
    }

    TEST_CASE("reports invalid UTF-8 in a string") {
        load_result r =
            load_json("[{\"id\": 1, \"type\": \"AlwaysSuccess\", \"describe\": \"caf\xe9\"}]");
        CHECK(only(r, diagnostic_code::invalid_utf8).where.line == 1);
    }

    TEST_CASE("reports an empty file") {
        CHECK(only(load_json(""), diagnostic_code::empty_file).where.line == 0);
        CHECK(only(load_json("  \n\t\n"), diagnostic_code::empty_file).message ==
              "the file is empty; a tree needs at least its root node");
    }

    TEST_CASE("reports misspelled keys instead of ignoring them") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Sequence"})",
            R"({"id": 2, "parentid": 1, "type": "AlwaysSuccess"})",
            R"({"id": 3, "parentId": 1, "typ": "AlwaysSuccess"})",
        }));
        std::vector<diagnostic> unknown;
        for (const diagnostic& d : r.diagnostics) {
            if (d.code == diagnostic_code::unknown_field) unknown.push_back(d);
        }
        REQUIRE(unknown.size() == 2);
        CHECK(unknown[0].where == source_location{3, 11});
        CHECK(unknown[0].message ==
              "unknown key 'parentid' in a node record (did you mean 'parentId'?)");
        CHECK(unknown[0].record_id == 2);
        CHECK(unknown[1].message == "unknown key 'typ' in a node record (did you mean 'type'?)");
        // Without its type, the third record is reported as lacking one.
        CHECK(only(r, diagnostic_code::missing_field).record_id == 3);
        CHECK_FALSE(r.tree);
    }

    TEST_CASE("reports a misspelled key in the tree object") {
        load_result r =
            load_json("{\"node\": [], \"nodes\": [{\"id\": 1, \"type\": \"AlwaysSuccess\"}]}");
        diagnostic d = only(r, diagnostic_code::unknown_field);
        CHECK(d.message == "unknown key 'node' in the tree object (did you mean 'nodes'?)");
        CHECK(d.where.column == 2);
    }

    TEST_CASE("reports a repeated key") {
        load_result r =
            load_json(json_tree({R"({"id": 1, "type": "Sequence", "type": "Selector"})"}));
        diagnostic d = only(r, diagnostic_code::duplicate_field);
        CHECK(d.where.line == 2);
        CHECK(d.where.column == 31);
    }

    TEST_CASE("reports fields of the wrong type at the value") {
        SUBCASE("an id that is a string") {
            diagnostic d = only(load_json(json_tree({R"({"id": "1", "type": "AlwaysSuccess"})"})),
                                diagnostic_code::wrong_field_type);
            CHECK(d.message == "'id' must be an integer, not a string");
            CHECK(d.where == source_location{2, 8});
        }
        SUBCASE("an id that is fractional") {
            diagnostic d = only(load_json(json_tree({R"({"id": 1.5, "type": "AlwaysSuccess"})"})),
                                diagnostic_code::wrong_field_type);
            CHECK(d.message == "'id' must be an integer, not a fractional number");
        }
        SUBCASE("an id beyond 64 bits") {
            diagnostic d = only(
                load_json(json_tree({R"({"id": 18446744073709551615, "type": "AlwaysSuccess"})"})),
                diagnostic_code::wrong_field_type);
            CHECK(d.message == "'id' must be an integer, not an integer beyond 64 bits");
        }
        SUBCASE("a describe that is a number") {
            diagnostic d =
                only(load_json(json_tree({R"({"id": 1, "type": "AlwaysSuccess", "describe": 7})"})),
                     diagnostic_code::wrong_field_type);
            CHECK(d.message == "'describe' must be a string, not a number");
            CHECK(d.record_id == 1);
            CHECK(d.where == source_location{2, 48});
        }
        SUBCASE("a parentId that is an object") {
            diagnostic d = only(
                load_json(
                    json_tree({R"({"id": 1, "parentId": {"x": 1}, "type": "AlwaysSuccess"})"})),
                diagnostic_code::wrong_field_type);
            CHECK(d.message == "'parentId' must be an integer or null, not an object");
        }
        SUBCASE("a type that is a boolean") {
            diagnostic d = only(load_json(json_tree({R"({"id": 1, "type": true})"})),
                                diagnostic_code::wrong_field_type);
            CHECK(d.message == "'type' must be a type name or numeric type id, not a boolean");
        }
        SUBCASE("params that are an array") {
            diagnostic d =
                only(load_json(json_tree({R"({"id": 1, "type": "Pause", "params": [1]})"})),
                     diagnostic_code::wrong_field_type);
            CHECK(d.message == "'params' must be an object of parameters, not an array");
        }
        SUBCASE("a parameter that is null") {
            diagnostic d =
                only(load_json(
                         json_tree({R"({"id": 1, "type": "Pause", "params": {"seconds": null}})"})),
                     diagnostic_code::wrong_param_type);
            CHECK(d.message ==
                  "parameter 'seconds' must be a number, a string or a boolean, not null");
            CHECK(d.where == source_location{2, 50});  // at the value
        }
        SUBCASE("nodes that are not an array") {
            diagnostic d =
                only(load_json(R"({"nodes": {"id": 1}})"), diagnostic_code::wrong_field_type);
            CHECK(d.message == "'nodes' must be an array of node records, not an object");
        }
    }

    TEST_CASE("reports a record that is not an object") {
        load_result r = load_json(json_tree({R"({"id": 1, "type": "AlwaysSuccess"})", "17"}));
        diagnostic d = only(r, diagnostic_code::unexpected_element);
        CHECK(d.where == source_location{3, 1});
        CHECK(d.message == "a node record must be a JSON object, not a number");
    }

    TEST_CASE("reports missing id, missing type and a missing nodes array") {
        load_result r = load_json(json_tree({R"({"type": "AlwaysSuccess"})", R"({"id": 2})"}));
        std::vector<diagnostic> missing;
        for (const diagnostic& d : r.diagnostics) {
            if (d.code == diagnostic_code::missing_field) missing.push_back(d);
        }
        REQUIRE(missing.size() == 2);
        CHECK(missing[0].message == "node record has no 'id'");
        CHECK(missing[0].where == source_location{2, 1});
        CHECK(missing[1].message == "node record has no 'type'");
        CHECK(missing[1].record_id == 2);
        CHECK(only(load_json(R"({"name": "x"})"), diagnostic_code::missing_field).message ==
              "the tree file has no 'nodes' array; give one: {\"nodes\": [...]}, or several "
              "trees: {\"trees\": [{\"name\": ..., \"nodes\": [...]}, ...]}");
    }

    TEST_CASE("counts columns in characters, not bytes") {
        load_result r = load_json(
            "[{\"describe\": \"\xe9\xbe\x99\xe9\xbe\x99\", \"id\": 1, \"typo\": 1, \"type\": "
            "\"AlwaysSuccess\"}]");
        // "typo" is the 30th character of the line but starts at its 34th byte.
        CHECK(only(r, diagnostic_code::unknown_field).where == source_location{1, 30});
    }

    TEST_CASE("reports every record's problem, not only the first") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Sequence"})",
            R"({"id": 2, "parentId": 1, "type": "AlwaysSuccess", "describe": 1})",
            R"({"id": 3, "parentId": 1, "type": "AlwaysSuccess", "descrbe": "x"})",
            R"({"id": 4, "parentId": 1, "type": "Sequnce"})",
        }));
        CHECK(testing::codes(r) == std::vector<diagnostic_code>{diagnostic_code::wrong_field_type,
                                                                diagnostic_code::unknown_field,
                                                                diagnostic_code::unknown_type});
    }

    TEST_CASE("reports a repeated parameter even when its first value was refused") {
        load_result r = load_json(
            json_tree({R"({"id": 1, "type": "Pause", "params": {"seconds": [1], "seconds": 2}})"}));
        CHECK(only(r, diagnostic_code::wrong_param_type).where.column == 50);
        CHECK(only(r, diagnostic_code::duplicate_field).message ==
              "parameter 'seconds' appears twice in one node record");
    }

    TEST_CASE("keeps raw bytes out of syntax messages and names integers beyond 64 bits") {
        diagnostic d =
            only(load_json("[{\"id\": 1, \"type\": \"A\xff\"}]"), diagnostic_code::invalid_utf8);
        CHECK(d.message.find("last read") == std::string::npos);
        CHECK(d.message.find('\xff') == std::string::npos);
        CHECK(only(load_json(json_tree({R"({"id": -99999999999999999999, "type": "Wander"})"})),
                   diagnostic_code::wrong_field_type)
                  .message == "'id' must be an integer, not an integer beyond 64 bits");
    }

    TEST_CASE("a misspelled parentId does not make its record a second root") {
        load_result r = load_json(json_tree(
            {R"({"id": 1, "type": "Sequence"})", R"({"id": 2, "parent": 1, "type": "Wander"})"}));
        CHECK(testing::codes(r) == std::vector<diagnostic_code>{diagnostic_code::unknown_field});
    }
}
