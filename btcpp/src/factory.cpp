// BT::BehaviorTreeFactory and BT::Tree on Canopy: node types go into a canopy::registry,
// XML is read by Canopy's loader, and each Tree is the shared canopy::tree plus an agent.

#include <dlfcn.h>
#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <thread>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/utils/wildcards.hpp"
#include "behaviortree_cpp/xml_parsing.h"
#include "canopy/core/diagnostic.hpp"
#include "canopy/formats/format.hpp"
#include "canopy/load/load.hpp"
#include "canopy/load/substitution.hpp"
#include "canopy/nodes/builtin_nodes.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/views/palette.hpp"
#include "tree_state.hpp"
#include "verify_xml.hpp"

namespace BT {

namespace detail {

static std::string read_file(const std::filesystem::path& filename) {
    canopy::file_read_result file = canopy::read_file(filename);
    if (!file) throw RuntimeError("Cannot open file: ", filename.string());
    return std::move(*file.text);
}

// The main tree of a document (main_tree_to_execute, else its only tree) when one of its
// SubTrees names a tree it does not define and `registered` has; else "".
static std::string main_tree_using(const tinyxml2::XMLDocument& document,
                                   const std::vector<std::string>& registered) {
    const tinyxml2::XMLElement* root = document.RootElement();
    std::vector<std::string> defined;
    for (const auto* e = root->FirstChildElement("BehaviorTree"); e != nullptr;
         e = e->NextSiblingElement("BehaviorTree")) {
        if (const char* id = e->Attribute("ID")) defined.emplace_back(id);
    }
    auto named = [](const std::vector<std::string>& ids, const char* id) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
    };
    std::function<bool(const tinyxml2::XMLElement&)> uses_registered =
        [&](const tinyxml2::XMLElement& e) {
            const char* id = e.Attribute("ID");
            if (std::string_view(e.Name()) == "SubTree" && id != nullptr && !named(defined, id) &&
                named(registered, id))
                return true;
            for (const auto* child = e.FirstChildElement(); child != nullptr;
                 child = child->NextSiblingElement()) {
                if (uses_registered(*child)) return true;
            }
            return false;
        };
    if (!uses_registered(*root)) return {};
    if (const char* main = root->Attribute("main_tree_to_execute")) return main;
    return defined.size() == 1 ? defined.front() : std::string();
}

// Documents registered together: the factory's, or an XMLParser's.
struct DocumentSet {
    struct document {
        std::string text;
        std::filesystem::path path;  // empty for text
        std::vector<std::string> ids;
    };
    std::vector<document> documents;
    std::vector<std::string> tree_ids;
};

class FactoryState {
public:
    FactoryState() {
        for (std::string_view name : canopy::info(canopy::file_format::btcpp_xml).builtin_types)
            builtin_ids.emplace(name);
    }

    void add(const TreeNodeManifest& manifest, const NodeBuilder& builder) {
        const std::string& id = manifest.registration_ID;
        // A name only Canopy gives a node (Wait, Selector) is the program's to take.
        if (builders.count(id) != 0 || builtin_ids.count(id) != 0) {
            throw BehaviorTreeException("ID [", id, "] already registered");
        }
        canopy::node_type type;
        type.name = id;
        switch (manifest.type) {
            case NodeType::DECORATOR: type.arity = canopy::arity::decorator; break;
            case NodeType::CONTROL: type.arity = canopy::arity::composite; break;
            default: type.arity = canopy::arity::leaf; break;
        }
        type.condition = manifest.type == NodeType::CONDITION;
        // Sorted, so that a type's parameters come in the same order whatever the hash.
        std::map<std::string, const PortInfo*> ports;
        for (const auto& [name, info] : manifest.ports) ports.emplace(name, &info);
        for (const auto& [name, info] : ports) type.params.push_back(param_of(name, *info));
        auto shared = std::make_shared<const TreeNodeManifest>(manifest);
        type.create = [shared, builder](const canopy::param_list&) {
            return std::unique_ptr<canopy::node>(new btcpp_node(shared, builder));
        };
        user_types.push_back(std::move(type));
        builders[id] = builder;
        manifests[id] = manifest;
        changed();
    }

    // Registrations changed: the registry and the trees loaded with it are made again.
    void changed() {
        built.reset();
        trees.clear();
    }

    // Canopy's registry of the program's types, then Canopy's built-ins whose names the
    // program did not take.
    canopy::registry& registry() {
        if (built && built_casts == casts->version()) return *built;
        changed();
        built.emplace();
        built_casts = casts->version();
        canopy::registry& reg = *built;
        reg.add_builtin_types();
        for (const auto& type : value_types) {
            if (reg.find_type(type->name) == nullptr) reg.add_type(type);
        }
        for (canopy::node_type type : user_types) {
            // An input port of shared_ptr<Base> reads keys of the types registered as casting
            // to it (registerPolymorphicCast), as BehaviorTree.CPP's does.
            for (canopy::param_spec& param : type.params) {
                if (!param.output && param.custom != nullptr)
                    param.converts_from = casts->convertibleTo(param.custom->cpp_type);
            }
            reg.add(type);
        }
        canopy::registry builtins;
        canopy::register_builtin_nodes(builtins);
        for (const canopy::node_type& type : builtins.types()) {
            if (reg.find(type.name) == nullptr) reg.add(type);
        }
        for (const auto& [alias, target] : builtins.aliases()) {
            if (reg.find(alias) == nullptr && reg.find(target) != nullptr)
                reg.add_alias(alias, target);
        }
        for (const auto& [name, value] : enums) reg.add_enum(name, value);
        return reg;
    }

    // The Canopy parameter of a port: its type, and never required, since BehaviorTree.CPP
    // reports a port the XML leaves out only when the node reads it.
    canopy::param_spec param_of(const std::string& name, const PortInfo& info) {
        canopy::param_spec spec;
        spec.name = name;
        spec.output = info.direction() == PortDirection::OUTPUT;
        spec.omissible = true;
        const std::type_index& t = info.type();
        if (t == typeid(bool)) {
            spec.type = canopy::param_type::boolean;
        } else if (t == typeid(int) || t == typeid(long) || t == typeid(long long) ||
                   t == typeid(unsigned) || t == typeid(unsigned long) ||
                   t == typeid(unsigned long long) || t == typeid(short) ||
                   t == typeid(unsigned short) || t == typeid(signed char) ||
                   t == typeid(unsigned char) || t == typeid(char)) {
            spec.type = canopy::param_type::integer;
        } else if (t == typeid(double) || t == typeid(float)) {
            spec.type = canopy::param_type::number;
        } else if (t == typeid(std::string) || t == typeid(std::string_view)) {
            spec.type = canopy::param_type::string;
        } else if (auto custom = info.blackboardType()) {
            spec.type = canopy::param_type::custom;
            spec.custom = registered(std::move(custom));
        } else {
            spec.type = canopy::param_type::any;
        }
        return spec;
    }

    // The type a port's C++ type has on the blackboard: one per C++ type, under its readable
    // name; Canopy's own for BehaviorTree.CPP's vectors.
    std::shared_ptr<const canopy::value_type> registered(
        std::shared_ptr<const canopy::value_type> type) {
        for (const auto& known : canopy::builtin_value_types()) {
            if (known->cpp_type == type->cpp_type) return known;
        }
        for (const auto& known : value_types) {
            if (known->cpp_type == type->cpp_type) return known;
        }
        value_types.push_back(type);
        return type;
    }

    // Loads XML text, the registered trees beside it when it names `tree`. The keys that hold
    // a value in `given`, the program's blackboard, are the program's (program_keys): a key
    // of the tree among them holds the program's value as BehaviorTree.CPP's entry does.
    std::shared_ptr<const canopy::tree> load(const std::string& text, const std::string& path,
                                             const std::string& tree,
                                             const Blackboard::Ptr& given = nullptr) {
        registry();  // made again first if the casts changed, with the trees it loaded
        std::vector<std::string> written;
        if (given) {
            for (const StringView key : given->getKeys()) {
                const auto entry = given->getEntry(std::string(key));
                if (entry && !entry->value.empty()) written.emplace_back(key);
            }
            std::sort(written.begin(), written.end());
        }
        std::string cache_key = path + '\n' + tree + '\n' + text;
        for (const std::string& key : written) cache_key += '\n' + key;
        if (auto found = trees.find(cache_key); found != trees.end()) return found->second;
        canopy::load_options options;
        options.program_keys = written;
        options.tree = tree;
        options.format = canopy::file_format::btcpp_xml;
        if (!substitution_rules.empty()) options.substitutions = canopy_rules();
        canopy::load_result loaded =
            path.empty() || path.front() == '<'
                ? canopy::try_load_text(text, canopy::file_format::btcpp_xml, registry(),
                                        path.empty() ? "<text>" : path, options)
                : canopy::try_load_file(path, registry(), options);
        if (!loaded) {
            std::string message = "Error creating the tree";
            if (!tree.empty()) message += " [" + tree + "]";
            message += ":";
            for (const canopy::diagnostic& d : loaded.diagnostics) {
                if (d.severity == canopy::diagnostic_severity::error)
                    message += "\n" + for_a_program(canopy::to_string(d));
            }
            throw RuntimeError(message);
        }
        trees[cache_key] = loaded.tree;
        return loaded.tree;
    }

    // A diagnostic's hint for the CLI (`--lenient`) said as what a program calls instead: a
    // node of its own of that name, registered with the ports the file gives it.
    static std::string for_a_program(std::string message) {
        static constexpr std::string_view cli_hint = "`--lenient` reads it as the file's own";
        static constexpr std::string_view program_hint =
            "register it as your own: factory.registerNodeType<YourNode>(\"Name\"), with the "
            "file's ports in YourNode::providedPorts()";
        for (std::size_t at = message.find(cli_hint); at != std::string::npos;
             at = message.find(cli_hint, at + program_hint.size())) {
            message.replace(at, cli_hint.size(), program_hint);
        }
        return message;
    }

    static bool defined_later(const tinyxml2::XMLElement& tree, std::string_view id) {
        for (const auto* e = tree.NextSiblingElement("BehaviorTree"); e != nullptr;
             e = e->NextSiblingElement("BehaviorTree")) {
            if (const char* other = e->Attribute("ID"); other != nullptr && id == other)
                return true;
        }
        return false;
    }

    // A set's documents as one, for a tree that may use subtrees of any of them.
    static std::string combined_text(const DocumentSet& set) {
        tinyxml2::XMLDocument combined;
        tinyxml2::XMLElement* root = combined.NewElement("root");
        root->SetAttribute("BTCPP_format", "4");
        combined.InsertEndChild(root);
        for (const DocumentSet::document& doc : set.documents) {
            tinyxml2::XMLDocument one;
            one.Parse(doc.text.c_str(), doc.text.size());
            const tinyxml2::XMLElement* their_root = one.RootElement();
            if (their_root == nullptr) continue;
            for (const tinyxml2::XMLElement* e = their_root->FirstChildElement(); e != nullptr;
                 e = e->NextSiblingElement()) {
                // A tree registered again, later in this document or in a later one, is the
                // later one, as in BehaviorTree.CPP.
                const char* id = e->Attribute("ID");
                if (std::string_view(e->Name()) == "BehaviorTree" && id != nullptr &&
                    (std::find(doc.ids.begin(), doc.ids.end(), id) == doc.ids.end() ||
                     defined_later(*e, id)))
                    continue;
                tinyxml2::XMLNode* copy = e->DeepClone(&combined);
                if (std::string_view(e->Name()) == "include" && !doc.path.empty()) {
                    // Relative to the file that included it.
                    const char* relative = e->Attribute("path");
                    if (relative != nullptr) {
                        copy->ToElement()->SetAttribute(
                            "path", (doc.path.parent_path() / relative).string().c_str());
                    }
                }
                root->InsertEndChild(copy);
            }
        }
        tinyxml2::XMLPrinter printer;
        combined.Print(&printer);
        return printer.CStr();
    }

    // Parses the XML, refusing it where BehaviorTree.CPP refuses it before making a tree.
    void verify(const std::string& text, tinyxml2::XMLDocument& parsed) {
        if (parsed.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS ||
            parsed.RootElement() == nullptr) {
            throw RuntimeError("Error parsing the XML: ", parsed.ErrorStr());
        }
        verify_document(parsed, [this](std::string_view name) -> std::optional<NodeType> {
            const canopy::node_type* type = registry().find(std::string(name));
            if (type == nullptr) return std::nullopt;
            switch (type->arity) {
                case canopy::arity::composite: return NodeType::CONTROL;
                case canopy::arity::decorator: return NodeType::DECORATOR;
                default: return type->condition ? NodeType::CONDITION : NodeType::ACTION;
            }
        });
    }

    // verify(), for a tree about to be made: where Canopy's loader refuses the document too,
    // its message (every problem, each located, with suggestions) is the one thrown.
    void verify_before_loading(const std::string& text, const std::string& path,
                               tinyxml2::XMLDocument& parsed) {
        try {
            verify(text, parsed);
        } catch (const RuntimeError&) {
            (void)load(path.empty() ? text : std::string(), path.empty() ? "<text>" : path, {});
            throw;
        }
    }

    void register_document(DocumentSet& set, std::string text, std::filesystem::path path) {
        tinyxml2::XMLDocument parsed;
        verify(text, parsed);
        DocumentSet::document doc{std::move(text), std::move(path), {}};
        for (const tinyxml2::XMLElement* e =
                 parsed.RootElement()->FirstChildElement("BehaviorTree");
             e != nullptr; e = e->NextSiblingElement("BehaviorTree")) {
            const char* id = e->Attribute("ID");
            if (id == nullptr) continue;
            if (std::find(doc.ids.begin(), doc.ids.end(), id) == doc.ids.end())
                doc.ids.emplace_back(id);
        }
        // Registering a tree ID again replaces the tree, as BehaviorTree.CPP does.
        for (DocumentSet::document& older : set.documents) {
            for (const std::string& id : doc.ids) {
                older.ids.erase(std::remove(older.ids.begin(), older.ids.end(), id),
                                older.ids.end());
            }
        }
        for (const std::string& id : doc.ids) {
            if (std::find(set.tree_ids.begin(), set.tree_ids.end(), id) == set.tree_ids.end())
                set.tree_ids.push_back(id);
        }
        set.documents.push_back(std::move(doc));
        trees.clear();
    }

    std::shared_ptr<const canopy::substitution_rules> canopy_rules() const {
        auto rules = std::make_shared<canopy::substitution_rules>();
        int made = 0;
        for (const auto& [pattern, rule] : substitution_rules) {
            if (const auto* id = std::get_if<std::string>(&rule)) {
                rules->rules.push_back({pattern, *id, {}});
                continue;
            }
            const auto& config = std::get<TestNodeConfig>(rule);
            if (config.complete_func) {
                throw RuntimeError("Substitution rule [", pattern,
                                   "]: complete_func is not supported; use the scripts");
            }
            canopy::test_node_config test =
                canopy_test_config(config, "TestNodeConfig#" + std::to_string(++made));
            rules->rules.push_back({pattern, test.name, {}});
            rules->configs.push_back(std::move(test));
        }
        return rules;
    }

    static canopy::test_node_config canopy_test_config(const TestNodeConfig& config,
                                                       std::string name) {
        canopy::test_node_config test;
        test.name = std::move(name);
        switch (config.return_status) {
            case NodeStatus::SUCCESS: test.return_status = canopy::status::success; break;
            case NodeStatus::FAILURE: test.return_status = canopy::status::failure; break;
            case NodeStatus::RUNNING: test.return_status = canopy::status::running; break;
            case NodeStatus::SKIPPED: test.return_status = canopy::status::skipped; break;
            case NodeStatus::IDLE:
                throw RuntimeError(
                    "TestNode return_status resolved to invalid status (integer value: 0)");
        }
        test.return_status_script = config.return_status_script;
        test.async_delay = std::chrono::duration<double>(config.async_delay).count();
        test.success_script = config.success_script;
        test.failure_script = config.failure_script;
        test.post_script = config.post_script;
        return test;
    }

    // A TestNode type: Canopy's engine runs it, its scripts compiled with the tree.
    void add_test_node(const std::string& id, const TestNodeConfig& config) {
        if (builders.count(id) != 0 || builtin_ids.count(id) != 0)
            throw BehaviorTreeException("ID [", id, "] already registered");
        if (config.complete_func) {
            throw RuntimeError("registerNodeType<TestNode>(", id,
                               "): complete_func is not supported; use the scripts");
        }
        canopy::node_type original;
        original.name = id;
        user_types.push_back(
            canopy::make_test_node_type(id, original, canopy_test_config(config, id)));
        auto shared = std::make_shared<TestNodeConfig>(config);
        builders[id] = [shared](const std::string& name, const NodeConfig& node_config) {
            return std::make_unique<TestNode>(name, node_config, shared);
        };
        manifests[id] = TreeNodeManifest{NodeType::ACTION, id, {}, {}};
        changed();
    }

    Tree make(std::shared_ptr<const canopy::tree> tree, Blackboard::Ptr blackboard) const {
        if (blackboard) blackboard->setPolymorphicCastRegistry(casts);
        Tree made;
        auto registered = std::make_shared<ScriptingEnumsRegistry>(enums.begin(), enums.end());
        made.manifests = manifests;  // before the nodes, whose configs point into it
        made.state_ = std::make_unique<TreeState>(std::move(tree), std::move(blackboard),
                                                  registered, &made.manifests);
        made.subtrees = made.state_->subtrees();
        return made;
    }

    std::vector<canopy::node_type> user_types;
    std::vector<std::shared_ptr<const canopy::value_type>> value_types;
    std::vector<std::pair<std::string, int>> enums;
    std::shared_ptr<PolymorphicCastRegistry> casts = std::make_shared<PolymorphicCastRegistry>();
    std::optional<canopy::registry> built;  // made from the above when a tree is loaded
    unsigned built_casts = 0;               // the casts' version `built` was made with
    std::unordered_map<std::string, NodeBuilder> builders;
    std::unordered_map<std::string, TreeNodeManifest> manifests;
    std::set<std::string> builtin_ids;
    DocumentSet registered_trees;
    std::map<std::string, std::shared_ptr<const canopy::tree>> trees;  // loaded, shared
    std::unordered_map<std::string, SubstitutionRule> substitution_rules;
};

}  // namespace detail

// ---- BehaviorTreeFactory ----

BehaviorTreeFactory::BehaviorTreeFactory() : state_(std::make_unique<detail::FactoryState>()) {}
BehaviorTreeFactory::~BehaviorTreeFactory() = default;
BehaviorTreeFactory::BehaviorTreeFactory(BehaviorTreeFactory&& other) noexcept = default;
BehaviorTreeFactory& BehaviorTreeFactory::operator=(BehaviorTreeFactory&& other) noexcept = default;

bool BehaviorTreeFactory::unregisterBuilder(const std::string& ID) {
    auto& types = state_->user_types;
    auto found = std::find_if(types.begin(), types.end(),
                              [&](const canopy::node_type& type) { return type.name == ID; });
    if (found == types.end()) return false;
    types.erase(found);
    state_->builders.erase(ID);
    state_->manifests.erase(ID);
    state_->changed();
    return true;
}

void BehaviorTreeFactory::registerBuilder(const TreeNodeManifest& manifest,
                                          const NodeBuilder& builder) {
    state_->add(manifest, builder);
}

void BehaviorTreeFactory::registerSimpleAction(const std::string& ID,
                                               const SimpleActionNode::TickFunctor& tick_functor,
                                               PortsList ports) {
    NodeBuilder builder = [tick_functor](const std::string& name, const NodeConfig& config) {
        return std::make_unique<SimpleActionNode>(name, tick_functor, config);
    };
    registerBuilder(CreateManifest<SimpleActionNode>(ID, std::move(ports)), builder);
}

void BehaviorTreeFactory::registerSimpleCondition(
    const std::string& ID, const SimpleConditionNode::TickFunctor& tick_functor, PortsList ports) {
    NodeBuilder builder = [tick_functor](const std::string& name, const NodeConfig& config) {
        return std::make_unique<SimpleConditionNode>(name, tick_functor, config);
    };
    registerBuilder(CreateManifest<SimpleConditionNode>(ID, std::move(ports)), builder);
}

void BehaviorTreeFactory::registerSimpleDecorator(
    const std::string& ID, const SimpleDecoratorNode::TickFunctor& tick_functor, PortsList ports) {
    NodeBuilder builder = [tick_functor](const std::string& name, const NodeConfig& config) {
        return std::make_unique<SimpleDecoratorNode>(name, tick_functor, config);
    };
    registerBuilder(CreateManifest<SimpleDecoratorNode>(ID, std::move(ports)), builder);
}

void BehaviorTreeFactory::registerFromPlugin(const std::string& file_path) {
    void* library = ::dlopen(file_path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr) {
        const char* why = ::dlerror();
        throw RuntimeError("Cannot load library: ", why != nullptr ? why : file_path);
    }
    using register_function = void (*)(BehaviorTreeFactory&);
    auto* entry =
        reinterpret_cast<register_function>(::dlsym(library, "BT_RegisterNodesFromPlugin"));
    if (entry == nullptr) {
        throw RuntimeError("Function BT_RegisterNodesFromPlugin not found in ", file_path);
    }
    entry(*this);
}

void BehaviorTreeFactory::registerBehaviorTreeFromFile(const std::filesystem::path& filename) {
    state_->register_document(state_->registered_trees, detail::read_file(filename),
                              std::filesystem::absolute(filename));
}

void BehaviorTreeFactory::registerBehaviorTreeFromText(const std::string& xml_text) {
    state_->register_document(state_->registered_trees, xml_text, {});
}

std::vector<std::string> BehaviorTreeFactory::registeredBehaviorTrees() const {
    std::vector<std::string> ids = state_->registered_trees.tree_ids;
    std::sort(ids.begin(), ids.end());
    return ids;
}

void BehaviorTreeFactory::clearRegisteredBehaviorTrees() {
    state_->registered_trees = {};
    state_->trees.clear();
}

const std::unordered_map<std::string, NodeBuilder>& BehaviorTreeFactory::builders() const {
    return state_->builders;
}

const std::unordered_map<std::string, TreeNodeManifest>& BehaviorTreeFactory::manifests() const {
    return state_->manifests;
}

const std::set<std::string>& BehaviorTreeFactory::builtinNodes() const {
    return state_->builtin_ids;
}

Tree BehaviorTreeFactory::createTreeFromText(const std::string& text, Blackboard::Ptr blackboard) {
    tinyxml2::XMLDocument parsed;
    state_->verify_before_loading(text, {}, parsed);
    // A SubTree the text does not define may be a registered tree's, as in BehaviorTree.CPP:
    // the text is then read with the registered documents, its main tree made.
    if (const std::string main = detail::main_tree_using(parsed, state_->registered_trees.tree_ids);
        !main.empty()) {
        detail::DocumentSet with_text = state_->registered_trees;
        state_->register_document(with_text, text, {});
        auto loaded = state_->load(detail::FactoryState::combined_text(with_text),
                                   "<registered trees>", main, blackboard);
        return state_->make(std::move(loaded), std::move(blackboard));
    }
    auto loaded = state_->load(text, "<text>", {}, blackboard);
    return state_->make(std::move(loaded), std::move(blackboard));
}

Tree BehaviorTreeFactory::createTreeFromFile(const std::filesystem::path& file_path,
                                             Blackboard::Ptr blackboard) {
    tinyxml2::XMLDocument parsed;
    state_->verify_before_loading(detail::read_file(file_path), file_path.string(), parsed);
    auto loaded = state_->load({}, file_path.string(), {}, blackboard);
    return state_->make(std::move(loaded), std::move(blackboard));
}

Tree BehaviorTreeFactory::createTree(const std::string& tree_name, Blackboard::Ptr blackboard) {
    const auto& ids = state_->registered_trees.tree_ids;
    if (std::find(ids.begin(), ids.end(), tree_name) == ids.end()) {
        throw RuntimeError("Can't find a tree with name: ", tree_name);
    }
    // Loaded before `blackboard` is moved into make(): arguments have no order.
    auto loaded = state_->load(detail::FactoryState::combined_text(state_->registered_trees),
                               "<registered trees>", tree_name, blackboard);
    return state_->make(std::move(loaded), std::move(blackboard));
}

void BehaviorTreeFactory::registerTestNode(const std::string& ID, const TestNodeConfig& config) {
    state_->add_test_node(ID, config);
}

XMLParser::XMLParser(const BehaviorTreeFactory& factory)
    : factory_(factory), documents_(std::make_unique<detail::DocumentSet>()) {}

XMLParser::~XMLParser() = default;

void XMLParser::loadFromFile(const std::filesystem::path& filename, bool /*add_includes*/) {
    factory_.state_->register_document(*documents_, detail::read_file(filename),
                                       std::filesystem::absolute(filename));
}

void XMLParser::loadFromText(const std::string& xml_text, bool /*add_includes*/) {
    factory_.state_->register_document(*documents_, xml_text, {});
}

std::vector<std::string> XMLParser::registeredBehaviorTrees() const {
    std::vector<std::string> ids = documents_->tree_ids;
    std::sort(ids.begin(), ids.end());
    return ids;
}

Tree XMLParser::instantiateTree(const Blackboard::Ptr& root_blackboard, std::string main_tree_ID) {
    const auto& ids = documents_->tree_ids;
    if (main_tree_ID.empty() && !documents_->documents.empty()) {
        tinyxml2::XMLDocument first;
        const std::string& text = documents_->documents.front().text;
        first.Parse(text.c_str(), text.size());
        if (const char* main = first.RootElement()->Attribute("main_tree_to_execute"))
            main_tree_ID = main;
    }
    if (main_tree_ID.empty() && ids.size() == 1) main_tree_ID = ids.front();
    if (main_tree_ID.empty())
        throw RuntimeError("[main_tree_to_execute] was not specified correctly");
    if (std::find(ids.begin(), ids.end(), main_tree_ID) == ids.end())
        throw RuntimeError("Can't find a tree with name: ", main_tree_ID);
    detail::FactoryState& state = *factory_.state_;
    return state.make(state.load(detail::FactoryState::combined_text(*documents_),
                                 "<registered trees>", main_tree_ID, root_blackboard),
                      root_blackboard);
}

void XMLParser::clearInternalState() {
    *documents_ = {};
}

void BehaviorTreeFactory::addMetadataToManifest(const std::string& node_id,
                                                const KeyValueVector& metadata) {
    auto found = state_->manifests.find(node_id);
    if (found == state_->manifests.end()) {
        throw std::runtime_error("addMetadataToManifest: wrong ID");
    }
    found->second.metadata = metadata;
}

std::string writeTreeNodesModelXML(const BehaviorTreeFactory& factory, bool /*include_builtin*/) {
    // The program's types alone: Canopy's own built-ins are not the program's either.
    canopy::registry types;
    types.add_builtin_types();
    for (const auto& type : factory.state_->value_types) {
        if (types.find_type(type->name) == nullptr) types.add_type(type);
    }
    for (const canopy::node_type& type : factory.state_->user_types) types.add(type);
    return canopy::write_palette(types, canopy::file_format::btcpp_xml);
}

PolymorphicCastRegistry& BehaviorTreeFactory::polymorphicCastRegistry() {
    return *state_->casts;
}
const PolymorphicCastRegistry& BehaviorTreeFactory::polymorphicCastRegistry() const {
    return *state_->casts;
}
std::shared_ptr<PolymorphicCastRegistry> BehaviorTreeFactory::polymorphicCastRegistryPtr() const {
    return state_->casts;
}

void BehaviorTreeFactory::registerScriptingEnum(StringView name, int value) {
    for (auto& [known, old_value] : state_->enums) {
        if (known == name) {
            old_value = value;
            state_->changed();
            return;
        }
    }
    state_->enums.emplace_back(std::string(name), value);
    state_->changed();
}

void BehaviorTreeFactory::clearSubstitutionRules() {
    state_->substitution_rules.clear();
    state_->trees.clear();
}

void BehaviorTreeFactory::addSubstitutionRule(StringView filter, SubstitutionRule rule) {
    state_->substitution_rules[std::string(filter)] = std::move(rule);
    state_->trees.clear();
}

void BehaviorTreeFactory::loadSubstitutionRuleFromJSON(const std::string& json_text) {
    canopy::substitution_read_result read = canopy::read_substitution_rules(json_text, "<json>");
    if (!read) {
        std::string message = "Substitution rules:";
        for (const canopy::diagnostic& d : read.diagnostics) message += "\n" + canopy::to_string(d);
        throw RuntimeError(message);
    }
    for (const canopy::substitution_rule& rule : read.rules.rules) {
        const canopy::test_node_config* config = read.rules.config(rule.replacement);
        if (config == nullptr) {
            state_->substitution_rules[rule.pattern] = rule.replacement;
            continue;
        }
        TestNodeConfig test;
        switch (config->return_status.value_or(canopy::status::success)) {
            case canopy::status::failure: test.return_status = NodeStatus::FAILURE; break;
            case canopy::status::running: test.return_status = NodeStatus::RUNNING; break;
            case canopy::status::skipped: test.return_status = NodeStatus::SKIPPED; break;
            default: test.return_status = NodeStatus::SUCCESS; break;
        }
        test.return_status_script = config->return_status_script;
        test.async_delay = std::chrono::milliseconds(std::llround(config->async_delay * 1000.0));
        test.success_script = config->success_script;
        test.failure_script = config->failure_script;
        test.post_script = config->post_script;
        state_->substitution_rules[rule.pattern] = test;
    }
    state_->trees.clear();
}

const std::unordered_map<std::string, SubstitutionRule>& BehaviorTreeFactory::substitutionRules()
    const {
    return state_->substitution_rules;
}

// ---- Tree ----

Tree::Tree() = default;
Tree::Tree(Tree&& other) noexcept = default;
Tree& Tree::operator=(Tree&& other) noexcept = default;
Tree::~Tree() = default;

void Tree::haltTree() {
    if (state_) state_->halt();
}

TreeNode* Tree::rootNode() const {
    return state_ ? state_->node(0) : nullptr;
}

bool Tree::sleep(std::chrono::system_clock::duration timeout) {
    if (!state_) {
        std::this_thread::sleep_for(timeout);
        return false;
    }
    return state_->sleep(std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout));
}

NodeStatus Tree::tickRoot(TickOption opt, std::chrono::milliseconds sleep_time) {
    if (!state_) throw RuntimeError("Empty Tree");
    NodeStatus status = NodeStatus::IDLE;
    while (status == NodeStatus::IDLE ||
           (opt == TickOption::WHILE_RUNNING && status == NodeStatus::RUNNING)) {
        status = state_->tick_root();
        // A node asked for another tick during this one: unless exactly once, tick again.
        while (opt != TickOption::EXACTLY_ONCE && status == NodeStatus::RUNNING &&
               state_->take_wake_up()) {
            status = state_->tick_root();
        }
        if (status == NodeStatus::RUNNING && sleep_time.count() > 0) sleep(sleep_time);
    }
    return status;
}

NodeStatus Tree::tickExactlyOnce() {
    return tickRoot(TickOption::EXACTLY_ONCE, std::chrono::milliseconds(0));
}

NodeStatus Tree::tickOnce() {
    return tickRoot(TickOption::ONCE_UNLESS_WOKEN_UP, std::chrono::milliseconds(0));
}

NodeStatus Tree::tickWhileRunning(std::chrono::milliseconds sleep_time) {
    return tickRoot(TickOption::WHILE_RUNNING, sleep_time);
}

Blackboard::Ptr Tree::rootBlackboard() {
    return state_ ? state_->blackboard() : nullptr;
}

void Tree::applyVisitor(const std::function<void(const TreeNode*)>& visitor) const {
    for (const TreeNode* node : allNodes()) visitor(node);
}

void Tree::applyVisitor(const std::function<void(TreeNode*)>& visitor) {
    if (!state_) return;
    for (TreeNode* node : state_->nodes()) visitor(node);
}

std::vector<const TreeNode*> Tree::allNodes() const {
    if (!state_) return {};
    return {state_->nodes().begin(), state_->nodes().end()};
}

bool Tree::wildcardMatch(StringView text, StringView pattern) {
    return canopy::matches_pattern(text, pattern);
}

}  // namespace BT

bool wildcards_match(std::string_view text, std::string_view pattern) {
    return canopy::matches_pattern(text, pattern);
}

namespace BT {

const canopy::tree& Tree::canopyTree() const {
    if (!state_) throw RuntimeError("Empty Tree");
    return state_->tree();
}

canopy::agent& Tree::canopyAgent() {
    if (!state_) throw RuntimeError("Empty Tree");
    return state_->agent();
}

}  // namespace BT
