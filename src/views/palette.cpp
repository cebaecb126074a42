// Editors' palettes of a registry's node types (canopy/views/palette.hpp): Groot2's
// <TreeNodesModel>, written by the BehaviorTree.CPP XML writer from node models, and
// behavior3editor's node definitions. Names, ports and units come from the formats' own
// mapping tables (formats/btcpp_names.hpp, formats/behavior3_names.hpp), so that what a
// palette offers is what the readers map back.
#include "canopy/views/palette.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "canopy/run/registry.hpp"
#include "core/json_text.hpp"
#include "formats/behavior3_names.hpp"
#include "formats/btcpp_names.hpp"
#include "formats/readers.hpp"
#include "load/behavior3_slots.hpp"
#include "views/param_json.hpp"

namespace canopy {
namespace {

using json = nlohmann::ordered_json;
namespace b3 = detail::behavior3;

bool is_condition(const node_type& type) {
    return type.arity == arity::leaf &&
           (type.condition || detail::btcpp::canopy_model_element(type.name) == "Condition");
}

std::string palette_description(const node_type& type) {
    if (!type.description.empty()) return type.description;
    std::string text = "Canopy's " + type.name + ": a " + std::string(to_string(type.arity));
    if (type.id) text += " (type id " + std::to_string(*type.id) + ")";
    return text + "; see docs/nodes.md";
}

// A parameter as a port's or argument's description: its type, whether the file must give
// it, and `how_keys` (how a value comes from the blackboard in this editor, if it can).
std::string describe_param(const param_spec& spec, bool required, std::string_view how_keys) {
    if (spec.output) {
        return "the blackboard key it writes, as {key} (" + std::string(spec.type_name()) + ")";
    }
    std::string text(spec.type_name());
    if (spec.type == param_type::key) text = "the name of a blackboard key";
    if (spec.type == param_type::key_value) text = "a value of the type of its key";
    if (required) text += "; required";
    if (spec.type != param_type::key && spec.type != param_type::script && !how_keys.empty())
        text += "; " + std::string(how_keys);
    return text;
}

// The program's words for a parameter, when it gave some (registry::describe), before what
// the type says.
std::string describe_param(const param_spec& spec, const std::string& generic) {
    return spec.description.empty() ? generic : spec.description + " (" + generic + ")";
}

bool required(const param_spec& spec) {
    return !spec.default_value && !spec.output && spec.type != param_type::any;
}

// ---- Groot2 ----

tree_document groot_models(const registry& reg) {
    tree_document document;
    for (const node_type& type : reg.types()) {
        const std::string_view name = detail::btcpp::written_type(type.name);
        // Groot2 has BehaviorTree.CPP's own model, which the reader maps (Sleep's msec).
        if (detail::btcpp::is_builtin(name)) continue;
        node_model model;
        model.name = std::string(name);
        model.shape = type.arity;
        model.condition = is_condition(type);
        model.description = palette_description(type);
        for (const param_spec& spec : type.params) {
            port_model port;
            port.name = spec.name;
            port.dir = spec.output ? port_model::direction::output : port_model::direction::input;
            port.type = spec.custom != nullptr
                            ? spec.custom->name
                            : std::string(detail::btcpp::cpp_type_of(to_string(spec.type)));
            if (spec.default_value)
                port.default_value = detail::attribute_text(*spec.default_value);
            port.description = describe_param(
                spec, describe_param(spec, required(spec), "or {key} to read a blackboard key"));
            model.ports.push_back(std::move(port));
        }
        document.models.push_back(std::move(model));
    }
    return document;
}

// ---- behavior3editor ----

// behavior3editor's argument type for a parameter type; "?" makes it optional.
std::string b3_arg_type(param_type type, bool optional) {
    std::string text = "string";
    if (type == param_type::integer) text = "int";
    if (type == param_type::number) text = "float";
    if (type == param_type::boolean) text = "boolean";
    return optional ? text + "?" : text;
}

// Whether a parameter of a type without a table rule has an input slot.
bool slotted(const param_spec& spec) {
    return !spec.output && !spec.literal_only && spec.type != param_type::key &&
           spec.type != param_type::key_value && spec.type != param_type::script;
}

json b3_definition(const node_type& type) {
    const b3::node_rule* rule = b3::find_rule_for_canopy(type.name);
    const bool own_slots = b3::has_parameter_slots(type);
    json def;
    def["name"] = b3::written_name(type.name, rule);
    switch (type.arity) {
        case arity::leaf: def["type"] = is_condition(type) ? "Condition" : "Action"; break;
        case arity::decorator: def["type"] = "Decorator"; break;
        case arity::composite: def["type"] = "Composite"; break;
    }
    def["desc"] = palette_description(type);
    json args = json::array();
    json input = json::array();
    for (const param_spec& spec : type.params) {
        const bool optional = !required(spec);
        json arg;
        if (rule != nullptr && !rule->arg.arg.empty() && rule->arg.param == spec.name) {
            // The reader takes the parameter from the argument or from its input slot; where
            // Canopy requires it and an absent argument does not mean "for ever", the editor
            // asks for exactly one of the two (its "oneof").
            const std::string name(rule->arg.arg);
            const bool asked = !optional && rule->arg.absent != -1;
            arg["name"] = name;
            arg["type"] = b3_arg_type(spec.type, true);
            arg["desc"] = describe_param(spec, asked, "or a variable through input " + name);
            // behavior3-ts's own definitions of the family's nodes say "oneof" too, though
            // the argument is optional.
            const bool family = type.name.compare(0, b3::kept_prefix.size(), b3::kept_prefix) == 0;
            if (asked || family) arg["oneof"] = name;
            // Slots before it (none in the table today) stay optional and unnamed.
            if (rule->arg.input_slot >= 0) {
                while (input.size() < static_cast<std::size_t>(rule->arg.input_slot))
                    input.push_back("?");
                input.push_back(name + "?");
            }
        } else if (own_slots && spec.output) {
            continue;  // an output slot, below
        } else if (own_slots && slotted(spec)) {
            // An argument, or a variable through the input slot of its name: the editor asks
            // for exactly one of the two where the type requires the parameter.
            arg["name"] = spec.name;
            arg["type"] = b3_arg_type(spec.type, true);
            arg["desc"] = describe_param(
                spec, describe_param(spec, !optional, "or a variable through input " + spec.name));
            if (!optional) arg["oneof"] = spec.name;
        } else {
            arg["name"] = spec.name;
            arg["type"] = b3_arg_type(spec.type, optional);
            arg["desc"] = describe_param(
                spec,
                describe_param(spec, !optional,
                               spec.type == param_type::string ? "or {key} to read a key" : ""));
        }
        if (spec.default_value) arg["default"] = detail::json_value(*spec.default_value);
        args.push_back(std::move(arg));
    }
    json output = json::array();
    if (own_slots) {
        // Slot N gives the Nth such parameter, as the loader reads it (load/behavior3_slots).
        for (const param_spec* spec : b3::input_slots(type)) input.push_back(spec->name + "?");
        for (const param_spec* spec : b3::output_slots(type)) output.push_back(spec->name + "?");
    }
    if (!args.empty()) def["args"] = std::move(args);
    if (!input.empty()) def["input"] = std::move(input);
    if (!output.empty()) def["output"] = std::move(output);
    def["children"] = type.arity == arity::leaf ? 0 : type.arity == arity::decorator ? 1 : -1;
    return def;
}

}  // namespace

std::string write_palette(const registry& reg, file_format format) {
    if (format == file_format::btcpp_xml) {
        return detail::write_btcpp_xml(groot_models(reg)).text;
    }
    if (format == file_format::behavior3) {
        json definitions = json::array();
        for (const node_type& type : reg.types()) definitions.push_back(b3_definition(type));
        return definitions.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    }
    throw error(error_code::unsupported,
                "no editor takes a palette in " + std::string(info(format).name) +
                    "; palettes are written as BehaviorTree.CPP XML or behavior3");
}

}  // namespace canopy
