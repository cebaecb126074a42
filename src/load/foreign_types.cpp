#include "load/foreign_types.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>

#include "canopy/nodes/builtin_nodes.hpp"
#include "canopy/records/records.hpp"
#include "core/suggest.hpp"
#include "formats/btcpp_names.hpp"
#include "load/subtree_node.hpp"

namespace canopy::detail {
namespace {

struct learned {
    std::optional<arity> shape;  // from a model
    std::size_t most_children = 0;
    bool any_use = false;
    bool all_one_child = true;
    std::vector<std::string> params;  // in order of first mention
    std::vector<std::optional<std::string>> defaults;
    std::vector<bool> outputs;
    bool foreign = false;  // unknown to the registry
};

void mention(learned& type, const std::string& name, std::optional<std::string> fallback = {},
             bool output = false) {
    // A parameter without a name cannot be declared (the registry refuses it); the builder
    // reports it at its record as a parameter the type does not take. A pre- or
    // post-condition, given on a use or declared as a model's port, is every node's, not a
    // parameter of the type.
    if (name.empty() || is_condition_param(name)) return;
    auto at = std::find(type.params.begin(), type.params.end(), name);
    if (at != type.params.end()) return;
    type.params.push_back(name);
    type.defaults.push_back(std::move(fallback));
    type.outputs.push_back(output);
}

// A name that differs from a registered one in case only (`inverter`) is a typo that the
// program's type would fix, not a type of another program: it stays an error.
bool miscased(const registry& reg, std::string_view name) {
    if (reg.find(name) != nullptr) return false;
    const std::string_view nearest = reg.nearest_name(name);
    return nearest.size() == name.size() &&
           std::equal(name.begin(), name.end(), nearest.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

// Canopy's own node types, as register_builtin_nodes makes them.
const registry& canopy_builtins() {
    static const registry builtins = [] {
        registry made;
        register_builtin_nodes(made);
        return made;
    }();
    return builtins;
}

// Whether the registry's type is Canopy's own built-in of that name (the same parameters),
// not a type the program registered under it.
bool is_canopy_builtin(const node_type& known) {
    const node_type* canopy = canopy_builtins().find(known.name);
    // The same id too: a program's type of the same name and parameters has none (or its own).
    return canopy != nullptr && canopy->name == known.name && canopy->id == known.id &&
           std::equal(known.params.begin(), known.params.end(), canopy->params.begin(),
                      canopy->params.end(), [](const param_spec& a, const param_spec& b) {
                          return a.name == b.name && a.type == b.type;
                      });
}

// Canopy's built-ins that a BehaviorTree.CPP file names as its own: the documented Nav2 and
// version 3 nodes (btcpp-xml.md's mapping table), and `Wait`, the reader's name of `Sleep`.
bool read_as_canopys(std::string_view name) {
    constexpr std::string_view documented[] = {"Wait",
                                               "PipelineSequence",
                                               "RoundRobin",
                                               "RecoveryNode",
                                               "RateController",
                                               "BlackboardCheckInt",
                                               "BlackboardCheckDouble",
                                               "BlackboardCheckString"};
    return std::find(std::begin(documented), std::end(documented), name) != std::end(documented);
}

// Whether a file's model declares Canopy's own type: marked so (Canopy's writer), or of its
// shape with its ports, typed as Canopy's Groot2 palette types them (a tree drawn with it):
// each port one of the type's, and every parameter the type requires among them (a palette
// written before the type gained an optional one still names it).
bool declares_canopys(const node_model& model) {
    if (model.canopy_builtin) return true;
    if (model.namesake) return false;
    const node_type* canopy = canopy_builtins().find(model.name);
    if (canopy == nullptr || (model.shape && *model.shape != canopy->arity)) return false;
    auto modelled = [&](const param_spec& spec) {
        return std::any_of(model.ports.begin(), model.ports.end(), [&](const port_model& port) {
            return port.name == spec.name && port.type == btcpp::cpp_type_of(to_string(spec.type));
        });
    };
    const auto& params = canopy->params;
    const auto in_params = std::count_if(params.begin(), params.end(), modelled);
    return static_cast<std::size_t>(in_params) == model.ports.size() &&
           std::all_of(params.begin(), params.end(), [&](const param_spec& spec) {
               return spec.default_value || spec.type == param_type::any || modelled(spec);
           });
}

// The names the files' node models declare as Canopy's own types (declares_canopys).
std::set<std::string, std::less<>> modelled_names(const file_set& files) {
    std::set<std::string, std::less<>> names;
    for (std::size_t f = 0; f < files.size(); ++f) {
        for (const node_model& model : files.file(f).document.models) {
            if (declares_canopys(model)) names.insert(model.name);
        }
    }
    return names;
}

// One of Canopy's own node types that BehaviorTree.CPP lacks, named in a BehaviorTree.CPP file
// that does not declare it in its node models: the file's own program's node of that name
// (BehaviorTree.CPP itself knows no such node). A file Canopy wrote declares each such type
// it uses, so it reads back as Canopy's.
bool canopy_only(const tree_document& document, std::string_view name, const registry& reg,
                 const std::set<std::string, std::less<>>& modelled) {
    if (document.rules != runtime_rules::btcpp || btcpp::is_builtin(name) ||
        read_as_canopys(name) || modelled.count(name) != 0)
        return false;
    const node_type* known = reg.find(name);
    return known != nullptr && is_canopy_builtin(*known);
}

// Whether a record of a BehaviorTree.CPP file uses, under the name of one of Canopy's own
// node types that BehaviorTree.CPP lacks, a parameter Canopy's type does not take, or a name
// its models do not declare (canopy_only): the node of the file's own program of that name
// (Nav2's Wait, with its error_code_id), not Canopy's. BehaviorTree.CPP's own names, the
// program's own types and Canopy's formats (whose names are Canopy's) are checked as
// strictly as ever.
// A behavior3 file's node whose arguments are not those of the built-in its name maps to (a
// dialect's: behavior3java's `Log` with `info`) is the file's own program's node too.
bool another_programs_node(const tree_document& document, const record_set& records, std::size_t i,
                           const registry& reg,
                           const std::set<std::string, std::less<>>& modelled) {
    if (document.canopy_names) return false;
    const std::string_view name = records.type_name(i);
    if (canopy_only(document, name, reg, modelled)) return true;
    const node_type* known = reg.find(name);
    if (known == nullptr || !is_canopy_builtin(*known)) return false;
    if (document.rules == runtime_rules::btcpp && btcpp::is_builtin(name)) return false;
    for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
        // Condition attributes and editor metadata are every node's.
        if (!p->name.empty() && p->name.front() == '_') continue;
        const bool taken =
            std::any_of(known->params.begin(), known->params.end(),
                        [&](const param_spec& spec) { return spec.name == p->name; });
        if (!taken) return true;
    }
    return false;
}

}  // namespace

registry learn_types(const file_set& files, const registry& reg, bool lenient,
                     const std::vector<std::size_t>& palettes) {
    auto is_palette = [&](std::size_t f) {
        return std::find(palettes.begin(), palettes.end(), f) != palettes.end();
    };
    std::map<std::string, learned, std::less<>> types;
    std::vector<std::string> order;  // of first mention, so the registry lists them as met
    auto entry = [&](const std::string& name) -> learned& {
        auto [at, added] = types.try_emplace(name);
        if (added) order.push_back(name);
        return at->second;
    };
    // Canopy's names that another program's nodes take in these files: learned as unknown.
    std::set<std::string, std::less<>> shadowed;
    const std::set<std::string, std::less<>> modelled = modelled_names(files);
    for (std::size_t f = 0; lenient && f < files.size(); ++f) {
        const tree_document& document = files.file(f).document;
        for (const node_model& model : document.models) {
            if (model.namesake) shadowed.insert(model.name);  // Canopy's formats say so
        }
        for (const record_set& records : document.trees) {
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (!records.has_type_id(i) &&
                    another_programs_node(document, records, i, reg, modelled))
                    shadowed.emplace(records.type_name(i));
            }
        }
    }
    auto known = [&](std::string_view name) {
        return reg.find(name) != nullptr && shadowed.count(name) == 0;
    };
    // A type a BehaviorTree.CPP file's <TreeNodesModel> declares takes the ports its model
    // lists and no other: a use that gives another (`tagret` for `target`) is the typo the
    // builder reports, with the nearest. (behavior3 editors' custom node lists often leave
    // the properties out: there, uses still add to what a model says.)
    std::set<std::string, std::less<>> declared;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const tree_document& document = files.file(f).document;
        // Canopy's own formats write every port of the models they carry.
        if (document.rules != runtime_rules::btcpp && !document.canopy_names && !is_palette(f))
            continue;
        for (const node_model& model : document.models) declared.insert(model.name);
    }
    // Not lenient: only the palettes' types, as they declare them.
    for (std::size_t f = 0; lenient && f < files.size(); ++f) {
        const tree_document& document = files.file(f).document;
        for (const record_set& records : document.trees) {
            std::unordered_map<std::int64_t, std::size_t> children;
            for (std::size_t i = 0; i < records.size(); ++i) ++children[records.parent_id(i)];
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (records.has_type_id(i)) continue;
                const std::string name(records.type_name(i));
                if (name.empty() || name == subtree_type_name || miscased(reg, name)) continue;
                // What the program knows is checked as strictly as ever: a parameter it does
                // not take, or children its arity refuses, are errors, not another program's.
                if (known(name)) continue;
                learned& type = entry(name);
                type.foreign = true;
                auto count = children.find(records.id(i));
                const std::size_t n = count == children.end() ? 0 : count->second;
                type.any_use = true;
                type.most_children = std::max(type.most_children, n);
                type.all_one_child = type.all_one_child && n == 1;
                if (declared.count(name) != 0) continue;
                for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p)
                    mention(type, p->name);
            }
        }
    }
    for (std::size_t f = 0; f < files.size(); ++f) {
        const bool palette = is_palette(f);
        if (!lenient && !palette) continue;
        for (const node_model& model : files.file(f).document.models) {
            // The loader's own SubTree wins over a model of that name, as over a use of it.
            if (model.name == subtree_type_name) continue;
            auto at = types.find(model.name);
            if (at == types.end()) {
                if (known(model.name)) continue;  // the program's own wins
                entry(model.name).foreign = true;
                at = types.find(model.name);
            }
            if (model.shape) at->second.shape = model.shape;
            for (const port_model& port : model.ports) {
                mention(at->second, port.name, port.default_value,
                        palette && port.dir == port_model::direction::output);
            }
        }
    }
    registry foreign;
    for (const std::string& name : order) {
        const learned& type = types.at(name);
        // A type without a name is not learned: the builder reports the records that use it.
        if (!type.foreign || name.empty()) continue;
        node_type made;
        made.name = name;
        if (type.shape) {
            made.arity = *type.shape;
        } else if (type.most_children == 0) {
            made.arity = arity::leaf;
        } else {
            made.arity = type.any_use && type.all_one_child ? arity::decorator : arity::composite;
        }
        for (std::size_t p = 0; p < type.params.size(); ++p) {
            param_spec spec{type.params[p], param_type::any, std::nullopt, type.outputs[p]};
            if (type.defaults[p]) spec.default_value = *type.defaults[p];
            made.params.push_back(std::move(spec));
        }
        foreign.add(std::move(made));
    }
    return foreign;
}

void report_near_misses(file_set& files, const registry& reg, const registry& learned) {
    std::set<std::string, std::less<>> modelled;
    for (std::size_t f = 0; f < files.size(); ++f) {
        for (const node_model& model : files.file(f).document.models) modelled.insert(model.name);
    }
    for (std::size_t f = 0; f < files.size(); ++f) {
        const tree_document& document = files.file(f).document;
        // The names the file may mean, in its words.
        std::vector<std::string> names;
        for (const node_type& type : reg.types()) {
            names.push_back(document.words != nullptr ? document.words->type_name(type.name)
                                                      : type.name);
        }
        for (const auto& alias : reg.aliases()) {
            names.push_back(document.words != nullptr ? document.words->type_name(alias.first)
                                                      : alias.first);
        }
        if (document.rules == runtime_rules::btcpp) {
            for (std::string_view builtin : btcpp::builtin_types) names.emplace_back(builtin);
        }
        names.insert(names.end(), modelled.begin(), modelled.end());
        const std::vector<std::string_view> candidates(names.begin(), names.end());
        for (const record_set& records : document.trees) {
            for (std::size_t i = 0; i < records.size(); ++i) {
                const std::string_view name = records.type_name(i);
                // Short names are too near too many others for one edit to mean a typo.
                if (records.has_type_id(i) || name.size() < 4 || modelled.count(name) != 0 ||
                    learned.find(name) == nullptr)
                    continue;
                const std::string_view meant = nearest_within(name, candidates, 1);
                if (meant.empty()) continue;
                files.report(f, records.where(i), diagnostic_code::unknown_type,
                             "unknown node type '" + std::string(name) +
                                 "', read as the file's own, is one edit away from '" +
                                 std::string(meant) + "' (did you mean '" + std::string(meant) +
                                 "'?)",
                             records.id(i), diagnostic_severity::warning);
            }
        }
    }
}

void report_canopy_only_names(file_set& files, const registry& reg,
                              const std::vector<std::size_t>& palettes) {
    std::set<std::string, std::less<>> modelled = modelled_names(files);
    for (std::size_t f : palettes) {
        for (const node_model& model : files.file(f).document.models) modelled.insert(model.name);
    }
    for (std::size_t f = 0; f < files.size(); ++f) {
        const tree_document& document = files.file(f).document;
        for (const record_set& records : document.trees) {
            for (std::size_t i = 0; i < records.size(); ++i) {
                const std::string_view name = records.type_name(i);
                if (records.has_type_id(i) || !canopy_only(document, name, reg, modelled)) continue;
                files.report(f, records.where(i), diagnostic_code::unknown_type,
                             "unknown node type '" + std::string(name) +
                                 "': BehaviorTree.CPP has none, and Canopy's own '" +
                                 std::string(name) + "' is not read in its files",
                             records.id(i));
                files.last_reported().hint = {
                    "declare it in <TreeNodesModel> to use Canopy's; load_options::lenient "
                    "reads it as the file's own, load_options::model_files as the program's "
                    "node models declare it",
                    "declare it in <TreeNodesModel> to use Canopy's; `--lenient` reads it as "
                    "the file's own, `--models FILE` as the program's node models declare it"};
            }
        }
    }
}

}  // namespace canopy::detail
