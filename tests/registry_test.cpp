#include "test_support.hpp"

using namespace canopy;

TEST_SUITE("registry") {
    TEST_CASE("finds a type by name, by alias and by numeric id") {
        registry reg;
        register_builtin_nodes(reg);
        const node_type& coin = reg.add_leaf("CoinNearby", 100);
        CHECK(reg.find("CoinNearby") == &coin);
        CHECK(reg.find(std::int64_t{100}) == &coin);
        CHECK(reg.find("Fallback") == reg.find("Selector"));
        CHECK(reg.find("Inverter")->name == "Not");
        CHECK(reg.find("Selector")->arity == arity::composite);
        CHECK(reg.find("Not")->arity == arity::decorator);
        CHECK(reg.find(std::int64_t{1})->name == "Sequence");
        CHECK(reg.find("sequence") == nullptr);  // names are case-sensitive
        CHECK(reg.find(std::int64_t{999}) == nullptr);
    }

    TEST_CASE("refuses a duplicate name, alias or id") {
        registry reg;
        register_builtin_nodes(reg);
        CHECK_THROWS_AS(reg.add_leaf("Sequence"), registry_error);
        CHECK_THROWS_AS(reg.add_leaf("Fallback"), registry_error);
        CHECK_THROWS_AS(reg.add_alias("Sequence", "Selector"), registry_error);
        CHECK_THROWS_WITH_AS(reg.add_leaf("Fresh", 1),
                             "node type id 1 of 'Fresh' is already used by 'Sequence'",
                             registry_error);
        CHECK(reg.find("Fresh") == nullptr);  // a refused type leaves no trace
    }

    TEST_CASE("refuses an empty name, an alias of nothing and bad parameter declarations") {
        registry reg;
        CHECK_THROWS_AS(reg.add_leaf(""), registry_error);
        CHECK_THROWS_AS(reg.add_alias("Other", "Missing"), registry_error);
        SUBCASE("a default of the wrong type") {
            node_type type{
                "Bad", {}, arity::leaf, {{"count", param_type::integer, param_value{1.5}}}, {}};
            CHECK_THROWS_WITH_AS(
                reg.add(type),
                "the default of parameter 'count' of node type 'Bad' is a number, not an integer",
                registry_error);
        }
        SUBCASE("a parameter declared twice") {
            node_type type{"Bad",
                           {},
                           arity::leaf,
                           {param_spec::optional("x", true), param_spec::optional("x", false)},
                           {}};
            CHECK_THROWS_AS(reg.add(type), registry_error);
        }
        SUBCASE("an output that is not of a value type") {
            node_type type{
                "Bad", {}, arity::leaf, {param_spec::output_port("k", param_type::key)}, {}};
            CHECK_THROWS_WITH_AS(reg.add(type),
                                 "output parameter 'k' of node type 'Bad' must be of a value type: "
                                 "integer, number, boolean or string",
                                 registry_error);
        }
        SUBCASE("a null function for an action or a condition") {
            CHECK_THROWS_AS(reg.add_action("A", std::function<status(context&)>()), registry_error);
            CHECK_THROWS_AS(reg.add_condition("C", static_cast<bool (*)(context&)>(nullptr)),
                            registry_error);
        }
        SUBCASE("a blackboard key of another type, or with an initial value of another type") {
            reg.add_key("mode", param_type::string, std::string("idle"));
            CHECK_THROWS_AS(reg.add_key("mode", param_type::string), registry_error);
            CHECK_THROWS_AS(reg.add_key("k", param_type::key), registry_error);
            CHECK_THROWS_AS(reg.add_key("n", param_type::integer, 1.5), registry_error);
            CHECK_THROWS_AS(reg.add_key("c", param_type::custom), registry_error);
            CHECK_THROWS_AS(reg.add_key("p", "Pose2D", std::nullopt), registry_error);
            reg.add_key("s", param_type::string, std::string(640, 'x'));  // strings: no cap
        }
        CHECK(reg.types().empty());
    }

    TEST_CASE("leaves from lambdas, function pointers and std::function all run") {
        registry reg;
        register_builtin_nodes(reg);
        int calls = 0;
        reg.add_action("Count", [&calls](context&) {
            ++calls;
            return status::success;
        });
        reg.add_condition(
            "Even", +[](context& ctx) { return ctx.time_ns() % 2 == 0; });
        reg.add_condition("Never", std::function<bool(context&)>([](context&) { return false; }));
        load_result loaded = try_load_text(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "Count"}, {"id": 3, "parentId": 1, "type": "Even"},
            {"id": 4, "parentId": 1, "type": "Never"}])",
                                           file_format::flat_json, reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0.0) == status::failure);  // Count, then Even (time 0), then Never fails
        CHECK(calls == 1);
        CHECK(a.last_status(2) == status::success);
    }

    TEST_CASE("lists types in registration order and aliases sorted") {
        registry reg;
        register_builtin_nodes(reg);
        std::vector<std::string> names;
        for (const node_type& type : reg.types()) names.push_back(type.name);
        CHECK(names == std::vector<std::string>{"Sequence",
                                                "Selector",
                                                "ReactiveSequence",
                                                "ReactiveSelector",
                                                "Parallel",
                                                "RandomSelector",
                                                "SequenceWithMemory",
                                                "ParallelAll",
                                                "AsyncSequence",
                                                "AsyncFallback",
                                                "IfThenElse",
                                                "WhileDoElse",
                                                "Switch2",
                                                "Switch3",
                                                "Switch4",
                                                "Switch5",
                                                "Switch6",
                                                "Switch",
                                                "PipelineSequence",
                                                "RoundRobin",
                                                "RecoveryNode",
                                                "TryCatch",
                                                "Not",
                                                "Repeat",
                                                "RepeatUntilSuccess",
                                                "RepeatUntilFailure",
                                                "Retry",
                                                "ForceSuccess",
                                                "ForceFailure",
                                                "Timeout",
                                                "Cooldown",
                                                "RunOnce",
                                                "Delay",
                                                "Precondition",
                                                "RateController",
                                                "Limiter",
                                                "MaxTime",
                                                "BlackboardCheckInt",
                                                "BlackboardCheckDouble",
                                                "BlackboardCheckString",
                                                "AlwaysSuccess",
                                                "AlwaysFailure",
                                                "AlwaysRunning",
                                                "Wait",
                                                "WaitTicks",
                                                "Log",
                                                "CheckBlackboard",
                                                "SetBlackboard",
                                                "Script",
                                                "ScriptCondition",

                                                "UnsetBlackboard",
                                                "WasEntryUpdated",
                                                "SkipUnlessUpdated",
                                                "WaitValueUpdate",
                                                "LoopInt",
                                                "LoopDouble",
                                                "LoopString",
                                                "LoopBool"});
        using alias = std::pair<std::string, std::string>;
        CHECK(reg.aliases() == std::vector<alias>{{"Failer", "AlwaysFailure"},
                                                  {"Fallback", "Selector"},
                                                  {"Inverter", "Not"},
                                                  {"KeepRunningUntilFailure", "RepeatUntilFailure"},
                                                  {"MemPriority", "Selector"},
                                                  {"MemSequence", "Sequence"},
                                                  {"Priority", "ReactiveSelector"},
                                                  {"ReactiveFallback", "ReactiveSelector"},
                                                  {"RetryUntilSuccessful", "Retry"},
                                                  {"Runner", "AlwaysRunning"},
                                                  {"Sleep", "Wait"},
                                                  {"Succeeder", "AlwaysSuccess"}});
        // behavior3's family comes on its own, after them, and adds no alias.
        register_behavior3_nodes(reg);
        std::vector<std::string> family;
        for (std::size_t k = names.size(); k < reg.types().size(); ++k)
            family.push_back(reg.types()[k].name);
        CHECK(family == std::vector<std::string>{"behavior3.Parallel",
                                                 "behavior3.Switch",
                                                 "behavior3.Case",
                                                 "behavior3.Watchdog",
                                                 "behavior3.Repeat",
                                                 "behavior3.RetryUntilSuccess",
                                                 "behavior3.RetryUntilFailure",
                                                 "behavior3.RepeatUntilSuccess",
                                                 "behavior3.RepeatUntilFailure",
                                                 "behavior3.Timeout",
                                                 "behavior3.AlwaysRunning",
                                                 "behavior3.Once",
                                                 "behavior3.Wait",
                                                 "behavior3.WaitForEvent",
                                                 "behavior3.Listen",
                                                 "behavior3.Delay",
                                                 "behavior3.Check",
                                                 "behavior3.Calculate",
                                                 "behavior3.Let",
                                                 "behavior3.Assert",
                                                 "behavior3.Now",
                                                 "behavior3.Math",
                                                 "behavior3.IsNull",
                                                 "behavior3.NotNull",
                                                 "behavior3.Clear",
                                                 "behavior3.Push",
                                                 "behavior3.Index",
                                                 "behavior3.GetField",
                                                 "behavior3.SetField",
                                                 "behavior3.Concat",
                                                 "behavior3.RandomIndex",
                                                 "behavior3.Includes",
                                                 "behavior3.ForEach",
                                                 "behavior3.Filter"});
        CHECK(reg.aliases().size() == 12);
    }

    TEST_CASE("suggests the nearest registered name for a typo") {
        registry reg;
        register_builtin_nodes(reg);
        CHECK(reg.nearest_name("Sequnce") == "Sequence");
        CHECK(reg.nearest_name("sequence") == "Sequence");
        CHECK(reg.nearest_name("Selectr") == "Selector");
        CHECK(reg.nearest_name("Fallbak") == "Fallback");
        CHECK(reg.nearest_name("Nto") == "Not");
        CHECK(reg.nearest_name("Teleport").empty());
    }

    TEST_CASE("a tree outlives the registry it was built with") {
        std::shared_ptr<const tree> t;
        {
            registry reg = testing::test_registry();
            record_set records;
            records.add(1, 0, "Counted");
            records.add_param("count", std::int64_t{3});
            records.add(2, 1, "CoinNearby");
            load_result built = build_tree(records, reg);
            REQUIRE(built);
            t = built.tree;
        }
        CHECK(t->type_name(0) == "Counted");
        CHECK(t->type(1).id == 100);
        CHECK(dynamic_cast<const testing::counted_node*>(t->object(0))->count == 3);
    }

    TEST_CASE("add<Node> calls exactly the hooks a class overrides, found through its bases") {
        struct calls {
            int enters = 0, exits = 0, halts = 0;
        };
        struct counts_enter : node {
            void enter(context& ctx) const override { ++ctx.host<calls>().enters; }
            status tick(context&) const override { return status::success; }
        };
        // Overrides exit only; inherits counts_enter's enter.
        struct counts_exit final : counts_enter {
            void exit(context& ctx, status) const override { ++ctx.host<calls>().exits; }
            status tick(context&) const override { return status::success; }
        };
        struct counts_halt final : node {
            void halt(context& ctx) const override { ++ctx.host<calls>().halts; }
            status tick(context&) const override { return status::running; }
        };
        struct plain final : node {
            status tick(context&) const override { return status::success; }
        };
        static_assert(detail::overridden_hooks<plain>() == 0);
        static_assert(detail::overridden_hooks<counts_exit>() ==
                      (static_cast<int>(node::hook::enter) | static_cast<int>(node::hook::exit)));
        registry reg;
        register_builtin_nodes(reg);
        CHECK(reg.add<counts_enter>("Enters").hooks == static_cast<int>(node::hook::enter));
        CHECK(reg.add<counts_halt>("Halts").hooks == static_cast<int>(node::hook::halt));
        reg.add<counts_exit>("Exits");
        CHECK(reg.add<plain>("Plain").hooks == 0);
        load_result loaded = try_load_text(
            R"([{"id": 1, "type": "Sequence"}, {"id": 2, "parentId": 1, "type": "Enters"},
            {"id": 3, "parentId": 1, "type": "Exits"}, {"id": 4, "parentId": 1, "type": "Halts"}])",
            file_format::flat_json, reg);
        REQUIRE(loaded);
        calls host;
        agent a(loaded.tree, &host);
        CHECK(a.tick(0.1) == status::running);
        CHECK(host.enters == 2);  // Enters, and Exits by the enter it inherits
        CHECK(host.exits == 1);   // Exits only: Enters finished too, but has no exit
        CHECK(host.halts == 0);
        a.reset();
        CHECK(host.halts == 1);
    }

    TEST_CASE("a node made by a hand-written creator gets every hook") {
        struct calls {
            int enters = 0;
        };
        struct counts_enter final : node {
            void enter(context& ctx) const override { ++ctx.host<calls>().enters; }
            status tick(context&) const override { return status::success; }
        };
        registry reg;
        const node_type& type =
            reg.add({"Made", std::nullopt, arity::leaf, {}, [](const param_list&) {
                         return std::unique_ptr<node>(new counts_enter());
                     }});
        CHECK(type.hooks == node::all_hooks);
        load_result loaded =
            try_load_text(R"([{"id": 1, "type": "Made"}])", file_format::flat_json, reg);
        REQUIRE(loaded);
        calls host;
        agent a(loaded.tree, &host);
        a.tick(0.1);
        a.tick(0.1);
        CHECK(host.enters == 2);
    }

    TEST_CASE("add<Node> takes the parameters the class declares beside its constructor") {
        struct scaled final : node {
            static std::vector<param_spec> parameters() {
                return {param_spec::required("factor", param_type::integer),
                        param_spec::optional("label", std::string("x"))};
            }
            explicit scaled(const param_list& params)
                : factor(params.get<std::int64_t>("factor")) {}
            status tick(context&) const override {
                return factor > 0 ? status::success : status::failure;
            }
            std::int64_t factor;
        };
        registry reg;
        const node_type& type = reg.add<scaled>("Scaled", 500);
        REQUIRE(type.params.size() == 2);
        CHECK(type.params[0].name == "factor");
        CHECK(type.params[1].name == "label");
        load_result good =
            try_load_text(R"([{"id": 1, "type": "Scaled", "params": {"factor": 2}}])",
                          file_format::flat_json, reg, "t.json");
        REQUIRE(good);
        CHECK(agent(good.tree).tick(0.1) == status::success);
        load_result unknown =
            try_load_text(R"([{"id": 1, "type": "Scaled", "params": {"factor": 2, "speed": 1}}])",
                          file_format::flat_json, reg, "t.json");
        CHECK_FALSE(unknown);
        load_result missing = try_load_text(R"([{"id": 1, "type": "Scaled"}])",
                                            file_format::flat_json, reg, "t.json");
        CHECK_FALSE(missing);
    }

    TEST_CASE("a node reading a parameter its class does not declare is reported at its record") {
        struct misread final : node {
            static std::vector<param_spec> parameters() {
                return {param_spec::optional("count", std::int64_t{1})};
            }
            explicit misread(const param_list& params) : count(params.get<std::int64_t>("cuont")) {}
            status tick(context&) const override { return status::success; }
            std::int64_t count;
        };
        struct mistyped final : node {
            static std::vector<param_spec> parameters() {
                return {param_spec::optional("count", std::int64_t{1})};
            }
            explicit mistyped(const param_list& params) : count(params, "count") {}
            status tick(context&) const override { return status::success; }
            input<double> count;
        };
        registry reg;
        reg.add<misread>("Misread");
        reg.add<mistyped>("Mistyped");
        for (auto [type, named] :
             {std::pair{"Misread", "'cuont'"}, std::pair{"Mistyped", "'count'"}}) {
            const std::string type_name =
                type;  // a copy: doctest's lambda cannot capture a binding
            CAPTURE(type_name);
            load_result r = try_load_text(
                std::string("{\"nodes\": [\n{\"id\": 7, \"type\": \"") + type + "\"}\n]}",
                file_format::flat_json, reg, "t.json");
            const diagnostic d = testing::only(r, diagnostic_code::invalid_param);
            CHECK(d.where.line == 2);
            CHECK(d.record_id == 7);
            CHECK(d.message.find(named) != std::string::npos);
            CHECK(d.message.find(type) != std::string::npos);
        }
    }

    TEST_CASE("a decorator written by a user ticks its one child through ctx.child()") {
        struct twice final : node {
            status tick(context& ctx) const override {
                const status first = ctx.tick(ctx.child());
                if (first != status::success) return first;
                return ctx.tick(ctx.child());
            }
        };
        registry reg = testing::test_registry();
        reg.add<twice>("Twice", std::nullopt, arity::decorator);
        int calls = 0;
        reg.add_action("Count", [](int& n, context&) {
            ++n;
            return status::success;
        });
        load_result r = try_load_text(
            R"([{"id": 1, "type": "Twice"}, {"id": 2, "parentId": 1, "type": "Count"}])",
            file_format::flat_json, reg);
        REQUIRE(r);
        agent a(r.tree, &calls);
        CHECK(a.tick(0.1) == status::success);
        CHECK(calls == 2);
    }
}
