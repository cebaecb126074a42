#include "canopy/run/registry.hpp"

#include <algorithm>
#include <unordered_set>

#include "canopy/core/error.hpp"
#include "canopy/run/port.hpp"
#include "core/param_text.hpp"
#include "core/suggest.hpp"

namespace canopy {

std::string_view to_string(arity a) noexcept {
    switch (a) {
        case arity::leaf: return "leaf";
        case arity::decorator: return "decorator";
        case arity::composite: return "composite";
    }
    return "unknown";
}

namespace {

// Refuses a key name that is empty or already declared.
void refuse_key_name(const std::vector<blackboard_key>& keys, const std::string& name) {
    if (name.empty()) throw registry_error("a blackboard key name must not be empty");
    for (const blackboard_key& key : keys) {
        if (key.name == name)
            throw registry_error("blackboard key '" + name + "' is already declared");
    }
}

void check_params(const node_type& type) {
    std::unordered_set<std::string_view> seen;
    for (const param_spec& spec : type.params) {
        if (spec.name.empty()) {
            throw registry_error("node type '" + type.name +
                                 "' declares a parameter without a name");
        }
        if (!seen.insert(spec.name).second) {
            throw registry_error("node type '" + type.name + "' declares parameter '" + spec.name +
                                 "' twice");
        }
        if (spec.output && (spec.type == param_type::key || spec.type == param_type::key_value ||
                            spec.type == param_type::script)) {
            throw registry_error("output parameter '" + spec.name + "' of node type '" + type.name +
                                 "' must be of a value type: integer, number, boolean or string");
        }
        if (spec.type == param_type::key_value &&
            std::count_if(type.params.begin(), type.params.end(),
                          [](const param_spec& p) { return p.type == param_type::key; }) != 1) {
            throw registry_error("node type '" + type.name + "' has a key-value parameter '" +
                                 spec.name + "', so it needs exactly one key parameter");
        }
        if ((spec.type == param_type::custom) != (spec.custom != nullptr)) {
            throw registry_error("parameter '" + spec.name + "' of node type '" + type.name +
                                 "' must give its registered type (param_spec::custom) exactly "
                                 "when it is of type custom");
        }
        if (spec.type == param_type::custom && spec.default_value) {
            if (!std::holds_alternative<std::string>(*spec.default_value)) {
                throw registry_error("the default of parameter '" + spec.name + "' of node type '" +
                                     type.name + "' must be text for " + spec.custom->name +
                                     "'s from_text");
            }
            try {
                spec.custom->from_text(std::get<std::string>(*spec.default_value));
            } catch (const std::exception& problem) {
                throw registry_error("the default of parameter '" + spec.name + "' of node type '" +
                                     type.name + "' is not a " + spec.custom->name + ": " +
                                     problem.what());
            }
            continue;
        }
        const param_type default_type =
            spec.type == param_type::key || spec.type == param_type::script ? param_type::string
                                                                            : spec.type;
        if (spec.default_value && spec.type != param_type::key_value &&
            spec.type != param_type::any && type_of(*spec.default_value) != default_type) {
            throw registry_error("the default of parameter '" + spec.name + "' of node type '" +
                                 type.name + "' is " +
                                 detail::with_article(type_of(*spec.default_value)) + ", not " +
                                 detail::with_article(default_type));
        }
    }
}

}  // namespace

void registry::check_name_free(const std::string& name) const {
    if (name.empty()) throw registry_error("a node type name must not be empty");
    if (by_name_.count(name) != 0) {
        throw registry_error("node type name '" + name + "' is already registered");
    }
}

const node_type& registry::add(node_type type) {
    check_name_free(type.name);
    if (type.id && by_id_.count(*type.id) != 0) {
        throw registry_error("node type id " + std::to_string(*type.id) + " of '" + type.name +
                             "' is already used by '" + by_id_.at(*type.id)->name + "'");
    }
    for (param_spec& spec : type.params) {
        if (spec.type != param_type::custom || spec.custom != nullptr || !spec.cpp_type) continue;
        for (const auto& registered : value_types_) {
            if (registered->cpp_type == spec.cpp_type) spec.custom = registered;
        }
        if (spec.custom == nullptr) {
            throw registry_error("port '" + spec.name + "' of node type '" + type.name +
                                 "' is of C++ type " + detail::cpp_name(spec.cpp_type) +
                                 ", which no add_type registered: register the type first");
        }
    }
    check_params(type);
    const node_type& added = types_.emplace_back(std::move(type));
    by_name_.emplace(added.name, &added);
    if (added.id) by_id_.emplace(*added.id, &added);
    return added;
}

const node_type& registry::add_leaf(std::string name, std::optional<std::int64_t> id) {
    return add(node_type{std::move(name), id, arity::leaf, {}, {}});
}

void registry::add_key(std::string name, param_type type, std::optional<param_value> initial) {
    if (type == param_type::key || type == param_type::key_value || type == param_type::any ||
        type == param_type::custom) {
        throw registry_error(
            "blackboard key '" + name +
            "' must be an integer, a number, a boolean or a string (or of a registered type: "
            "add_key with the type's name)");
    }
    if (initial && !(type_of(*initial) == type ||
                     (type == param_type::number && type_of(*initial) == param_type::integer))) {
        throw registry_error("the initial value of blackboard key '" + name + "' is not " +
                             detail::with_article(type));
    }
    if (initial && type == param_type::number && std::holds_alternative<std::int64_t>(*initial)) {
        initial = static_cast<double>(std::get<std::int64_t>(*initial));
    }
    refuse_key_name(keys_, name);
    blackboard_key key;
    key.name = std::move(name);
    key.type = type;
    key.initial = std::move(initial);
    keys_.push_back(std::move(key));
}

const value_type& registry::add_type(std::shared_ptr<const value_type> type) {
    if (type == nullptr) throw registry_error("add_type: no type");
    if (type->name.empty()) throw registry_error("a blackboard type's name must not be empty");
    for (param_type builtin :
         {param_type::integer, param_type::number, param_type::boolean, param_type::string}) {
        if (type->name == to_string(builtin))
            throw registry_error("blackboard type '" + type->name + "' is built in");
    }
    for (const auto& known : value_types_) {
        if (known->name == type->name)
            throw registry_error("blackboard type '" + type->name + "' is already registered");
        if (known->cpp_type == type->cpp_type) {
            throw registry_error("blackboard type '" + type->name + "' is the C++ type of '" +
                                 known->name + "', registered already");
        }
    }
    value_types_.push_back(std::move(type));
    return *value_types_.back();
}

void registry::add_builtin_types() {
    for (auto& type : builtin_value_types()) add_type(std::move(type));
}

std::shared_ptr<const value_type> registry::find_type(std::string_view name) const {
    for (const auto& type : value_types_)
        if (type->name == name) return type;
    return nullptr;
}

void registry::add_key(std::string name, std::string_view type_name,
                       std::optional<std::string> initial_text) {
    std::shared_ptr<const value_type> type = find_type(type_name);
    if (type == nullptr) {
        for (param_type builtin :
             {param_type::integer, param_type::number, param_type::boolean, param_type::string}) {
            if (type_name != to_string(builtin)) continue;
            std::optional<param_value> initial;
            if (initial_text) {
                try {
                    switch (builtin) {
                        case param_type::integer: initial = text::to_integer(*initial_text); break;
                        case param_type::number: initial = text::to_number(*initial_text); break;
                        case param_type::boolean: initial = text::to_bool(*initial_text); break;
                        default: initial = *initial_text; break;
                    }
                } catch (const std::exception& problem) {
                    throw registry_error("the initial value of blackboard key '" + name +
                                         "': " + problem.what());
                }
            }
            add_key(std::move(name), builtin, std::move(initial));
            return;
        }
        throw registry_error("blackboard key '" + name + "' has type '" + std::string(type_name) +
                             "', which is not registered (add_type)");
    }
    refuse_key_name(keys_, name);
    blackboard_key key;
    key.name = std::move(name);
    key.type = param_type::custom;
    if (initial_text) {
        try {
            key.initial_object = type->from_text(*initial_text);
        } catch (const std::exception& problem) {
            throw registry_error("the initial value of blackboard key '" + key.name +
                                 "' is not a " + type->name + ": " + problem.what());
        }
        key.initial = std::move(*initial_text);
    }
    key.custom = std::move(type);
    keys_.push_back(std::move(key));
}

void registry::add_enum(std::string name, std::int64_t value) {
    if (name.empty()) throw registry_error("an enum name must not be empty");
    if (enums_.count(name) != 0) {
        throw registry_error("enum '" + name + "' is already registered");
    }
    enums_.emplace(std::move(name), value);
}

std::optional<std::int64_t> registry::find_enum(std::string_view name) const {
    const auto found = enums_.find(std::string(name));
    if (found == enums_.end()) return std::nullopt;
    return found->second;
}

void registry::add_alias(std::string alias, std::string_view target) {
    const node_type* type = find(target);
    if (type == nullptr) {
        throw registry_error("cannot alias '" + alias + "' to unregistered node type '" +
                             std::string(target) + "'");
    }
    check_name_free(alias);
    by_name_.emplace(alias, type);
    alias_names_.push_back(std::move(alias));
}

const node_type& registry::describe(
    std::string_view type_name, std::string description,
    const std::vector<std::pair<std::string, std::string>>& params) {
    const node_type* found = find(type_name);
    if (found == nullptr) {
        std::string message =
            "cannot describe unregistered node type '" + std::string(type_name) + "'";
        if (const std::string_view near = nearest_name(type_name); !near.empty())
            message += " (did you mean '" + std::string(near) + "'?)";
        throw registry_error(message);
    }
    // The registry owns its types; find() hands them out const so that nothing else changes
    // them.
    auto& type = const_cast<node_type&>(*found);
    for (const auto& described : params) {
        const std::string& name = described.first;
        const auto spec = std::find_if(type.params.begin(), type.params.end(),
                                       [&](const param_spec& p) { return p.name == name; });
        if (spec == type.params.end()) {
            std::string known;
            for (const param_spec& p : type.params) known += (known.empty() ? "" : ", ") + p.name;
            throw registry_error("node type '" + type.name + "' has no parameter '" + name +
                                 "' to describe (" +
                                 (known.empty() ? "it has none" : "it has " + known) + ")");
        }
    }
    type.description = std::move(description);
    for (const auto& [name, text] : params) {
        for (param_spec& spec : type.params) {
            if (spec.name == name) spec.description = text;
        }
    }
    return type;
}

const node_type* registry::find(std::string_view name) const {
    auto found = by_name_.find(std::string(name));
    return found == by_name_.end() ? nullptr : found->second;
}

const node_type* registry::find(std::int64_t id) const {
    auto found = by_id_.find(id);
    return found == by_id_.end() ? nullptr : found->second;
}

std::string_view registry::nearest_name(std::string_view name) const {
    std::vector<std::string_view> candidates;
    candidates.reserve(types_.size() + alias_names_.size());
    for (const node_type& type : types_) candidates.emplace_back(type.name);
    for (const std::string& alias : alias_names_) candidates.emplace_back(alias);
    return detail::nearest(name, candidates);
}

std::vector<std::pair<std::string, std::string>> registry::aliases() const {
    std::vector<std::pair<std::string, std::string>> result;
    for (const std::string& alias : alias_names_)
        result.emplace_back(alias, by_name_.at(alias)->name);
    std::sort(result.begin(), result.end());
    return result;
}

}  // namespace canopy
