#include "test_support.hpp"

using namespace canopy;
using testing::json_tree;
using testing::load_json;
using testing::only;

TEST_SUITE("builder") {
    TEST_CASE("builds records given children before parents, keeping file order among siblings") {
        record_set records;
        records.add(30, 10, "Wander");
        records.add(20, 10, "CoinNearby", "first");
        records.add(10, 0, "Selector", "root");
        records.add(25, 10, "PickUpCoin");
        load_result r = build_tree(records, testing::test_registry());
        REQUIRE(r);
        const tree& t = *r.tree;
        CHECK(t.size() == 4);
        CHECK(t.record_id(tree::root) == 10);
        std::vector<std::int64_t> children;
        for (tree::index c : t.children(tree::root)) children.push_back(t.record_id(c));
        CHECK(children == std::vector<std::int64_t>{30, 20, 25});
        CHECK(t.child_count(tree::root) == 3);
        CHECK(t.parent(1) == tree::root);
        CHECK(t.parent(tree::root) == tree::no_parent);
        CHECK(t.describe(2) == "first");
        CHECK(t.describe(1).empty());
    }

    TEST_CASE("lays nodes out in preorder with subtree ranges") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Selector"})",
            R"({"id": 2, "parentId": 1, "type": "Sequence"})",
            R"({"id": 3, "parentId": 2, "type": "CoinNearby"})",
            R"({"id": 4, "parentId": 2, "type": "Not"})",
            R"({"id": 5, "parentId": 4, "type": "PickUpCoin"})",
            R"({"id": 6, "parentId": 1, "type": "Wander"})",
        }));
        REQUIRE(r);
        const tree& t = *r.tree;
        std::vector<std::int64_t> preorder;
        for (tree::index i = 0; i < t.size(); ++i) preorder.push_back(t.record_id(i));
        CHECK(preorder == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
        CHECK(t.subtree_end(0) == 6);
        CHECK(t.subtree_end(1) == 5);
        CHECK(t.subtree_end(3) == 5);
        CHECK(t.depth(4) == 3);
        CHECK(t.where(3) == source_location{5, 1});
        CHECK(t.types().size() == 6);
    }

    TEST_CASE("fills in defaults and hands checked parameters to the type's creator") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Counted", "params": {"count": 4}})",
            R"({"id": 2, "parentId": 1, "type": "Pause", "params": {"loud": true}})",
        }));
        REQUIRE(r);
        CHECK(dynamic_cast<const testing::counted_node*>(r.tree->object(0))->count == 4);
        CHECK(r.tree->object(1) == nullptr);  // Wait has no creator
        param_list wait = r.tree->params(1);
        REQUIRE(wait.size() == 3);
        CHECK(wait.begin()[0].name == "seconds");  // declaration order, not file order
        CHECK(wait.get<double>("seconds") == 1.0);
        CHECK(wait.get<bool>("loud"));
        CHECK(wait.get<std::string>("label") == "wait");
        CHECK(wait.find("missing") == nullptr);
    }

    TEST_CASE("reports an id of 0 and duplicate ids") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Sequence"})",
            R"({"id": 0, "parentId": 1, "type": "AlwaysSuccess"})",
            R"({"id": 1, "parentId": 1, "type": "AlwaysSuccess"})",
        }));
        CHECK(only(r, diagnostic_code::invalid_id).where == source_location{3, 1});
        diagnostic duplicate = only(r, diagnostic_code::duplicate_id);
        CHECK(duplicate.where == source_location{4, 1});
        CHECK(duplicate.message == "duplicate node id 1; it was first used (line 2)");
        CHECK(duplicate.record_id == 1);
    }

    TEST_CASE("reports an unknown parent and a node that is its own parent") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Sequence"})",
            R"({"id": 2, "parentId": 1, "type": "AlwaysSuccess"})",
            R"({"id": 3, "parentId": 42, "type": "AlwaysSuccess"})",
            R"({"id": 4, "parentId": 4, "type": "AlwaysSuccess"})",
        }));
        diagnostic unknown = only(r, diagnostic_code::unknown_parent);
        CHECK(unknown.where.line == 4);
        CHECK(unknown.message == "parent id 42 of node 3 names no node");
        diagnostic self = only(r, diagnostic_code::self_parent);
        CHECK(self.where.line == 5);
        CHECK(self.message == "node 4 is its own parent");
        CHECK_FALSE(r.tree);
    }

    TEST_CASE("reports a parent cycle once, at its first record") {
        load_result r = load_json(json_tree({
            R"({"id": 1, "type": "Sequence"})",
            R"({"id": 2, "parentId": 1, "type": "AlwaysSuccess"})",
            R"({"id": 7, "parentId": 9, "type": "Not"})",
            R"({"id": 8, "parentId": 7, "type": "Not"})",
            R"({"id": 9, "parentId": 8, "type": "Not"})",
        }));
        diagnostic cycle = only(r, diagnostic_code::parent_cycle);
        CHECK(cycle.where.line == 4);
        CHECK(cycle.message ==
              "node 7 is its own ancestor: parents run 7 -> 9 -> 8 -> 7; one of these nodes must "
              "hang from the root");
        CHECK(r.diagnostics.size() == 1);
    }

    TEST_CASE("reports no root and several roots") {
        SUBCASE("no root") {
            load_result r = load_json(json_tree({R"({"id": 1, "parentId": 2, "type": "Not"})",
                                                 R"({"id": 2, "parentId": 1, "type": "Not"})"}));
            // Two nodes that are each other's parent: a cycle, and with it no root.
            CHECK(only(r, diagnostic_code::parent_cycle).where.line == 2);
            CHECK(only(r, diagnostic_code::no_root).where.line == 0);
        }
        SUBCASE("several roots") {
            load_result r =
                load_json(json_tree({R"({"id": 1, "type": "AlwaysSuccess"})",
                                     R"({"id": 2, "parentId": 0, "type": "AlwaysSuccess"})",
                                     R"({"id": 3, "parentId": null, "type": "AlwaysSuccess"})"}));
            std::vector<std::uint32_t> lines;
            for (const diagnostic& d : r.diagnostics) {
                CHECK(d.code == diagnostic_code::multiple_roots);
                lines.push_back(d.where.line);
            }
            CHECK(lines == std::vector<std::uint32_t>{3, 4});
            CHECK(r.diagnostics[0].message ==
                  "node 2 has no parent, but node 1 (line 2) is already the root; a tree has "
                  "exactly one root");
        }
        SUBCASE("no records at all") {
            CHECK(only(load_json("[]"), diagnostic_code::no_root).message ==
                  "the file holds no node records; a tree needs at least a root");
        }
    }

    TEST_CASE(
        "reports an unknown type name with the nearest registered one, and an unknown type id") {
        load_result r = load_json(json_tree({R"({"id": 1, "type": "Sequnce"})",
                                             R"({"id": 2, "parentId": 1, "type": 9999})",
                                             R"({"id": 3, "parentId": 1, "type": "Teleport"})"}));
        std::vector<std::string> messages;
        for (const diagnostic& d : r.diagnostics) {
            CHECK(d.code == diagnostic_code::unknown_type);
            messages.push_back(d.message);
        }
        CHECK(messages == std::vector<std::string>{
                              "unknown node type 'Sequnce' (did you mean 'Sequence'?)",
                              "unknown node type id 9999", "unknown node type 'Teleport'"});
    }

    TEST_CASE("enforces each arity") {
        SUBCASE("a leaf with children") {
            diagnostic d =
                only(load_json(json_tree({R"({"id": 1, "type": "CoinNearby"})",
                                          R"({"id": 2, "parentId": 1, "type": "Wander"})",
                                          R"({"id": 3, "parentId": 1, "type": "Wander"})"})),
                     diagnostic_code::leaf_with_children);
            CHECK(d.message == "'CoinNearby' is a leaf and takes no children, but node 1 has 2");
            CHECK(d.where.line == 2);
        }
        SUBCASE("a decorator with two children") {
            diagnostic d =
                only(load_json(json_tree({R"({"id": 1, "type": "Inverter"})",
                                          R"({"id": 2, "parentId": 1, "type": "Wander"})",
                                          R"({"id": 3, "parentId": 1, "type": "Wander"})"})),
                     diagnostic_code::decorator_child_count);
            CHECK(d.message ==  // in the file's words: the alias it wrote
                  "'Inverter' is a decorator and takes exactly one child, but node 1 has 2");
        }
        SUBCASE("a decorator without a child") {
            diagnostic d = only(load_json(json_tree({R"({"id": 1, "type": "Not"})"})),
                                diagnostic_code::decorator_child_count);
            CHECK(d.message ==
                  "'Not' is a decorator and takes exactly one child, but node 1 has 0");
        }
        SUBCASE("a composite without children") {
            diagnostic d = only(load_json(json_tree({R"({"id": 1, "type": "Fallback"})"})),
                                diagnostic_code::composite_without_children);
            CHECK(d.message ==
                  "'Fallback' is a composite and needs at least one child, but node 1 has none");
        }
    }

    TEST_CASE("reports unknown, missing, mistyped and rejected parameters") {
        SUBCASE("unknown, with a suggestion") {
            diagnostic d = only(
                load_json(json_tree({R"({"id": 1, "type": "Pause", "params": {"second": 2}})"})),
                diagnostic_code::unknown_param);
            CHECK(d.message == "'Pause' has no parameter 'second' (did you mean 'seconds'?)");
            CHECK(d.where == source_location{2, 39});  // at the parameter's key
        }
        SUBCASE("unknown, on a type that takes none") {
            diagnostic d = only(
                load_json(json_tree({R"({"id": 1, "type": "Wander", "params": {"speed": 2}})"})),
                diagnostic_code::unknown_param);
            CHECK(d.message == "'Wander' has no parameter 'speed'; it takes none");
        }
        SUBCASE("unknown, but taken by a type of a similar name") {
            diagnostic d =
                only(load_json(json_tree({R"({"id": 1, "type": "Wait", "params": {"ticks": 2}})"})),
                     diagnostic_code::unknown_param);
            CHECK(d.message ==
                  "'Wait' has no parameter 'ticks'; it takes: seconds (WaitTicks takes 'ticks')");
        }
        SUBCASE("missing") {
            load_result r = load_json(json_tree({R"({"id": 1, "type": "Counted"})",
                                                 R"({"id": 2, "parentId": 1, "type": "Wander"})"}));
            diagnostic d = only(r, diagnostic_code::missing_param);
            CHECK(d.message == "node 1 ('Counted') needs parameter 'count' (an integer)");
            CHECK(d.where.line == 2);
        }
        SUBCASE("of the wrong type") {
            diagnostic d = only(
                load_json(json_tree({R"({"id": 1, "type": "Counted", "params": {"count": 2.5}})",
                                     R"({"id": 2, "parentId": 1, "type": "Wander"})"})),
                diagnostic_code::wrong_param_type);
            CHECK(d.message ==
                  "parameter 'count' of 'Counted' must be an integer, not a number (2.5)");
        }
        SUBCASE("rejected by the creator") {
            diagnostic d = only(
                load_json(json_tree({R"({"id": 1, "type": "Counted", "params": {"count": -1}})",
                                     R"({"id": 2, "parentId": 1, "type": "Wander"})"})),
                diagnostic_code::invalid_param);
            CHECK(d.message == "node 1 ('Counted'): 'count' must not be negative");
            CHECK(d.where.line == 2);
        }
    }

    TEST_CASE("an unknown parameter names a type of a near name that takes it, and no other") {
        registry reg;
        reg.add({"Throw", std::nullopt, arity::leaf, {param_spec::optional("heat", 1.0)}, {}});
        reg.add({"Strafe", std::nullopt, arity::leaf, {param_spec::optional("side", 1.0)}, {}});
        reg.add({"Strife", std::nullopt, arity::leaf, {param_spec::optional("heat", 1.0)}, {}});
        auto message = [&](const char* type, const char* param) {
            record_set records;
            records.add(1, 0, type);
            records.add_param(param, 2.0);
            load_result r = build_tree(records, reg);
            REQUIRE(r.diagnostics.size() == 1);
            return r.diagnostics[0].message;
        };
        // A letter apart: Strife, not Throw, which takes 'heat' too but is named otherwise.
        CHECK(message("Strafe", "heat") ==
              "'Strafe' has no parameter 'heat'; it takes: side (Strife takes 'heat')");
        CHECK(message("Throw", "side") == "'Throw' has no parameter 'side'; it takes: heat");
    }

    TEST_CASE("a record's parameter text is found by name, and a value of another type is none") {
        record_set records;
        records.add(1, 0, "SubTree");
        records.add_param("file", std::int64_t{3});
        records.add_param("tree", std::string("Patrol"));
        records.add_param("file", std::string("patrol.xml"));
        records.add(2, 1, "Wander");
        REQUIRE(records.text_param(0, "tree") != nullptr);
        CHECK(*records.text_param(0, "tree") == "Patrol");
        // The first parameter of the name whose value is text.
        REQUIRE(records.text_param(0, "file") != nullptr);
        CHECK(*records.text_param(0, "file") == "patrol.xml");
        CHECK(records.text_param(0, "name") == nullptr);
        CHECK(records.text_param(1, "tree") == nullptr);
    }

    TEST_CASE("SubTree is no type of the builder's: the loader supplies it") {
        record_set records;
        records.add(1, 0, "SubTree");
        records.add_param("tree", std::string("Patrol"));
        CHECK(only(build_tree(records, testing::test_registry()), diagnostic_code::unknown_type)
                  .message == "unknown node type 'SubTree'");
    }

    TEST_CASE("builds nothing from records the reader could not read, and says nothing twice") {
        // The reader reported the unreadable parentId; the builder must not add 'no root'
        // or 'unknown parent' for what follows from it.
        load_result r = load_json(json_tree({R"({"id": 1, "parentId": "none", "type": "Sequence"})",
                                             R"({"id": 2, "parentId": 1, "type": "Wander"})"}));
        CHECK(testing::codes(r) == std::vector<diagnostic_code>{diagnostic_code::wrong_field_type});
        CHECK_FALSE(r.tree);
    }

    TEST_CASE("a tree deeper than the depth limit is refused at its first node past it") {
        // 150,000 Not decorators used to load and then overflow the stack on the first tick.
        SUBCASE("the default limit, from JSON text, children before parents") {
            const int depth = 150000;
            std::string text = "[";
            for (int id = depth; id > 1; --id) {
                text += "{\"id\": " + std::to_string(id) +
                        ", \"parentId\": " + std::to_string(id - 1) + ", \"type\": \"" +
                        (id == depth ? "AlwaysSuccess" : "Not") + "\"},\n";
            }
            text += R"({"id": 1, "type": "Not"}])";
            load_result r = load_json(text);
            diagnostic d = testing::only(r, diagnostic_code::limit_exceeded);
            CHECK(d.record_id == build_options::default_max_depth + 1);
            CHECK(d.where.line == depth - build_options::default_max_depth);  // one record a line
            CHECK(d.message ==
                  "the tree is 150000 levels deep and node 10001 is the first node past the limit "
                  "of 10000 levels (load_options::max_depth): ticking takes stack for every level");
        }
        SUBCASE("a chosen limit, either way of it") {
            build_options options;
            options.max_depth = 50;
            CHECK(build_tree(testing::not_chain(50), testing::test_registry(), "", options));
            load_result r =
                build_tree(testing::not_chain(51), testing::test_registry(), "", options);
            CHECK(testing::only(r, diagnostic_code::limit_exceeded).record_id == 51);
            options.max_depth = 20000;
            CHECK(build_tree(testing::not_chain(20000), testing::test_registry(), "", options));
        }
    }

    // A million nodes wide: limits_test.cpp, "a million siblings load".
    TEST_CASE("loads a tree 10,000 levels deep") {
        const int depth = 10000;
        load_result r = build_tree(testing::not_chain(depth), testing::test_registry());
        REQUIRE(r);
        CHECK(r.tree->size() == depth);
        CHECK(r.tree->depth(depth - 1) == depth - 1);
        CHECK(r.tree->subtree_end(0) == depth);
    }
}
