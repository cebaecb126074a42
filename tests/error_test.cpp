// One error model: everything Canopy throws is a canopy::error with a stable code.
#include <set>
#include <string>

#include "test_support.hpp"

using namespace canopy;

namespace {

// The code of the canopy::error that `call` throws; fails the test if it throws another
// exception or none.
template <typename Call>
std::string code_thrown(Call call) {
    try {
        call();
    } catch (const canopy::error& e) {
        return std::string(to_string(e.code()));
    } catch (const std::exception& e) {
        FAIL("threw something else than a canopy::error: " << e.what());
    }
    FAIL("threw nothing");
    return {};
}

}  // namespace

TEST_SUITE("errors") {
    TEST_CASE("each error code has its own stable spelling") {
        std::set<std::string> spellings;
        for (int code = 0; code <= static_cast<int>(error_code::snapshot); ++code) {
            const std::string spelling(to_string(static_cast<error_code>(code)));
            CHECK(spelling != "unknown");
            CHECK(spellings.insert(spelling).second);
        }
        CHECK(to_string(error_code::invalid_argument) == "invalid-argument");
        CHECK(to_string(error_code::not_runnable) == "not-runnable");
    }

    TEST_CASE("a parameter read as what it is not is a param error, not a standard exception") {
        const param declared[] = {{"count", param_value{std::int64_t{3}}},
                                  {"bound", param_value{std::int64_t{0}}, 0}};
        const param_list params(declared, 2);
        CHECK(params.get<std::int64_t>("count") == 3);
        CHECK(code_thrown([&] { (void)params.get<std::int64_t>("missing"); }) == "param");
        CHECK(code_thrown([&] { (void)params.get<std::int64_t>("bound"); }) == "param");
        CHECK(code_thrown([&] { (void)params.get<double>("count"); }) == "param");
        CHECK(code_thrown([&] { input<std::int64_t>(params, "missing"); }) == "param");
        CHECK(code_thrown([&] { input<bool>(params, "count"); }) == "param");
        CHECK(code_thrown([&] { output<std::int64_t>(params, "missing"); }) == "param");
        CHECK_THROWS_WITH_AS(params.get<double>("count"),
                             "parameter 'count' is integer, not read as the type asked for",
                             param_error);
    }

    TEST_CASE("the library's refusals carry their codes") {
        registry reg;
        register_builtin_nodes(reg);
        CHECK(code_thrown([&] { reg.add_leaf("Sequence"); }) == "registry");
        CHECK(code_thrown([&] { load_file("no/such/file.json", reg); }) == "load");
        CHECK(code_thrown([&] { write_palette(reg, file_format::flat_xml); }) == "unsupported");
        CHECK(code_thrown([&] { agent(std::shared_ptr<const tree>{}); }) == "invalid-argument");

        record_set records;
        records.add(1, 0, "Wait");
        records.add_param("seconds", param_value{1.0});
        const load_result built = build_tree(records, reg);
        REQUIRE(built);
        agent waiting(built.tree);
        CHECK(code_thrown([&] { waiting.tick(-1.0); }) == "invalid-argument");
        CHECK(code_thrown([&] { (void)waiting.blackboard().slot("nothing"); }) == "blackboard");

        registry without_behaviour;
        without_behaviour.add_leaf("Idle");
        record_set idle;
        idle.add(1, 0, "Idle");
        const load_result inert = build_tree(idle, without_behaviour);
        REQUIRE(inert);
        CHECK(code_thrown([&] { agent(inert.tree); }) == "not-runnable");
    }
}
