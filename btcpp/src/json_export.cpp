#include "behaviortree_cpp/json_export.h"

#include "behaviortree_cpp/blackboard.h"
#include "behaviortree_cpp/bt_factory.h"

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

nlohmann::json ExportBlackboardToJSON(const Blackboard& blackboard) {
    nlohmann::json out;
    for (StringView key : blackboard.getKeys()) {
        const std::string name(key);
        JsonExporter::get().toJson(blackboard.getAnyCopy(name), out[name]);
    }
    return out;
}

void ImportBlackboardFromJSON(const nlohmann::json& json, Blackboard& blackboard) {
    for (auto item = json.begin(); item != json.end(); ++item) {
        if (auto value = JsonExporter::get().fromJson(item.value()))
            blackboard.setAnyAsIs(item.key(), *value);
    }
}

std::vector<Blackboard::Ptr> BlackboardBackup(const Tree& tree) {
    std::vector<Blackboard::Ptr> backup;
    for (const auto& use : tree.subtrees) {
        backup.push_back(Blackboard::create());
        use->blackboard->cloneInto(*backup.back());
    }
    return backup;
}

void BlackboardRestore(const std::vector<Blackboard::Ptr>& backup, Tree& tree) {
    if (backup.size() != tree.subtrees.size())
        throw RuntimeError("BlackboardRestore: the backup is of another tree");
    for (std::size_t i = 0; i < backup.size(); ++i)
        backup[i]->cloneInto(*tree.subtrees[i]->blackboard);
}

nlohmann::json ExportTreeToJSON(const Tree& tree) {
    nlohmann::json out;
    for (const auto& use : tree.subtrees) {
        const std::string& name = use->instance_name.empty() ? use->tree_ID : use->instance_name;
        out[name] = ExportBlackboardToJSON(*use->blackboard);
    }
    return out;
}

void ImportTreeFromJSON(const nlohmann::json& json, Tree& tree) {
    if (json.size() != tree.subtrees.size())
        throw std::runtime_error("Number of blackboards don't match:");
    std::size_t index = 0;
    for (const auto& item : json.items())
        ImportBlackboardFromJSON(item.value(), *tree.subtrees.at(index++)->blackboard);
}

}  // namespace BT
