#include "behaviortree_cpp/json_export.h"

namespace BT {

Any convertFromJSON(StringView json_text, std::type_index type) {
    nlohmann::json parsed = nlohmann::json::parse(json_text, nullptr, false);
    if (parsed.is_discarded()) throw RuntimeError("Not valid JSON: ", json_text);
    auto value = JsonExporter::get().fromJson(parsed, type);
    if (!value) throw RuntimeError(value.error());
    return *value;
}

JsonExporter& JsonExporter::get() {
    static JsonExporter exporter;
    return exporter;
}

bool JsonExporter::toJson(const Any& any, nlohmann::json& destination) const {
    switch (any.kind()) {
        case Any::Kind::Empty: return false;
        case Any::Kind::Integer:
            if (any.isType<bool>()) {
                destination = any.cast<bool>();
            } else {
                destination = any.cast<std::int64_t>();
            }
            return true;
        case Any::Kind::Real: destination = any.cast<double>(); return true;
        case Any::Kind::Text: destination = any.cast<std::string>(); return true;
        case Any::Kind::Object: break;
    }
    auto found = to_json_.find(any.type());
    if (found == to_json_.end()) return false;
    found->second(any, destination);
    return true;
}

Expected<Any> JsonExporter::fromJson(const nlohmann::json& source) const {
    if (source.is_null()) return nonstd::make_unexpected("json object is null");
    if (source.is_string()) return Any(source.get<std::string>());
    if (source.is_boolean()) return Any(source.get<bool>());
    if (source.is_number_integer()) return Any(source.get<std::int64_t>());
    if (source.is_number()) return Any(source.get<double>());
    if (!source.is_object() || !source.contains("__type")) {
        return nonstd::make_unexpected("Missing field '__type'");
    }
    auto name = type_names_.find(source["__type"].get<std::string>());
    if (name == type_names_.end()) {
        return nonstd::make_unexpected("Type not found in registered list");
    }
    return fromJson(source, name->second);
}

Expected<Any> JsonExporter::fromJson(const nlohmann::json& source, std::type_index type) const {
    auto found = from_json_.find(type);
    if (found == from_json_.end()) {
        return nonstd::make_unexpected("Type not found in registered list");
    }
    try {
        return found->second(source);
    } catch (const std::exception& e) {
        return nonstd::make_unexpected(e.what());
    }
}

}  // namespace BT
