// The JSON Schema of flat JSON for a registry's node types (canopy/views/schema.hpp).
#include "canopy/views/schema.hpp"

#include <nlohmann/json.hpp>

#include "canopy/records/records.hpp"
#include "canopy/run/registry.hpp"
#include "load/subtree_node.hpp"
#include "views/param_json.hpp"

namespace canopy {
namespace {

using json = nlohmann::ordered_json;

json key_reference() {
    return {{"type", "string"},
            {"pattern", "^\\{@?[^{}]+\\}$"},
            {"description", "a blackboard key, read at each tick"}};
}

// What a parameter's value may be: a literal of its type or "{key}".
json param_schema(const param_spec& spec) {
    json schema;
    auto literal_or_key = [](const char* type) {
        return json{{"anyOf", json::array({json{{"type", type}}, key_reference()})}};
    };
    if (spec.output) {
        schema = {{"type", "string"}, {"description", "the blackboard key it writes: \"{key}\""}};
    } else {
        switch (spec.type) {
            case param_type::integer: schema = literal_or_key("integer"); break;
            case param_type::number: schema = literal_or_key("number"); break;
            case param_type::boolean: schema = literal_or_key("boolean"); break;
            case param_type::string: schema = {{"type", "string"}}; break;
            case param_type::script:
                schema = {{"type", "string"}, {"description", "a script (docs/scripting.md)"}};
                break;
            case param_type::key:
                schema = {{"type", "string"}, {"description", "a blackboard key's name"}};
                break;
            case param_type::key_value:
                schema = {{"type", json::array({"integer", "number", "boolean", "string"})}};
                break;
            case param_type::any: schema = json::object(); break;
            case param_type::custom:
                schema = {{"type", "string"},
                          {"description", "a " + spec.custom->name + " as text, or \"{key}\""}};
                break;
        }
    }
    if (spec.default_value) schema["default"] = detail::json_value(*spec.default_value);
    return schema;
}

std::string type_summary(const node_type& type) {
    std::string text(to_string(type.arity));
    for (const param_spec& spec : type.params) {
        text += (&spec == &type.params.front() ? "; " : ", ") + spec.name + ": " +
                std::string(spec.type_name());
        if (!spec.default_value && !spec.output) text += " (required)";
    }
    return text;
}

// The names a type is written by: its own and its aliases.
std::vector<std::string> names_of(const registry& reg, const node_type& type) {
    std::vector<std::string> names{type.name};
    for (const auto& [alias, target] : reg.aliases()) {
        if (target == type.name) names.push_back(alias);
    }
    return names;
}

json params_schema(const node_type& type) {
    json properties = json::object();
    json required = json::array();
    for (const param_spec& spec : type.params) {
        properties[spec.name] = param_schema(spec);
        if (!spec.default_value && !spec.output && spec.type != param_type::any)
            required.push_back(spec.name);
    }
    for (std::string_view condition : condition_params) {
        properties[std::string(condition)] = {
            {"type", "string"},
            {"description", "a BehaviorTree.CPP script condition (docs/scripting.md)"}};
    }
    json schema = {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
    if (!required.empty()) schema["required"] = required;
    return schema;
}

}  // namespace

std::string json_schema(const registry& reg) {
    json type_names = json::array();
    json rules = json::array();
    for (const node_type& type : reg.types()) {
        const std::vector<std::string> names = names_of(reg, type);
        json matches = json::array();
        for (const std::string& name : names) {
            type_names.push_back({{"const", name}, {"description", type_summary(type)}});
            matches.push_back(name);
        }
        if (type.id) matches.push_back(*type.id);
        json when = {{"properties", {{"type", {{"enum", matches}}}}}, {"required", {"type"}}};
        json params = params_schema(type);
        json then = {{"properties", {{"params", params}}}};
        if (params.contains("required")) then["required"] = json::array({"params"});
        rules.push_back({{"if", when}, {"then", then}});
    }
    const std::string subtree(detail::subtree_type_name);
    type_names.push_back(
        {{"const", subtree},
         {"description", "uses another tree: params tree or file, the rest remap its keys"}});
    json subtree_params = {{"type", "object"}};
    subtree_params["properties"]["tree"] = {{"type", "string"}};
    subtree_params["properties"]["file"] = {{"type", "string"}};
    subtree_params["properties"]["_autoremap"] = {{"type", "boolean"}};
    for (std::string_view condition : condition_params) {
        subtree_params["properties"][std::string(condition)] = {{"type", "string"}};
    }
    json subtree_rule;
    subtree_rule["if"]["properties"]["type"]["const"] = subtree;
    subtree_rule["if"]["required"] = json::array({"type"});
    subtree_rule["then"]["properties"]["params"] = subtree_params;
    rules.push_back(subtree_rule);

    json record = {
        {"type", "object"},
        {"properties",
         {{"id", {{"type", "integer"}, {"not", {{"const", 0}}}}},
          {"parentId", {{"type", json::array({"integer", "null"})}}},
          {"type", {{"anyOf", json::array({{{"oneOf", type_names}}, {{"type", "integer"}}})}}},
          {"describe", {{"type", "string"}}},
          {"params", {{"type", "object"}}}}},
        {"required", {"id", "type"}},
        {"additionalProperties", false},
        {"allOf", rules}};
    json key_declaration = {
        {"anyOf",
         json::array(
             {{{"enum", {"integer", "number", "boolean", "string"}}},
              {{"type", "object"},
               {"properties",
                {{"type", {{"enum", {"integer", "number", "boolean", "string"}}}},
                 {"default", {{"type", json::array({"integer", "number", "boolean", "string"})}}}}},
               {"required", {"type"}},
               {"additionalProperties", false}}})}};
    // A file's rules and node models (docs/formats.md, "Rules" and "Node models").
    const json file_rules = {{"enum", {"btcpp", "behavior3"}}};
    const json port = {{"type", "object"},
                       {"properties",
                        {{"name", {{"type", "string"}}},
                         {"direction", {{"enum", {"input", "output", "inout"}}}},
                         {"type", {{"type", "string"}}},
                         {"default", {{"type", "string"}}},
                         {"description", {{"type", "string"}}}}},
                       {"required", {"name"}},
                       {"additionalProperties", false}};
    const json model = {{"type", "object"},
                        {"properties",
                         {{"type", {{"type", "string"}}},
                          {"kind", {{"enum", {"action", "condition", "decorator", "composite"}}}},
                          {"namesake", {{"type", "boolean"}}},
                          {"ports", {{"type", "array"}, {"items", port}}},
                          {"description", {{"type", "string"}}}}},
                        {"required", {"type"}},
                        {"additionalProperties", false}};
    const json models = {{"type", "array"}, {"items", model}};
    const json overrides = {{"type", "object"}, {"additionalProperties", {{"type", "object"}}}};
    json tree = {{"type", "object"},
                 {"properties",
                  {{"$schema", {{"type", "string"}}},
                   {"rules", file_rules},
                   {"models", models},
                   {"overrides", overrides},
                   {"name", {{"type", "string"}}},
                   {"blackboard", {{"type", "object"}, {"additionalProperties", key_declaration}}},
                   {"nodes", {{"$ref", "#/$defs/records"}}}}},
                 {"required", {"nodes"}},
                 {"additionalProperties", false}};
    json listed_tree = tree;
    listed_tree["properties"].erase("$schema");
    listed_tree["properties"].erase("rules");
    listed_tree["properties"].erase("models");
    listed_tree["properties"].erase("overrides");
    json forest = {{"type", "object"},
                   {"properties",
                    {{"$schema", {{"type", "string"}}},
                     {"rules", file_rules},
                     {"models", models},
                     {"overrides", overrides},
                     {"main_tree", {{"type", "string"}}},
                     {"include", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                     {"trees", {{"type", "array"}, {"items", {{"$ref", "#/$defs/listed_tree"}}}}}}},
                   {"required", {"trees"}},
                   {"additionalProperties", false}};
    json schema = {
        {"$schema", "https://json-schema.org/draft/2020-12/schema"},
        {"title", "Canopy flat JSON tree"},
        {"description", "A behavior tree as node records (docs/formats.md), for these node types"},
        {"oneOf", json::array({{{"$ref", "#/$defs/tree"}},
                               {{"$ref", "#/$defs/forest"}},
                               {{"$ref", "#/$defs/records"}}})},
        {"$defs",
         {{"records", {{"type", "array"}, {"items", {{"$ref", "#/$defs/record"}}}}},
          {"record", record},
          {"tree", tree},
          {"listed_tree", listed_tree},
          {"forest", forest}}}};
    return schema.dump(2) + "\n";
}

}  // namespace canopy
