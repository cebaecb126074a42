#include "formats/flat_sections.hpp"

#include <tinyxml2.h>

#include <algorithm>

#include "core/json_text.hpp"
#include "core/suggest.hpp"

namespace canopy::detail {
namespace {

using json_copy::jvalue;
using json_copy::kind;
using json_copy::no_value;

const std::vector<std::string_view> model_fields = {"type", "kind", "namesake", "ports",
                                                    "description"};
const std::vector<std::string_view> port_fields = {"name", "direction", "type", "default",
                                                   "description"};
const std::vector<std::string_view> kinds = {"action", "condition", "decorator", "composite"};
const std::vector<std::string_view> directions = {"input", "output", "inout"};

std::string_view kind_of(const node_model& model) {
    if (!model.shape) return {};
    switch (*model.shape) {
        case arity::leaf: return model.condition ? "condition" : "action";
        case arity::decorator: return "decorator";
        default: return "composite";
    }
}

// Gives the model the shape a kind names; false for no kind.
bool set_kind(node_model& model, std::string_view name) {
    if (name == "action" || name == "condition") {
        model.shape = arity::leaf;
        model.condition = name == "condition";
    } else if (name == "decorator") {
        model.shape = arity::decorator;
    } else if (name == "composite") {
        model.shape = arity::composite;
    } else {
        return false;
    }
    return true;
}

std::string_view direction_name(port_model::direction d) {
    return d == port_model::direction::input    ? "input"
           : d == port_model::direction::output ? "output"
                                                : "inout";
}

bool set_direction(port_model& port, std::string_view name) {
    if (name == "input") {
        port.dir = port_model::direction::input;
    } else if (name == "output") {
        port.dir = port_model::direction::output;
    } else if (name == "inout") {
        port.dir = port_model::direction::inout;
    } else {
        return false;
    }
    return true;
}

std::string one_of(const std::vector<std::string_view>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += i == 0 ? "" : i + 1 == names.size() ? " or " : ", ";
        text += '"' + std::string(names[i]) + '"';
    }
    return text;
}

// The members of a JSON object, each a string field of `fields`, checked: unknown and
// non-string fields are reported; `take(name, value)` gets the rest.
template <typename Take>
void read_fields(const std::vector<jvalue>& values, const jvalue& object, std::string_view what,
                 const std::vector<std::string_view>& fields, diagnostic_sink& sink, Take take) {
    std::vector<std::string_view> seen;
    for (std::uint32_t m = object.first; m != no_value; m = values[m].next) {
        const jvalue& member = values[m];
        if (std::find(fields.begin(), fields.end(), member.key) == fields.end()) {
            sink.report(member.key_where, diagnostic_code::unknown_field,
                        "unknown key '" + member.key + "' in " + std::string(what) +
                            did_you_mean(member.key, fields));
            continue;
        }
        if (std::find(seen.begin(), seen.end(), member.key) != seen.end()) {
            sink.report(member.key_where, diagnostic_code::duplicate_field,
                        "key '" + member.key + "' appears twice in " + std::string(what));
            continue;
        }
        seen.push_back(member.key);
        take(member);
    }
}

bool is_string(const jvalue& v, std::string_view what, diagnostic_sink& sink) {
    if (v.type == kind::string) return true;
    sink.report(v.where, diagnostic_code::wrong_field_type,
                "'" + v.key + "' of " + std::string(what) + " must be a string, not " +
                    std::string(json_copy::kind_name(v)));
    return false;
}

void read_json_port(const std::vector<jvalue>& values, const jvalue& object, node_model& model,
                    diagnostic_sink& sink) {
    const std::string what = "a port of model '" + model.name + "'";
    if (object.type != kind::object) {
        sink.report(object.where, diagnostic_code::wrong_field_type,
                    what + " must be an object, not " + std::string(json_copy::kind_name(object)));
        return;
    }
    port_model port;
    bool named = false;
    read_fields(values, object, what, port_fields, sink, [&](const jvalue& v) {
        if (!is_string(v, what, sink)) return;
        if (v.key == "name") {
            port.name = v.text;
            named = !v.text.empty();
        } else if (v.key == "direction") {
            if (!set_direction(port, v.text)) {
                sink.report(v.where, diagnostic_code::wrong_field_type,
                            "'direction' must be " + one_of(directions) + ", not \"" + v.text +
                                "\"" + did_you_mean(v.text, directions));
            }
        } else if (v.key == "type") {
            port.type = v.text;
        } else if (v.key == "default") {
            port.default_value = v.text;
        } else {
            port.description = v.text;
        }
    });
    if (!named) {
        sink.report(object.where, diagnostic_code::missing_field, what + " has no 'name'");
        return;
    }
    model.ports.push_back(std::move(port));
}

void read_json_model(const std::vector<jvalue>& values, const jvalue& object, diagnostic_sink& sink,
                     std::vector<node_model>& models) {
    if (object.type != kind::object) {
        sink.report(
            object.where, diagnostic_code::wrong_field_type,
            "a node model must be an object, not " + std::string(json_copy::kind_name(object)));
        return;
    }
    node_model model;
    model.where = object.where;
    const jvalue* ports = nullptr;
    read_fields(values, object, "a node model", model_fields, sink, [&](const jvalue& v) {
        if (v.key == "ports") {
            if (v.type == kind::array) {
                ports = &v;
            } else {
                sink.report(v.where, diagnostic_code::wrong_field_type,
                            "'ports' must be an array of ports, not " +
                                std::string(json_copy::kind_name(v)));
            }
            return;
        }
        if (v.key == "namesake") {
            if (v.type == kind::boolean) {
                model.namesake = v.boolean;
            } else {
                sink.report(v.where, diagnostic_code::wrong_field_type,
                            "'namesake' must be true or false, not " +
                                std::string(json_copy::kind_name(v)));
            }
            return;
        }
        if (!is_string(v, "a node model", sink)) return;
        if (v.key == "type") {
            model.name = v.text;
        } else if (v.key == "kind") {
            if (!set_kind(model, v.text)) {
                sink.report(v.where, diagnostic_code::wrong_field_type,
                            "'kind' must be " + one_of(kinds) + ", not \"" + v.text + "\"" +
                                did_you_mean(v.text, kinds));
            }
        } else {
            model.description = v.text;
        }
    });
    if (model.name.empty()) {
        sink.report(object.where, diagnostic_code::missing_field,
                    "a node model has no 'type', the node type it describes");
        return;
    }
    if (ports != nullptr) {
        for (std::uint32_t p = ports->first; p != no_value; p = values[p].next)
            read_json_port(values, values[p], model, sink);
    }
    models.push_back(std::move(model));
}

}  // namespace

std::vector<node_model> flat_models(const tree_document& document) {
    std::vector<node_model> models;
    for (const node_model& model : document.models) {
        if (model.canopy_builtin) continue;
        models.push_back(model);
        const auto& namesakes = document.foreign_namesakes;
        if (std::find(namesakes.begin(), namesakes.end(), model.name) != namesakes.end())
            models.back().namesake = true;
    }
    return models;
}

void read_json_models(const std::vector<jvalue>& values, std::uint32_t array, diagnostic_sink& sink,
                      std::vector<node_model>& models) {
    for (std::uint32_t m = values[array].first; m != no_value; m = values[m].next)
        read_json_model(values, values[m], sink, models);
}

void write_json_models(std::string& out, const std::vector<node_model>& models) {
    out += "\"models\": [";
    for (std::size_t m = 0; m < models.size(); ++m) {
        const node_model& model = models[m];
        out += m == 0 ? "\n    {\"type\": " : ",\n    {\"type\": ";
        append_json_string(out, model.name);
        if (!kind_of(model).empty()) {
            out += ", \"kind\": ";
            append_json_string(out, kind_of(model));
        }
        if (model.namesake) out += ", \"namesake\": true";
        if (!model.ports.empty()) {
            out += ", \"ports\": [";
            for (std::size_t p = 0; p < model.ports.size(); ++p) {
                const port_model& port = model.ports[p];
                out += p == 0 ? "{\"name\": " : ", {\"name\": ";
                append_json_string(out, port.name);
                if (port.dir != port_model::direction::input) {
                    out += ", \"direction\": ";
                    append_json_string(out, direction_name(port.dir));
                }
                if (!port.type.empty()) {
                    out += ", \"type\": ";
                    append_json_string(out, port.type);
                }
                if (port.default_value) {
                    out += ", \"default\": ";
                    append_json_string(out, *port.default_value);
                }
                if (!port.description.empty()) {
                    out += ", \"description\": ";
                    append_json_string(out, port.description);
                }
                out += '}';
            }
            out += ']';
        }
        if (!model.description.empty()) {
            out += ", \"description\": ";
            append_json_string(out, model.description);
        }
        out += '}';
    }
    out += "\n  ]";
}

void read_json_overrides(const std::vector<jvalue>& values, std::uint32_t object,
                         diagnostic_sink& sink, std::vector<subtree_override>& overrides) {
    for (std::uint32_t m = values[object].first; m != no_value; m = values[m].next) {
        const jvalue& change = values[m];
        if (change.key.empty()) {
            sink.report(change.key_where, diagnostic_code::missing_field,
                        "an override has an empty uuid: it changes no node");
            continue;
        }
        if (change.type != kind::object) {
            sink.report(change.where, diagnostic_code::wrong_field_type,
                        "the override of '" + change.key + "' must be an object, not " +
                            std::string(json_copy::kind_name(change)));
            continue;
        }
        // The patch as it is: the subtree file's reader checks it, in its own words.
        overrides.push_back({change.key, json_copy::json_text(values, m), change.key_where});
    }
}

void write_json_overrides(std::string& out, const std::vector<subtree_override>& overrides) {
    out += "\"overrides\": {";
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        out += i == 0 ? "\n    " : ",\n    ";
        append_json_string(out, overrides[i].node);
        out += ": ";
        out += overrides[i].patch;
    }
    out += "\n  }";
}

void read_xml_overrides(const tinyxml2::XMLElement& element, diagnostic_sink& sink,
                        std::vector<subtree_override>& overrides) {
    for (const tinyxml2::XMLElement* o = element.FirstChildElement(); o != nullptr;
         o = o->NextSiblingElement()) {
        const source_location where{static_cast<std::uint32_t>(o->GetLineNum()), 0};
        const char* node = o->Attribute("node");
        const char* patch = o->Attribute("patch");
        if (std::string_view(o->Name()) != "override" || node == nullptr || patch == nullptr ||
            *node == '\0') {
            sink.report(where, diagnostic_code::unexpected_element,
                        R"(<overrides> holds <override node="uuid" patch="{...}"/> elements)");
            continue;
        }
        overrides.push_back({node, patch, where});
    }
}

void write_xml_overrides(tinyxml2::XMLPrinter& printer,
                         const std::vector<subtree_override>& overrides) {
    printer.OpenElement("overrides");
    for (const subtree_override& change : overrides) {
        printer.OpenElement("override");
        printer.PushAttribute("node", change.node.c_str());
        printer.PushAttribute("patch", change.patch.c_str());
        printer.CloseElement();
    }
    printer.CloseElement();
}

void read_xml_models(const tinyxml2::XMLElement& element, diagnostic_sink& sink,
                     std::vector<node_model>& models) {
    auto line_of = [](const tinyxml2::XMLNode* node) {
        return source_location{static_cast<std::uint32_t>(node->GetLineNum()), 0};
    };
    for (const tinyxml2::XMLElement* m = element.FirstChildElement(); m != nullptr;
         m = m->NextSiblingElement()) {
        if (std::string_view(m->Name()) != "model") {
            sink.report(line_of(m), diagnostic_code::unexpected_element,
                        "unexpected element <" + std::string(m->Name()) +
                            "> in <models>; it holds <model> elements");
            continue;
        }
        node_model model;
        model.where = line_of(m);
        for (const tinyxml2::XMLAttribute* a = m->FirstAttribute(); a != nullptr; a = a->Next()) {
            const std::string_view name = a->Name();
            if (name == "type") {
                model.name = a->Value();
            } else if (name == "kind") {
                if (!set_kind(model, a->Value())) {
                    sink.report(line_of(m), diagnostic_code::wrong_field_type,
                                "'kind' must be " + one_of(kinds) + ", not \"" +
                                    std::string(a->Value()) + "\"" +
                                    did_you_mean(a->Value(), kinds));
                }
            } else if (name == "description") {
                model.description = a->Value();
            } else if (name == "namesake") {
                const std::string_view value = a->Value();
                model.namesake = value == "true";
                if (value != "true" && value != "false") {
                    sink.report(
                        line_of(m), diagnostic_code::wrong_field_type,
                        "'namesake' must be true or false, not \"" + std::string(value) + "\"");
                }
            } else {
                sink.report(line_of(m), diagnostic_code::unknown_field,
                            "unknown attribute '" + std::string(name) + "' on <model>" +
                                did_you_mean(name, {"type", "kind", "namesake", "description"}));
            }
        }
        if (model.name.empty()) {
            sink.report(line_of(m), diagnostic_code::missing_field,
                        "<model> has no 'type', the node type it describes");
            continue;
        }
        for (const tinyxml2::XMLElement* p = m->FirstChildElement(); p != nullptr;
             p = p->NextSiblingElement()) {
            if (std::string_view(p->Name()) != "port") {
                sink.report(line_of(p), diagnostic_code::unexpected_element,
                            "unexpected element <" + std::string(p->Name()) +
                                "> in <model>; it holds <port> elements");
                continue;
            }
            port_model port;
            for (const tinyxml2::XMLAttribute* a = p->FirstAttribute(); a != nullptr;
                 a = a->Next()) {
                const std::string_view name = a->Name();
                if (name == "name") {
                    port.name = a->Value();
                } else if (name == "direction") {
                    if (!set_direction(port, a->Value())) {
                        sink.report(line_of(p), diagnostic_code::wrong_field_type,
                                    "'direction' must be " + one_of(directions) + ", not \"" +
                                        std::string(a->Value()) + "\"" +
                                        did_you_mean(a->Value(), directions));
                    }
                } else if (name == "type") {
                    port.type = a->Value();
                } else if (name == "default") {
                    port.default_value = a->Value();
                } else if (name == "description") {
                    port.description = a->Value();
                } else {
                    sink.report(line_of(p), diagnostic_code::unknown_field,
                                "unknown attribute '" + std::string(name) + "' on <port>" +
                                    did_you_mean(name, port_fields));
                }
            }
            if (port.name.empty()) {
                sink.report(line_of(p), diagnostic_code::missing_field, "<port> has no 'name'");
                continue;
            }
            model.ports.push_back(std::move(port));
        }
        models.push_back(std::move(model));
    }
}

void write_xml_models(tinyxml2::XMLPrinter& printer, const std::vector<node_model>& models) {
    printer.OpenElement("models");
    for (const node_model& model : models) {
        printer.OpenElement("model");
        printer.PushAttribute("type", model.name.c_str());
        if (!kind_of(model).empty())
            printer.PushAttribute("kind", std::string(kind_of(model)).c_str());
        if (model.namesake) printer.PushAttribute("namesake", "true");
        if (!model.description.empty())
            printer.PushAttribute("description", model.description.c_str());
        for (const port_model& port : model.ports) {
            printer.OpenElement("port");
            printer.PushAttribute("name", port.name.c_str());
            if (port.dir != port_model::direction::input)
                printer.PushAttribute("direction", std::string(direction_name(port.dir)).c_str());
            if (!port.type.empty()) printer.PushAttribute("type", port.type.c_str());
            if (port.default_value) printer.PushAttribute("default", port.default_value->c_str());
            if (!port.description.empty())
                printer.PushAttribute("description", port.description.c_str());
            printer.CloseElement();
        }
        printer.CloseElement();
    }
    printer.CloseElement();
}

}  // namespace canopy::detail
