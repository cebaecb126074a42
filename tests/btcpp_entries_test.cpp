// canopy::btcpp's blackboard entries, outside a tree, as BehaviorTree.CPP 4.10 keeps them, and
// the utilities its programs use beside them: TypeInfo, the JSON exporter's vectors, Any's
// casts to bool, Expected compared with a value, SimpleString, wildcards_match.

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "behaviortree_cpp/blackboard.h"
#include "behaviortree_cpp/json_export.h"
#include "behaviortree_cpp/utils/simple_string.hpp"
#include "behaviortree_cpp/utils/wildcards.hpp"

TEST_SUITE("btcpp entries") {
    TEST_CASE("a std::string makes an entry of no type, which the next value types") {
        auto bb = BT::Blackboard::create();
        bb->set("key", std::string("42"));
        REQUIRE(bb->entryInfo("key") != nullptr);
        CHECK_FALSE(bb->entryInfo("key")->isStronglyTyped());
        bb->set("key", 7);
        CHECK(bb->entryInfo("key")->type() == typeid(int));
        CHECK(bb->get<int>("key") == 7);
        // A string literal is not a std::string: its entry is typed at once.
        bb->set("literal", "hello");
        CHECK(bb->entryInfo("literal")->isStronglyTyped());
    }

    TEST_CASE("a typed entry takes text its type reads and numbers its type holds, nothing else") {
        auto bb = BT::Blackboard::create();
        bb->set("count", 5);
        bb->set("count", std::string("12"));
        CHECK(bb->get<int>("count") == 12);
        bb->set("count", 3.0);
        CHECK(bb->get<int>("count") == 3);
        CHECK_THROWS_AS(bb->set("count", 3.5), BT::LogicError);
        CHECK_THROWS_AS(bb->set("count", std::string("abc")), BT::RuntimeError);
        CHECK(bb->get<int>("count") == 3);

        // Numbers as BehaviorTree.CPP 4.10 takes them: an `int` never into a 64-bit entry.
        bb->set("wide", std::int64_t{1});
        CHECK_THROWS_AS(bb->set("wide", 5), BT::LogicError);
        CHECK_NOTHROW(bb->set("wide", std::int64_t{5}));
        bb->set("narrow", 1);
        CHECK_NOTHROW(bb->set("narrow", std::int64_t{7}));
        CHECK(bb->get<int>("narrow") == 7);
        CHECK_NOTHROW(bb->set("narrow", true));

        bb->createEntry("small", BT::TypeInfo::Create<std::uint8_t>());
        bb->set("small", 200);
        CHECK(bb->get<int>("small") == 200);
        CHECK_THROWS_AS(bb->set("small", 300), BT::LogicError);
        CHECK_THROWS_AS(bb->set("small", -1), BT::LogicError);
    }

    TEST_CASE("an entry made as BT::Any takes values of any type") {
        auto bb = BT::Blackboard::create();
        bb->createEntry("any", BT::TypeInfo::Create<BT::Any>());
        CHECK_NOTHROW(bb->set("any", BT::Any(42)));
        CHECK_NOTHROW(bb->set("any", BT::Any(std::string("hello"))));
        CHECK(bb->get<std::string>("any") == "hello");
        // Once made by a value, the wrapper does not bypass the type.
        bb->set("int", BT::Any(42));
        CHECK_THROWS_AS(bb->set("int", BT::Any(std::string("hello"))), BT::LogicError);
    }

    TEST_CASE("getStamped counts the writes and gives their time") {
        auto bb = BT::Blackboard::create();
        int value = 0;
        CHECK_FALSE(bb->getStamped<int>("value"));
        CHECK_FALSE(bb->getStamped("value", value));
        const auto before = std::chrono::steady_clock::now().time_since_epoch();
        bb->set("value", 42);
        bb->set("value", 69);
        auto stamped = bb->getStamped<int>("value");
        REQUIRE(stamped);
        CHECK(stamped->value == 69);
        CHECK(stamped->stamp.seq == 2);
        CHECK(stamped->stamp.time >= before);
        auto stamp = bb->getStamped("value", value);
        REQUIRE(stamp);
        CHECK(value == 69);
        CHECK(stamp->seq == 2);
    }

    TEST_CASE("a remapped name reads and writes its parent's key") {
        auto parent = BT::Blackboard::create();
        parent->set("speed", 3);
        auto child = BT::Blackboard::create(parent);
        child->addSubtreeRemapping("local_speed", "speed");
        CHECK(child->get<int>("local_speed") == 3);
        child->set("local_speed", 9);
        CHECK(parent->get<int>("speed") == 9);
        CHECK(child->entryInfo("local_speed")->type() == typeid(int));
    }

    TEST_CASE("TypeInfo: untyped by default, typed by Create, BT::Any untyped") {
        CHECK_FALSE(BT::TypeInfo().isStronglyTyped());
        CHECK(BT::TypeInfo::Create<int>().isStronglyTyped());
        CHECK(BT::TypeInfo::Create<std::string>().isStronglyTyped());
        CHECK_FALSE(BT::TypeInfo::Create<BT::Any>().isStronglyTyped());
        CHECK(BT::TypeInfo::Create<int>().parseString("17").cast<int>() == 17);
    }

    TEST_CASE("the JSON exporter reads arrays back as vectors of their elements' type") {
        BT::JsonExporter& exporter = BT::JsonExporter::get();
        nlohmann::json json;
        REQUIRE(exporter.toJson(BT::Any(std::vector<int>{1, 2, 3}), json));
        CHECK(json == nlohmann::json::array({1, 2, 3}));
        auto ints = exporter.fromJson(json);
        REQUIRE(ints);
        CHECK(ints->first.cast<std::vector<int>>() == std::vector<int>{1, 2, 3});
        CHECK(ints->second.type() == typeid(std::vector<int>));
        auto words = exporter.fromJson(nlohmann::json::array({"a", "b"}));
        REQUIRE(words);
        CHECK(words->first.cast<std::vector<std::string>>() == std::vector<std::string>{"a", "b"});
        CHECK_FALSE(exporter.fromJson(nlohmann::json::array({nlohmann::json::object()})));
        auto number = exporter.fromJson(nlohmann::json(2.5));
        REQUIRE(number);
        CHECK(number->second.type() == typeid(double));
    }

    namespace {
    struct Spot {
        double x = 0;
        double y = 0;
    };
    }  // namespace

    TEST_CASE("converters given as functions convert vectors of their type too") {
        BT::JsonExporter& exporter = BT::JsonExporter::get();
        exporter.addConverter<Spot>(std::function<void(const Spot&, nlohmann::json&)>(
            [](const Spot& spot, nlohmann::json& out) {
                out = {{"x", spot.x}, {"y", spot.y}};
            }));
        exporter.addConverter<Spot>(std::function<void(const nlohmann::json&, Spot&)>(
            [](const nlohmann::json& in, Spot& spot) {
                spot.x = in.at("x").get<double>();
                spot.y = in.at("y").get<double>();
            }));
        nlohmann::json json;
        REQUIRE(exporter.toJson(BT::Any(std::vector<Spot>{{1, 2}, {3, 4}}), json));
        REQUIRE(json.size() == 2);
        CHECK(json[1]["x"] == 3.0);
        CHECK(json[1]["__type"] == BT::demangle(typeid(Spot)));
        auto back = exporter.fromJson(json);
        REQUIRE(back);
        const auto spots = back->first.cast<std::vector<Spot>>();
        REQUIRE(spots.size() == 2);
        CHECK(spots[0].y == 2.0);
    }

    TEST_CASE("Any casts to bool as BehaviorTree.CPP's: 0 or 1, a real not 0, never text") {
        CHECK(BT::Any(1).cast<bool>());
        CHECK_FALSE(BT::Any(0).cast<bool>());
        CHECK_THROWS(BT::Any(42).cast<bool>());
        CHECK(BT::Any(44.1).cast<bool>());
        CHECK_FALSE(BT::Any(0.0).cast<bool>());
        CHECK_THROWS(BT::Any(std::string("true")).cast<bool>());
    }

    TEST_CASE("Expected compares with a value it holds") {
        BT::Expected<int> held = 3;
        BT::Expected<int> failed = nonstd::make_unexpected(std::string("no"));
        CHECK(held == 3);
        CHECK(held != 4);
        CHECK(failed != 3);
        CHECK_FALSE(held == failed);
    }

    TEST_CASE("SimpleString keeps up to 15 characters in itself, longer ones on the heap") {
        SafeAny::SimpleString small("123456789012345");
        CHECK(small.isSOO());
        CHECK(small.size() == 15);
        CHECK(small.toStdString() == "123456789012345");
        SafeAny::SimpleString large(std::string(40, 'x'));
        CHECK_FALSE(large.isSOO());
        CHECK(large.size() == 40);
        SafeAny::SimpleString moved(std::move(large));
        CHECK(moved.size() == 40);
        CHECK(large.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty, as specified
        moved = small;
        CHECK(moved.isSOO());
        CHECK(moved == small);
        CHECK(SafeAny::SimpleString("app") < SafeAny::SimpleString("apple"));
        CHECK(sizeof(SafeAny::SimpleString) == 16);
        CHECK_THROWS_AS(SafeAny::SimpleString("x", SafeAny::SimpleString::MAX_SIZE + 1),
                        std::invalid_argument);
    }

    TEST_CASE("wildcards_match: '*' any run, '?' one character") {
        CHECK(wildcards_match("prefix/suffix", "*/suffix"));
        CHECK(wildcards_match("prefix/suffix", "pre*fix"));
        CHECK(wildcards_match("abc", "a?c"));
        CHECK_FALSE(wildcards_match("prefix/suffix", "pre*fi"));
        CHECK_FALSE(wildcards_match("prefix/suffix", "re*fix"));
    }

}  // TEST_SUITE
