// btcpp_load_verdict: loads a BehaviorTree.CPP XML file (or Groot2 project) in BehaviorTree.CPP
// 4.10 as the program that ships it would, and prints whether it loads. This is BehaviorTree.CPP's
// verdict that scripts/real_files_check.py holds Canopy to. Not part of Canopy's build: it links
// against a build of BehaviorTree.CPP 4.10, as scripts/btcpp_runner.cpp does.
//
// Build (SRC: BehaviorTree.CPP's sources, for the headers and the tinyxml2 header whose code
// libbehaviortree_cpp holds; PREFIX: its install prefix or build directory), outside this
// repository:
//
//   g++ -std=c++17 -O2 scripts/btcpp_load_verdict.cpp -o OUT/btcpp_load_verdict
//       -I SRC/include -I SRC/3rdparty/tinyxml2 -L PREFIX/lib -lbehaviortree_cpp
//       -Wl,-rpath,PREFIX/lib -pthread
//
// Usage: btcpp_load_verdict FILE [--project OTHER]...
//
// The program's node types are not at hand, so every node type that the files use and that is
// not one of BehaviorTree.CPP's own is registered as a dummy: of the category the files' own
// <TreeNodesModel> gives it (with exactly the ports it declares, input, output or both), else
// of the category the element says (<Action ID=...>, <Condition>, <Decorator>, <Control>), else,
// for a bare element, by the number of its children (0: action, 1: decorator, more: control),
// with every attribute the uses give it as a port (bidirectional where some use gives a
// "{key}", else input). Ports are untyped. A name that is a tree of the files is a subtree use,
// not a type. The files read are FILE, each --project file (the other files of the project that
// the program registers too, e.g. every objective of a MoveIt Pro folder) and every file they
// include, transitively.
//
// Then it registers FILE and each --project file (registerBehaviorTreeFromFile, which follows
// <include>; a file reached through another's include is not registered again) and creates the
// tree FILE's main_tree_to_execute names, or else each tree FILE declares (for a project file
// holding none, each tree its includes declare). It prints one line:
//
//   LOADS (N trees: A, B)
//   REFUSED: MESSAGE
//
// and exits 0 either way (2 for wrong usage).
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"
#include "tinyxml2.h"

namespace fs = std::filesystem;

namespace {

enum class category { action, condition, decorator, control };

struct port_use {
    bool input = false;
    bool output = false;
};

struct type_info {
    category kind = category::action;
    bool from_model = false;    // the files' <TreeNodesModel> declares it
    bool from_element = false;  // an <Action ID=...> (or ...) names it
    std::size_t max_children = 0;
    std::map<std::string, port_use> model_ports;
    std::map<std::string, port_use> used_ports;
};

class dummy_action final : public BT::SyncActionNode {
public:
    dummy_action(const std::string& name, const BT::NodeConfig& config)
        : BT::SyncActionNode(name, config) {}
    BT::NodeStatus tick() override { return BT::NodeStatus::SUCCESS; }
};

class dummy_condition final : public BT::ConditionNode {
public:
    dummy_condition(const std::string& name, const BT::NodeConfig& config)
        : BT::ConditionNode(name, config) {}
    BT::NodeStatus tick() override { return BT::NodeStatus::SUCCESS; }
};

class dummy_decorator final : public BT::DecoratorNode {
public:
    dummy_decorator(const std::string& name, const BT::NodeConfig& config)
        : BT::DecoratorNode(name, config) {}
    BT::NodeStatus tick() override { return child()->executeTick(); }
};

class dummy_control final : public BT::ControlNode {
public:
    dummy_control(const std::string& name, const BT::NodeConfig& config)
        : BT::ControlNode(name, config) {}
    BT::NodeStatus tick() override { return BT::NodeStatus::SUCCESS; }
};

std::string one_line(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r') continue;
        if (c == '\n') {
            if (i + 1 < text.size()) out += " | ";
            continue;
        }
        out += c;
    }
    return out;
}

bool is_key(const std::string& value) {
    return value.size() >= 2 && value.front() == '{' && value.back() == '}';
}

struct project_scan {
    std::vector<std::unique_ptr<tinyxml2::XMLDocument>> documents;
    std::set<std::string> files;                               // every file read, canonical
    std::set<std::string> included;                            // those reached through an <include>
    std::set<std::string> tree_ids;                            // every <BehaviorTree ID>
    std::map<std::string, std::vector<std::string>> trees_of;  // file -> its tree IDs
    std::map<std::string, std::vector<std::string>> includes_of;  // file -> the files it includes
    std::map<std::string, std::string> main_tree_of;  // file -> its main_tree_to_execute
    std::map<std::string, type_info> types;
    std::vector<std::string> problems;  // files that cannot be read: BehaviorTree.CPP says why
};

const std::set<std::string> explicit_tags = {"Action", "Condition", "Decorator", "Control"};

category category_of_tag(const std::string& tag) {
    if (tag == "Condition") return category::condition;
    if (tag == "Decorator") return category::decorator;
    if (tag == "Control") return category::control;
    return category::action;
}

void scan_node(project_scan& s, const tinyxml2::XMLElement* element) {
    const std::string tag = element->Name();
    if (tag == "SubTree") return;  // a use of a tree; BehaviorTree.CPP refuses children there
    std::string type = tag;
    bool from_element = false;
    if (explicit_tags.count(tag) != 0) {
        const char* id = element->Attribute("ID");
        if (id != nullptr && *id != '\0') {
            type = id;
            from_element = true;
        }
    }
    std::size_t children = 0;
    for (auto* c = element->FirstChildElement(); c; c = c->NextSiblingElement()) ++children;
    type_info& info = s.types[type];
    if (from_element && !info.from_model) {
        info.from_element = true;
        info.kind = category_of_tag(tag);
    }
    info.max_children = std::max(info.max_children, children);
    for (auto* a = element->FirstAttribute(); a; a = a->Next()) {
        const std::string name = a->Name();
        if (name == "name" || name == "ID" || (!name.empty() && name[0] == '_')) continue;
        port_use& use = info.used_ports[name];
        use.input = true;
        if (is_key(a->Value())) use.output = true;
    }
    for (auto* c = element->FirstChildElement(); c; c = c->NextSiblingElement()) scan_node(s, c);
}

void scan_models(project_scan& s, const tinyxml2::XMLElement* models) {
    for (auto* m = models->FirstChildElement(); m; m = m->NextSiblingElement()) {
        const std::string tag = m->Name();
        if (explicit_tags.count(tag) == 0) continue;  // SubTree models are the trees' own
        const char* id = m->Attribute("ID");
        if (id == nullptr || *id == '\0') continue;
        type_info& info = s.types[id];
        info.from_model = true;
        info.kind = category_of_tag(tag);
        for (auto* p = m->FirstChildElement(); p; p = p->NextSiblingElement()) {
            const char* name = p->Attribute("name");
            if (name == nullptr) continue;
            const std::string direction = p->Name();
            port_use& use = info.model_ports[name];
            if (direction == "input_port") use.input = true;
            if (direction == "output_port") use.output = true;
            if (direction == "inout_port") use.input = use.output = true;
        }
    }
}

void scan_file(project_scan& s, const fs::path& path, bool through_include) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    const std::string key = (error ? path : canonical).string();
    if (through_include) s.included.insert(key);
    if (!s.files.insert(key).second) return;
    auto document = std::make_unique<tinyxml2::XMLDocument>();
    if (document->LoadFile(key.c_str()) != tinyxml2::XML_SUCCESS) {
        s.problems.push_back(key);
        return;
    }
    const tinyxml2::XMLElement* root = document->RootElement();
    if (root == nullptr) return;
    if (const char* main = root->Attribute("main_tree_to_execute")) s.main_tree_of[key] = main;
    for (auto* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
        const std::string tag = e->Name();
        if (tag == "include") {
            const char* included = e->Attribute("path");
            if (included == nullptr || e->Attribute("ros_pkg") != nullptr) continue;
            fs::path next = included;
            if (next.is_relative()) next = fs::path(key).parent_path() / next;
            s.includes_of[key].push_back(next.string());
            scan_file(s, next, true);
        } else if (tag == "TreeNodesModel") {
            scan_models(s, e);
        } else if (tag == "BehaviorTree") {
            const char* id = e->Attribute("ID");
            const std::string name = id != nullptr ? id : "";
            s.tree_ids.insert(name);
            s.trees_of[key].push_back(name);
            for (auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) scan_node(s, c);
        }
    }
    s.documents.push_back(std::move(document));
}

// The trees of `file`, or, for a file that declares none (a Groot2 project), of its includes.
std::vector<std::string> trees_to_create(const project_scan& s, const std::string& file,
                                         std::set<std::string>& seen) {
    if (!seen.insert(file).second) return {};
    auto main = s.main_tree_of.find(file);
    if (main != s.main_tree_of.end() && !main->second.empty()) return {main->second};
    auto own = s.trees_of.find(file);
    if (own != s.trees_of.end() && !own->second.empty()) return own->second;
    std::vector<std::string> out;
    auto includes = s.includes_of.find(file);
    if (includes == s.includes_of.end()) return out;
    for (const std::string& included : includes->second) {
        std::error_code error;
        const fs::path canonical = fs::weakly_canonical(included, error);
        for (auto& tree : trees_to_create(s, error ? included : canonical.string(), seen)) {
            out.push_back(tree);
        }
    }
    return out;
}

BT::PortsList ports_of(const std::map<std::string, port_use>& ports) {
    BT::PortsList list;
    for (const auto& [name, use] : ports) {
        const BT::PortDirection direction = use.input && use.output ? BT::PortDirection::INOUT
                                            : use.output            ? BT::PortDirection::OUTPUT
                                                                    : BT::PortDirection::INPUT;
        list.insert(BT::CreatePort<BT::AnyTypeAllowed>(direction, name));
    }
    return list;
}

void register_dummy(BT::BehaviorTreeFactory& factory, const std::string& name,
                    const type_info& info) {
    category kind = info.kind;
    if (!info.from_model && !info.from_element) {
        kind = info.max_children == 0   ? category::action
               : info.max_children == 1 ? category::decorator
                                        : category::control;
    }
    BT::TreeNodeManifest manifest;
    manifest.registration_ID = name;
    manifest.ports = ports_of(info.from_model ? info.model_ports : info.used_ports);
    BT::NodeBuilder builder;
    switch (kind) {
        case category::action:
            manifest.type = BT::NodeType::ACTION;
            builder = [](const std::string& n, const BT::NodeConfig& c) {
                return std::make_unique<dummy_action>(n, c);
            };
            break;
        case category::condition:
            manifest.type = BT::NodeType::CONDITION;
            builder = [](const std::string& n, const BT::NodeConfig& c) {
                return std::make_unique<dummy_condition>(n, c);
            };
            break;
        case category::decorator:
            manifest.type = BT::NodeType::DECORATOR;
            builder = [](const std::string& n, const BT::NodeConfig& c) {
                return std::make_unique<dummy_decorator>(n, c);
            };
            break;
        case category::control:
            manifest.type = BT::NodeType::CONTROL;
            builder = [](const std::string& n, const BT::NodeConfig& c) {
                return std::make_unique<dummy_control>(n, c);
            };
            break;
    }
    factory.registerBuilder(manifest, builder);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0].rfind("--", 0) == 0) {
        std::cerr << "usage: btcpp_load_verdict FILE [--project OTHER]...\n";
        return 2;
    }
    const std::string file = args[0];
    std::vector<std::string> project;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--project" && i + 1 < args.size()) {
            project.push_back(args[++i]);
        } else {
            std::cerr << "unknown argument '" << args[i] << "'\n";
            return 2;
        }
    }

    project_scan s;
    scan_file(s, file, false);
    for (const std::string& other : project) scan_file(s, other, false);

    BT::BehaviorTreeFactory factory;
    const std::set<std::string> builtins = factory.builtinNodes();
    std::vector<std::string> registered;
    for (const auto& [name, info] : s.types) {
        if (builtins.count(name) != 0 || s.tree_ids.count(name) != 0 || name.empty()) continue;
        register_dummy(factory, name, info);
        registered.push_back(name);
    }

    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(file, error);
    const std::string key = error ? file : canonical.string();
    std::vector<std::string> created;
    try {
        std::vector<std::string> to_register{key};
        for (const std::string& other : project) {
            const fs::path c = fs::weakly_canonical(other, error);
            to_register.push_back(error ? other : c.string());
        }
        std::set<std::string> done;
        for (const std::string& path : to_register) {
            if (!done.insert(path).second) continue;
            if (path != key && s.included.count(path) != 0) continue;  // read through an include
            factory.registerBehaviorTreeFromFile(path);
        }
        std::set<std::string> seen;
        for (const std::string& tree : trees_to_create(s, key, seen)) {
            (void)factory.createTree(tree);
            created.push_back(tree);
        }
        if (created.empty()) throw BT::RuntimeError("the file declares no tree to create");
    } catch (const std::exception& e) {
        std::cout << "REFUSED: " << one_line(e.what()) << '\n';
        return 0;
    }
    std::cout << "LOADS (" << created.size() << (created.size() == 1 ? " tree: " : " trees: ");
    for (std::size_t i = 0; i < created.size(); ++i) std::cout << (i ? ", " : "") << created[i];
    std::cout << ")\n";
    return 0;
}
