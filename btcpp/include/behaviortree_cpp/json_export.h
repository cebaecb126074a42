#pragma once

// JSON for blackboard values, as BehaviorTree.CPP's json_export.h offers it: a type gains
// to_json and from_json with BT_JSON_CONVERTER, and JsonExporter turns an Any of a type
// registered with RegisterJsonDefinition<T>() (or of a number, boolean or text) into JSON
// and back. nlohmann/json is the JSON library, as there.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/utils/safe_any.hpp"

namespace BT {

class JsonExporter {
public:
    /// The one exporter of the program.
    static JsonExporter& get();
    JsonExporter(const JsonExporter&) = delete;
    JsonExporter& operator=(const JsonExporter&) = delete;

    /// Whether the value's type converts; then `destination` holds its JSON.
    bool toJson(const Any& any, nlohmann::json& destination) const;
    /// A value and its type.
    using ExpectedEntry = Expected<std::pair<Any, TypeInfo>>;
    /// A value from JSON: a number, boolean or text, an object whose "__type" names a
    /// registered type, or an array of those (a std::vector; of int for integers).
    ExpectedEntry fromJson(const nlohmann::json& source) const;
    /// A value of a registered type from JSON.
    ExpectedEntry fromJson(const nlohmann::json& source, std::type_index type) const;
    template <typename T>
    Expected<T> fromJson(const nlohmann::json& source) const {
        auto entry = fromJson(source, typeid(T));
        if (!entry) return nonstd::make_unexpected(entry.error());
        return entry->first.template tryCast<T>();
    }

    /// Registers T, which nlohmann::json converts (to_json and from_json), and std::vector<T>.
    template <typename T>
    void addConverter() {
        to_json_[typeid(T)] = [](const Any& any, nlohmann::json& out) { out = *any.castPtr<T>(); };
        to_json_[typeid(std::vector<T>)] = [](const Any& any, nlohmann::json& out) {
            out = *any.castPtr<std::vector<T>>();
        };
        from_json_.insert_or_assign(
            typeid(T), Reader{[](const nlohmann::json& in) { return Any(in.get<T>()); },
                              TypeInfo::Create<T>()});
        from_json_.insert_or_assign(
            typeid(std::vector<T>),
            Reader{[](const nlohmann::json& in) { return Any(in.get<std::vector<T>>()); },
                   TypeInfo::Create<std::vector<T>>()});
        vector_of_.insert_or_assign(typeid(T), typeid(std::vector<T>));
        const nlohmann::json sample = T{};
        if (sample.is_object() && sample.contains("__type"))
            type_names_.emplace(sample["__type"].template get<std::string>(), typeid(T));
        type_names_.emplace(demangle(typeid(T)), typeid(T));
    }
    template <typename T>
    void addConverter(std::function<void(const T&, nlohmann::json&)> to_json,
                      bool add_type = true) {
        to_json_[typeid(T)] = [to_json, add_type](const Any& any, nlohmann::json& out) {
            to_json(*any.castPtr<T>(), out);
            if (add_type) out["__type"] = demangle(typeid(T));
        };
        // And a std::vector<T>, element by element.
        to_json_[typeid(std::vector<T>)] = [to_json, add_type](const Any& any,
                                                               nlohmann::json& out) {
            out = nlohmann::json::array();
            for (const T& element : *any.castPtr<std::vector<T>>()) {
                nlohmann::json item;
                to_json(element, item);
                if (add_type) item["__type"] = demangle(typeid(T));
                out.push_back(std::move(item));
            }
        };
    }
    template <typename T>
    void addConverter(std::function<void(const nlohmann::json&, T&)> from_json) {
        from_json_.insert_or_assign(typeid(T), Reader{[from_json](const nlohmann::json& in) {
                                                          T value;
                                                          from_json(in, value);
                                                          return Any(value);
                                                      },
                                                      TypeInfo::Create<T>()});
        type_names_.emplace(demangle(typeid(T)), typeid(T));
        from_json_.insert_or_assign(typeid(std::vector<T>),
                                    Reader{[from_json](const nlohmann::json& in) {
                                               std::vector<T> values;
                                               for (const nlohmann::json& item : in) {
                                                   T value;
                                                   from_json(item, value);
                                                   values.push_back(std::move(value));
                                               }
                                               return Any(std::move(values));
                                           },
                                           TypeInfo::Create<std::vector<T>>()});
        vector_of_.insert_or_assign(typeid(T), typeid(std::vector<T>));
    }

private:
    JsonExporter();
    // A JSON array as a vector: of int, double, bool or std::string, or of the registered
    // type its first element's "__type" names.
    ExpectedEntry vectorFromJson(const nlohmann::json& source) const;

    std::unordered_map<std::type_index, std::function<void(const Any&, nlohmann::json&)>> to_json_;
    struct Reader {
        std::function<Any(const nlohmann::json&)> read;
        TypeInfo info;
    };
    std::unordered_map<std::type_index, Reader> from_json_;
    std::unordered_map<std::string, std::type_index> type_names_;
    std::unordered_map<std::type_index, std::type_index> vector_of_;  // T -> std::vector<T>
};

template <typename T>
void RegisterJsonDefinition() {
    JsonExporter::get().addConverter<T>();
}

class Blackboard;
/// The values of a blackboard's keys that JsonExporter converts, by name.
nlohmann::json ExportBlackboardToJSON(const Blackboard& blackboard);
/// Sets each key of the JSON object that JsonExporter converts back.
void ImportBlackboardFromJSON(const nlohmann::json& json, Blackboard& blackboard);

}  // namespace BT

// Gives Type to_json and from_json from one list of its fields, written after the macro as
// the body of a function of (Type& value, AddField& add_field) that calls
// add_field("name", &value.member) for each; its JSON carries "__type": "Type".
// NOLINTBEGIN(bugprone-macro-parentheses)
#define BT_JSON_CONVERTER(Type, value)                                                            \
    template <class AddField>                                                                     \
    void bt_json_fields_of(Type&, AddField&);                                                     \
    inline void to_json(nlohmann::json& json, const Type& object) {                               \
        auto write = [&json](const char* field, auto* member) { json[field] = *member; };         \
        bt_json_fields_of(const_cast<Type&>(object), write);                                      \
        json["__type"] = #Type;                                                                   \
    }                                                                                             \
    inline void from_json(const nlohmann::json& json, Type& object) {                             \
        auto read = [&json](const char* field, auto* member) { json.at(field).get_to(*member); }; \
        bt_json_fields_of(object, read);                                                          \
    }                                                                                             \
    template <class AddField>                                                                     \
    inline void bt_json_fields_of(Type& value, AddField& add_field)
// NOLINTEND(bugprone-macro-parentheses)
