#include "behaviortree_cpp/json_export.h"

#include <string>
#include <vector>

#include "behaviortree_cpp/blackboard.h"
#include "behaviortree_cpp/bt_factory.h"

namespace BT {

Any convertFromJSON(StringView json_text, std::type_index type) {
    nlohmann::json parsed = nlohmann::json::parse(json_text, nullptr, false);
    if (parsed.is_discarded()) throw RuntimeError("Not valid JSON: ", json_text);
    auto entry = JsonExporter::get().fromJson(parsed, type);
    if (!entry) throw RuntimeError(entry.error());
    return entry->first;
}

JsonExporter::JsonExporter() {
    // Vectors of the values JSON has, which need no registration.
    auto add_vector = [this](auto element) {
        using Vector = std::vector<decltype(element)>;
        to_json_[typeid(Vector)] = [](const Any& any, nlohmann::json& out) {
            out = *any.castPtr<Vector>();
        };
        from_json_.insert_or_assign(
            typeid(Vector), Reader{[](const nlohmann::json& in) { return Any(in.get<Vector>()); },
                                   TypeInfo::Create<Vector>()});
    };
    add_vector(int{});
    add_vector(double{});
    add_vector(bool{});
    add_vector(std::string{});
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

JsonExporter::ExpectedEntry JsonExporter::fromJson(const nlohmann::json& source) const {
    if (source.is_null()) return nonstd::make_unexpected("json object is null");
    if (source.is_string())
        return std::pair(Any(source.get<std::string>()), TypeInfo::Create<std::string>());
    if (source.is_boolean()) return std::pair(Any(source.get<bool>()), TypeInfo::Create<bool>());
    if (source.is_number_integer())
        return std::pair(Any(source.get<std::int64_t>()), TypeInfo::Create<std::int64_t>());
    if (source.is_number()) return std::pair(Any(source.get<double>()), TypeInfo::Create<double>());
    if (source.is_array()) return vectorFromJson(source);
    if (!source.is_object() || !source.contains("__type")) {
        return nonstd::make_unexpected("Missing field '__type'");
    }
    auto name = type_names_.find(source["__type"].get<std::string>());
    if (name == type_names_.end()) {
        return nonstd::make_unexpected("Type not found in registered list");
    }
    return fromJson(source, name->second);
}

JsonExporter::ExpectedEntry JsonExporter::fromJson(const nlohmann::json& source,
                                                   std::type_index type) const {
    auto found = from_json_.find(type);
    if (found == from_json_.end()) {
        return nonstd::make_unexpected("Type not found in registered list");
    }
    try {
        return std::pair(found->second.read(source), found->second.info);
    } catch (const std::exception& e) {
        return nonstd::make_unexpected(e.what());
    }
}

JsonExporter::ExpectedEntry JsonExporter::vectorFromJson(const nlohmann::json& source) const {
    if (source.empty()) return nonstd::make_unexpected("Can't tell the type of an empty array");
    const nlohmann::json& first = source.front();
    if (first.is_boolean()) return fromJson(source, typeid(std::vector<bool>));
    if (first.is_number_integer()) return fromJson(source, typeid(std::vector<int>));
    if (first.is_number()) return fromJson(source, typeid(std::vector<double>));
    if (first.is_string()) return fromJson(source, typeid(std::vector<std::string>));
    if (!first.is_object() || !first.contains("__type"))
        return nonstd::make_unexpected("Missing field '__type'");
    auto name = type_names_.find(first["__type"].get<std::string>());
    if (name == type_names_.end())
        return nonstd::make_unexpected("Type not found in registered list");
    auto vector = vector_of_.find(name->second);
    if (vector == vector_of_.end())
        return nonstd::make_unexpected("Type not found in registered list");
    return fromJson(source, vector->second);
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
        if (auto entry = JsonExporter::get().fromJson(item.value()))
            blackboard.setAnyAsIs(item.key(), entry->first);
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
