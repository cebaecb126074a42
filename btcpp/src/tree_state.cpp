#include "tree_state.hpp"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/blackboard.hpp"
#include "run/btcpp_entry.hpp"

namespace BT::detail {

// ---- TreeLock ----

void TreeLock::lock() {
    std::unique_lock<std::mutex> hold(mutex_);
    const std::thread::id me = std::this_thread::get_id();
    if (depth_ > 0 && owner_ == me) {
        ++depth_;
        return;
    }
    free_.wait(hold, [&] { return depth_ == 0; });
    owner_ = me;
    depth_ = 1;
}

void TreeLock::unlock() {
    std::unique_lock<std::mutex> hold(mutex_);
    if (--depth_ == 0) {
        owner_ = {};
        hold.unlock();
        free_.notify_one();
    }
}

int TreeLock::release_all() {
    std::unique_lock<std::mutex> hold(mutex_);
    if (depth_ == 0 || owner_ != std::this_thread::get_id()) return 0;
    const int held = depth_;
    depth_ = 0;
    owner_ = {};
    hold.unlock();
    free_.notify_one();
    return held;
}

void TreeLock::reacquire(int held) {
    if (held == 0) return;
    std::unique_lock<std::mutex> hold(mutex_);
    free_.wait(hold, [&] { return depth_ == 0; });
    owner_ = std::this_thread::get_id();
    depth_ = held;
}

namespace {

canopy::status to_canopy(NodeStatus status, const TreeNode& node) {
    switch (status) {
        case NodeStatus::RUNNING: return canopy::status::running;
        case NodeStatus::SUCCESS: return canopy::status::success;
        case NodeStatus::FAILURE: return canopy::status::failure;
        case NodeStatus::SKIPPED: return canopy::status::skipped;
        case NodeStatus::IDLE: break;
    }
    throw LogicError("Node [", node.name(), "] returned IDLE from its tick");
}

NodeStatus from_canopy(canopy::status status) {
    switch (status) {
        case canopy::status::running: return NodeStatus::RUNNING;
        case canopy::status::success: return NodeStatus::SUCCESS;
        case canopy::status::failure:
        case canopy::status::error: return NodeStatus::FAILURE;
        case canopy::status::skipped: return NodeStatus::SKIPPED;
        case canopy::status::idle: break;
    }
    return NodeStatus::IDLE;
}

// The TreeNodes that show Canopy's own nodes (Sequence, Fallback, SubTree, Script...) to
// the program: printTreeRecursively, applyVisitor, and a program's control ticking them.
// Their tick is the engine's, so tick() is never called.
class builtin_control final : public ControlNode {
public:
    using ControlNode::ControlNode;

private:
    NodeStatus tick() override { return NodeStatus::IDLE; }
};

class builtin_decorator final : public DecoratorNode {
public:
    builtin_decorator(const std::string& name, const NodeConfig& config, NodeType type)
        : DecoratorNode(name, config), type_(type) {}
    NodeType type() const override { return type_; }

private:
    NodeStatus tick() override { return NodeStatus::IDLE; }
    NodeType type_;
};

class builtin_leaf final : public LeafNode {
public:
    builtin_leaf(const std::string& name, const NodeConfig& config, NodeType type)
        : LeafNode(name, config), type_(type) {}
    NodeType type() const override { return type_; }

private:
    NodeStatus tick() override { return NodeStatus::IDLE; }
    void halt() override {}
    NodeType type_;
};

// BehaviorTree.CPP's kind of a Canopy built-in, from its arity and name.
NodeType builtin_kind(const canopy::tree& tree, canopy::tree::index i) {
    const std::string_view type = tree.type_name(i);
    if (type == "SubTree") return NodeType::SUBTREE;
    switch (tree.type(i).arity) {
        case canopy::arity::leaf: break;
        case canopy::arity::decorator: return NodeType::DECORATOR;
        default: return NodeType::CONTROL;
    }
    const std::string_view written = tree.written_type(i);
    const bool condition = written.find("Condition") != std::string_view::npos ||
                           written.rfind("Is", 0) == 0 || written.rfind("Check", 0) == 0 ||
                           written == "ScriptCondition" || written == "WasEntryUpdated";
    return condition ? NodeType::CONDITION : NodeType::ACTION;
}

// A parameter's text as it was written: the JSON string (json_text.hpp's append_json_value
// wrote it) read back; a number or boolean as it stands.
std::string unquoted(std::string_view json) {
    if (json.empty() || json.front() != '"') return std::string(json);
    const nlohmann::json read = nlohmann::json::parse(json, nullptr, false);
    return read.is_string() ? read.get<std::string>() : std::string(json);
}

// The node's parameters as written: " name=value name2=value2", values as JSON.
std::vector<std::pair<std::string, std::string>> written_ports(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> ports;
    std::size_t at = 0;
    while (at < text.size()) {
        while (at < text.size() && text[at] == ' ') ++at;
        const std::size_t equals = text.find('=', at);
        if (equals == std::string_view::npos) break;
        std::string name(text.substr(at, equals - at));
        std::size_t end = equals + 1;
        if (end < text.size() && text[end] == '"') {
            ++end;
            while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
            ++end;
        } else {
            while (end < text.size() && text[end] != ' ') ++end;
        }
        end = std::min(end, text.size());
        ports.emplace_back(std::move(name), unquoted(text.substr(equals + 1, end - equals - 1)));
        at = end;
    }
    return ports;
}

std::optional<PreCond> precondition_named(std::string_view attribute) {
    if (attribute == "_failureIf") return PreCond::FAILURE_IF;
    if (attribute == "_successIf") return PreCond::SUCCESS_IF;
    if (attribute == "_skipIf") return PreCond::SKIP_IF;
    if (attribute == "_while") return PreCond::WHILE_TRUE;
    return std::nullopt;
}

std::optional<PostCond> postcondition_named(std::string_view attribute) {
    if (attribute == "_onHalted") return PostCond::ON_HALTED;
    if (attribute == "_onFailure") return PostCond::ON_FAILURE;
    if (attribute == "_onSuccess") return PostCond::ON_SUCCESS;
    if (attribute == "_post") return PostCond::ALWAYS;
    return std::nullopt;
}

// BehaviorTree.CPP's name of the C++ type a Canopy key holds.
// A key's type as BT::Any names it: what BT::blackboard_type recorded, or one of the types
// Canopy's own nodes put on the blackboard (loop queues, vectors), which the core makes
// without RTTI.
const std::type_info& rtti_of(const canopy::value_type& type) {
    if (type.rtti != nullptr) return *type.rtti;
    static const std::pair<canopy::type_id, const std::type_info*> known[] = {
        {canopy::type_id_of<std::deque<std::int64_t>>(), &typeid(std::deque<std::int64_t>)},
        {canopy::type_id_of<std::deque<double>>(), &typeid(std::deque<double>)},
        {canopy::type_id_of<std::deque<std::string>>(), &typeid(std::deque<std::string>)},
        {canopy::type_id_of<std::deque<bool>>(), &typeid(std::deque<bool>)},
        {canopy::type_id_of<std::vector<int>>(), &typeid(std::vector<int>)},
        {canopy::type_id_of<std::vector<double>>(), &typeid(std::vector<double>)},
        {canopy::type_id_of<std::vector<std::string>>(), &typeid(std::vector<std::string>)},
    };
    for (const auto& [id, rtti] : known) {
        if (id == type.cpp_type) return *rtti;
    }
    return typeid(void);  // a type the program registered with Canopy's own registry
}

std::string key_type_name(const canopy::blackboard_key& key) {
    switch (key.type) {
        case canopy::param_type::integer: return "int64_t";
        case canopy::param_type::number: return "double";
        case canopy::param_type::boolean: return "bool";
        case canopy::param_type::string: return "std::string";
        default: break;
    }
    if (key.custom != nullptr && key.custom->cpp_type &&
        !canopy::detail::is_btcpp_entry(key.custom.get()))
        return demangle(rtti_of(*key.custom));
    return "BT::Any";
}

}  // namespace

// ---- btcpp_node ----

TreeNode& btcpp_node::object(canopy::context& ctx) const {
    auto& held = *static_cast<node_object*>(static_cast<void*>(ctx.state_storage()));
    if (!held) {
        throw canopy::error(canopy::error_code::invalid_argument,
                            "node '" + manifest_->registration_ID +
                                "' has no BehaviorTree.CPP object: only a BT::Tree makes them");
    }
    return *held;
}

// A node entered with the result its parent did not reset (canopy::context::kept_result)
// keeps it, so that its tick sees it as 4.10's does (a StatefulActionNode returns it again).
void btcpp_node::enter(canopy::context& ctx) const {
    if (ctx.kept_result() == canopy::status::idle) object(ctx).status_ = NodeStatus::IDLE;
}

canopy::status btcpp_node::tick(canopy::context& ctx) const {
    TreeNode& self = object(ctx);
    const NodeStatus result =
        self.tree_->as_engine(ctx, self.index_, [&] { return self.executeTick(); });
    return to_canopy(result, self);
}

void btcpp_node::halt(canopy::context& ctx) const {
    TreeNode& self = object(ctx);
    self.tree_->as_engine(ctx, self.index_, [&] { self.haltNode(); });
}

// ---- TreeState ----

TreeState::TreeState(std::shared_ptr<const canopy::tree> tree, Blackboard::Ptr blackboard,
                     std::shared_ptr<ScriptingEnumsRegistry> enums,
                     const std::unordered_map<std::string, TreeNodeManifest>* manifests)
    : tree_(std::move(tree)),
      agent_(std::make_unique<canopy::agent>(tree_)),
      blackboard_(std::move(blackboard)),
      enums_(std::move(enums)),
      manifests_(manifests) {
    make_nodes();
    manifests_ = nullptr;  // the nodes point into the map; the Tree holding it moves
    // What the program set before the tree existed goes to the agent's keys, from the
    // blackboard and its parents (whose keys the tree names as "@key"), the nearest first;
    // from then on they all reach the agent's keys.
    for (Blackboard* board = blackboard_.get(); board != nullptr; board = board->parent_.get()) {
        for (auto found = board->values_.begin(); found != board->values_.end();) {
            const std::uint32_t slot = agent_->blackboard().find(found->first);
            if (slot == canopy::blackboard::npos || found->second->value.empty() ||
                !read_slot(slot, true).empty()) {
                ++found;
                continue;
            }
            const std::string failure = write_slot(slot, found->second->value);
            if (!failure.empty())
                throw RuntimeError("Blackboard::set(", found->first, "): ", failure);
            found = board->values_.erase(found);
        }
        board->tree_ = this;
    }
}

TreeState::~TreeState() {
    for (StatusChangeLogger* logger : loggers_) logger->tree_ = nullptr;
    try {
        std::lock_guard<TreeLock> hold(lock_);
        agent_->halt();
    } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw
    }
    if (blackboard_ && blackboard_->tree_ == this) {
        // The blackboard outlives the tree: it keeps the values of the tree's own keys (not
        // those private to one use of a subtree, "Sub#1/key").
        const canopy::blackboard board = agent_->blackboard();
        for (std::uint32_t slot = 0; slot < board.keys().size(); ++slot) {
            const std::string& name = board.keys()[slot].name;
            if (name.find('#') != std::string::npos) continue;
            Any value = read_slot(slot, false);
            if (!value.empty()) blackboard_->keep(name, std::move(value));
        }
    }
    for (Blackboard* board = blackboard_.get(); board != nullptr; board = board->parent_.get()) {
        if (board->tree_ == this) board->tree_ = nullptr;
    }
    if (blackboard_) blackboard_->own_.clear();  // its values_ hold them now
    for (const auto& use : subtrees_) {
        if (use->blackboard->tree_ == this) use->blackboard->tree_ = nullptr;
    }
    agent_.reset();
}

NodeConfig TreeState::config_of(std::uint32_t index, const TreeNodeManifest* manifest) const {
    NodeConfig config;
    config.blackboard = blackboard_;
    config.manifest = manifest;
    config.enums = enums_;
    config.uid = static_cast<std::uint16_t>(index + 1);
    for (auto& [port, text] : written_ports(tree_->written_params(index))) {
        if (!port.empty() && port.front() == '_') {  // BehaviorTree.CPP's conditions
            if (auto pre = precondition_named(port)) {
                config.pre_conditions[*pre] = text;
            } else if (auto post = postcondition_named(port)) {
                config.post_conditions[*post] = text;
            }
            continue;
        }
        PortDirection direction = PortDirection::INPUT;
        if (manifest != nullptr) {
            if (auto found = manifest->ports.find(port); found != manifest->ports.end())
                direction = found->second.direction();
        }
        // An in-out port is both, as in BehaviorTree.CPP.
        if (direction != PortDirection::OUTPUT) config.input_ports[port] = text;
        if (direction != PortDirection::INPUT) config.output_ports[port] = text;
    }
    // The attributes that are neither ports nor conditions, which the reader keeps as the
    // node's metadata.
    const auto [first, last] = tree_->metadata(index);
    for (const auto* note = first; note != last; ++note) {
        if (!note->name.empty() && note->name.front() == '_')
            config.other_attributes[note->name] = note->value;
    }
    if (manifest != nullptr) {
        // BehaviorTree.CPP fills in the defaults the XML leaves out.
        for (const auto& [port, info] : manifest->ports) {
            if (info.defaultValueString().empty()) continue;
            if (info.direction() != PortDirection::OUTPUT && config.input_ports.count(port) == 0)
                config.input_ports[port] = info.defaultValueString();
            if (info.direction() != PortDirection::INPUT && config.output_ports.count(port) == 0)
                config.output_ports[port] = info.defaultValueString();
        }
    }
    return config;
}

void TreeState::make_nodes() {
    const canopy::tree& t = *tree_;
    for (canopy::tree::index i = 0; i < t.size(); ++i) {
        const std::string_view written = t.written_type(i);
        if (written == "SequenceWithMemory" || written == "SequenceStar" || written == "Repeat" ||
            written == "AsyncSequence" || written == "AsyncFallback" ||
            written == "RetryUntilSuccessful" || written == "RetryUntilSuccesful")
            yielding_.push_back(i);
    }
    nodes_.assign(t.size(), nullptr);
    // Paths as BehaviorTree.CPP gives them: each subtree's instance name, then the node's
    // name, with "::uid" when the XML gave it none.
    std::vector<std::string> prefix(t.size());
    for (canopy::tree::index i = 0; i < t.size(); ++i) {
        const std::string written(t.written_type(i));
        const std::string given(t.describe(i));
        // A SubTree's type, for its name and path, is the tree it uses.
        std::string type_id = written;
        if (t.type_name(i) == "SubTree") {
            if (const auto* used = t.params(i).find("tree");
                used != nullptr && std::holds_alternative<std::string>(*used))
                type_id = std::get<std::string>(*used);
        }
        const std::string name = given.empty() ? type_id : given;
        const std::uint32_t parent = t.parent(i);
        const std::string& own_prefix =
            parent == canopy::tree::no_parent ? std::string() : prefix[parent];
        const auto* object = dynamic_cast<const btcpp_node*>(t.object(i));
        const TreeNodeManifest* manifest = object != nullptr ? &object->manifest() : nullptr;
        if (manifest != nullptr && manifests_ != nullptr) {
            // The Tree's own copy, which outlives the factory, as in BehaviorTree.CPP.
            auto found = manifests_->find(manifest->registration_ID);
            if (found != manifests_->end()) manifest = &found->second;
        }
        NodeConfig config = config_of(i, manifest);
        config.path = own_prefix + name;
        if (name == type_id) config.path += "::" + std::to_string(config.uid);
        prefix[i] = own_prefix;
        if (t.type_name(i) == "SubTree") {
            prefix[i] = own_prefix;
            if (given.empty()) {
                prefix[i] += type_id;
                prefix[i] += "::" + std::to_string(config.uid);
            } else {
                prefix[i] += given;
            }
            prefix[i] += '/';
        }
        TreeNode* made = nullptr;
        if (object != nullptr) {
            auto& held = *static_cast<node_object*>(agent_->node_state(i));
            held = object->builder()(name, config);
            if (!held) throw LogicError("The builder of [", written, "] made no node");
            made = held.get();
        } else {
            std::unique_ptr<TreeNode> view;
            const NodeType kind = builtin_kind(t, i);
            if (kind == NodeType::CONTROL) {
                view = std::make_unique<builtin_control>(name, config);
            } else if (kind == NodeType::DECORATOR || kind == NodeType::SUBTREE) {
                view = std::make_unique<builtin_decorator>(name, config, kind);
            } else {
                view = std::make_unique<builtin_leaf>(name, config, kind);
            }
            view->view_ = true;
            made = view.get();
            views_.push_back(std::move(view));
        }
        made->tree_ = this;
        made->index_ = i;
        made->setRegistrationID(written);
        nodes_[i] = made;
    }
    // The uses of trees: the main one, then each SubTree's, with the nodes that belong to it
    // (a SubTree node to the tree that uses it).
    std::vector<std::size_t> use_of(t.size(), 0);
    std::vector<canopy::tree::index> subtree_node_of{canopy::tree::no_parent};  // per use
    auto make_use = [&](std::string instance, std::string id) {
        auto use = std::make_shared<Tree::Subtree>();
        use->instance_name = std::move(instance);
        use->tree_ID = std::move(id);
        use->blackboard = blackboard_;
        subtrees_.push_back(std::move(use));
    };
    make_use("", t.name());
    for (canopy::tree::index i = 0; i < t.size(); ++i) {
        if (i > 0) {
            const std::uint32_t parent = t.parent(i);
            use_of[i] = use_of[parent];
            if (t.type_name(parent) == "SubTree") {
                std::string instance = prefix[parent];
                if (!instance.empty()) instance.pop_back();
                const auto* used = t.params(parent).find("tree");
                make_use(std::move(instance),
                         used != nullptr && std::holds_alternative<std::string>(*used)
                             ? std::get<std::string>(*used)
                             : std::string());
                use_of[i] = subtrees_.size() - 1;
                subtree_node_of.push_back(parent);
                // Its own blackboard, whose keys its user's can stand for.
                Blackboard::Ptr board = Blackboard::create(subtrees_[use_of[parent]]->blackboard);
                board->tree_ = this;
                board->scoped_ = true;
                subtrees_.back()->blackboard = std::move(board);
            }
        }
        // Seen, not owned: the agent and the tree own the nodes.
        subtrees_[use_of[i]]->nodes.push_back(TreeNode::Ptr(TreeNode::Ptr(), nodes_[i]));
        // A node's blackboard is its use's, as in BehaviorTree.CPP (what it reads by name).
        nodes_[i]->config().blackboard = subtrees_[use_of[i]]->blackboard;
    }
    show_keys(use_of, subtree_node_of);
    // Children, as BehaviorTree.CPP's controls and decorators hold them.
    for (canopy::tree::index i = 1; i < t.size(); ++i) {
        TreeNode* parent = nodes_[t.parent(i)];
        if (auto* control = dynamic_cast<ControlNode*>(parent)) {
            control->addChild(nodes_[i]);
        } else if (auto* decorator = dynamic_cast<DecoratorNode*>(parent)) {
            if (decorator->child() == nullptr) decorator->setChild(nodes_[i]);
        }
    }
}

void TreeState::show_keys(const std::vector<std::size_t>& use_of,
                          const std::vector<canopy::tree::index>& subtree_node_of) {
    const canopy::tree& t = *tree_;
    const std::vector<canopy::blackboard_key>& keys = t.keys();
    // Each key named by a port, by the agent's name: the type its first port in preorder
    // gives it (BehaviorTree.CPP makes the entry there), and, per use, the order of names.
    std::unordered_map<std::string, std::string> first_type;
    std::vector<std::string> first_seen;  // every use's, in preorder
    std::vector<std::vector<std::string>> named(subtrees_.size());
    for (canopy::tree::index i = 0; i < t.size(); ++i) {
        if (t.type_name(i) == "SubTree") continue;
        const auto* object = dynamic_cast<const btcpp_node*>(t.object(i));
        const canopy::param_list params = t.params(i);
        for (const auto& [port, text] : written_ports(t.written_params(i))) {
            const Expected<StringView> local = TreeNode::getRemappedKey(port, text);
            const canopy::param* bound = params.find_param(port);
            if (!local || bound == nullptr || bound->key == canopy::param::no_key) continue;
            const std::string& agent_name = keys[bound->key].name;
            if (first_type.count(agent_name) == 0) {
                std::string type = key_type_name(keys[bound->key]);
                if (object != nullptr) {
                    auto info = object->manifest().ports.find(port);
                    if (info != object->manifest().ports.end() && info->second.isStronglyTyped())
                        type = info->second.typeName();
                }
                first_type.emplace(agent_name, std::move(type));
                first_seen.push_back(agent_name);
            }
            auto& order = named[use_of[i]];
            if (std::find(order.begin(), order.end(), agent_name) == order.end())
                order.push_back(agent_name);
            Blackboard& board = *subtrees_[use_of[i]]->blackboard;
            if (board.scoped_) board.scope_.emplace(std::string(*local), agent_name);
        }
    }
    auto type_of = [&](const std::string& agent_name) {
        auto found = first_type.find(agent_name);
        if (found != first_type.end()) return found->second;
        const std::uint32_t slot = agent_->blackboard().find(agent_name);
        return slot == canopy::blackboard::npos ? std::string() : key_type_name(keys[slot]);
    };
    // The main tree's blackboard: every key but those private to a subtree, the newest first.
    std::vector<std::string> main_keys;
    for (const std::string& name : first_seen) {
        if (name.find('#') == std::string::npos) main_keys.push_back(name);
    }
    for (const canopy::blackboard_key& key : keys) {
        if (key.name.find('#') == std::string::npos &&
            std::find(main_keys.begin(), main_keys.end(), key.name) == main_keys.end())
            main_keys.push_back(key.name);
    }
    blackboard_->own_.clear();
    for (auto name = main_keys.rbegin(); name != main_keys.rend(); ++name)
        blackboard_->own_.push_back({*name, *name, type_of(*name)});
    // A subtree's: its private keys, then what its SubTree remaps, as written.
    for (std::size_t u = 1; u < subtrees_.size(); ++u) {
        Blackboard& board = *subtrees_[u]->blackboard;
        for (auto name = named[u].rbegin(); name != named[u].rend(); ++name) {
            if (name->find('#') == std::string::npos) continue;
            for (const auto& [local, agent_name] : board.scope_) {
                if (agent_name == *name) board.own_.push_back({local, agent_name, type_of(*name)});
            }
        }
        const Blackboard& user = *board.parent_;
        for (const auto& [port, text] : written_ports(t.written_params(subtree_node_of[u]))) {
            if (port == "ID" || port == "tree" || port == "file" || port == "name" ||
                port.front() == '_')
                continue;
            const Expected<StringView> outer = TreeNode::getRemappedKey(port, text);
            if (!outer) continue;
            std::string agent_name(*outer);
            if (user.scoped_) {
                auto found = user.scope_.find(agent_name);
                agent_name = found != user.scope_.end() ? found->second : std::string();
            }
            board.remapped_.push_back({port, std::string(*outer), type_of(agent_name)});
        }
    }
}

// The status changes BehaviorTree.CPP's nodes would report, told from the engine's visits:
// a node visited again after it finished was reset to IDLE by its parent; most controls and
// decorators say RUNNING as their tick starts; a control or decorator that finishes resets
// its children first; a reactive control that runs resets the children it is not running;
// a halt makes a node IDLE; a finished root goes IDLE after the tick.
class TreeState::transitions final : public canopy::observer {
public:
    explicit transitions(TreeState& state)
        : state_(state), shown_(state.tree().size(), NodeStatus::IDLE) {
        const canopy::tree& t = state.tree();
        running_first_.resize(t.size(), false);
        for (canopy::tree::index i = 0; i < t.size(); ++i) {
            // A program's node says it itself (TreeNode::setStatus).
            running_first_[i] =
                state.node(i)->view_ &&
                says_running_first(t.type_name(i) == "SubTree" ? "SubTree" : t.written_type(i));
        }
    }

    // Events of another tree than the Tree's (its agent moved, which tick_root refuses) name
    // none of its nodes: the loggers do not hear them.
    void on_visit(const canopy::agent& a, canopy::tree::index node) override {
        if (&a.tree() != &state_.tree()) return;
        if (isStatusCompleted(shown_[node])) change(node, NodeStatus::IDLE);
        if (running_first_[node]) change(node, NodeStatus::RUNNING);
    }
    void on_tick(const canopy::agent& a, canopy::tree::index node, canopy::status /*before*/,
                 canopy::status result) override {
        if (&a.tree() != &state_.tree()) return;
        const NodeStatus now = from_canopy(result);
        const canopy::tree& t = state_.tree();
        if (t.child_count(node) > 0) {
            const std::string_view type = t.written_type(node);
            const bool reactive = type == "ReactiveSequence" || type == "ReactiveFallback";
            if (isStatusCompleted(now) || (reactive && now == NodeStatus::RUNNING)) {
                for (canopy::tree::index child : t.children(node)) {
                    if (now == NodeStatus::RUNNING && shown_[child] == NodeStatus::RUNNING)
                        continue;
                    change(child, NodeStatus::IDLE);
                }
            }
        }
        change(node, now);
    }
    void on_halt(const canopy::agent& a, canopy::tree::index node) override {
        if (&a.tree() != &state_.tree()) return;
        change(node, NodeStatus::IDLE);
    }
    void change(canopy::tree::index node, NodeStatus to) {
        const NodeStatus from = shown_[node];
        if (from == to) return;
        shown_[node] = to;
        for (StatusChangeLogger* logger : state_.loggers_)
            logger->hear(*state_.node(node), from, to);
    }

private:
    // BehaviorTree.CPP's node types whose tick starts with setStatus(RUNNING).
    static bool says_running_first(std::string_view type) {
        static constexpr std::string_view types[] = {"AsyncFallback",
                                                     "AsyncSequence",
                                                     "Fallback",
                                                     "IfThenElse",
                                                     "ParallelAll",
                                                     "Parallel",
                                                     "ReactiveFallback",
                                                     "ReactiveSequence",
                                                     "Sequence",
                                                     "SequenceWithMemory",
                                                     "TryCatch",
                                                     "WhileDoElse",
                                                     "Delay",
                                                     "Inverter",
                                                     "Repeat",
                                                     "RetryUntilSuccessful",
                                                     "Timeout",
                                                     "Sleep",
                                                     "ConsumeQueue",
                                                     "ForceFailure",
                                                     "ForceSuccess",
                                                     "KeepRunningUntilFailure",
                                                     "LoopInt",
                                                     "LoopDouble",
                                                     "LoopString",
                                                     "LoopBool",
                                                     "RunOnce",
                                                     "SubTree"};
        return std::find(std::begin(types), std::end(types), type) != std::end(types);
    }

    TreeState& state_;
    std::vector<NodeStatus> shown_;
    std::vector<bool> running_first_;
};

void TreeState::node_said(std::uint32_t index, NodeStatus status) {
    if (transitions_) transitions_->change(index, status);
}

void TreeState::subscribe(StatusChangeLogger* logger) {
    std::lock_guard<TreeLock> hold(lock_);
    loggers_.push_back(logger);
    if (!transitions_) {
        transitions_ = std::make_unique<transitions>(*this);
        agent_->set_observer(transitions_.get());
    }
}

void TreeState::unsubscribe(StatusChangeLogger* logger) {
    std::lock_guard<TreeLock> hold(lock_);
    loggers_.erase(std::remove(loggers_.begin(), loggers_.end(), logger), loggers_.end());
}

canopy::observer* TreeState::logger_observer() {
    return transitions_.get();
}

void TreeState::call_between_ticks(const void* owner, std::function<void()> call) {
    std::lock_guard<TreeLock> hold(lock_);
    between_ticks_.erase(std::remove_if(between_ticks_.begin(), between_ticks_.end(),
                                        [&](const auto& known) { return known.first == owner; }),
                         between_ticks_.end());
    if (call) between_ticks_.emplace_back(owner, std::move(call));
}

NodeStatus TreeState::tick_root() {
    const auto now = std::chrono::steady_clock::now();
    const double dt = last_tick_ ? std::chrono::duration<double>(now - *last_tick_).count() : 0.0;
    last_tick_ = now;
    std::lock_guard<TreeLock> hold(lock_);
    if (&agent_->tree() != tree_.get()) {
        // The node objects were in the old tree's state, and the views name its nodes.
        throw RuntimeError(
            "Tree::canopyAgent() was moved to another tree; a BT::Tree runs the tree it was made "
            "of: make a new Tree from the factory instead");
    }
    for (const auto& between : between_ticks_) between.second();
    NodeStatus result = NodeStatus::IDLE;
    try {
        result = from_canopy(agent_->tick(dt));
    } catch (const canopy::error& e) {
        // A built-in's or a script's failure: BehaviorTree.CPP's are RuntimeErrors (its
        // NodeExecutionError), which the program catches as such.
        throw RuntimeError(e.what());
    }
    if (transitions_ && isStatusCompleted(result)) transitions_->change(0, NodeStatus::IDLE);
    if (result == NodeStatus::RUNNING && yielded()) wake();
    return result;
}

// BehaviorTree.CPP's SequenceWithMemory, AsyncSequence, AsyncFallback, Repeat and
// RetryUntilSuccessful end a tick with RUNNING after a child that finished at once, when more is
// left, and ask for the next tick at once (emitWakeUpSignal): Canopy's do the first; this is the
// second. Such a node running with no child running has just done so.
bool TreeState::yielded() const {
    const canopy::tree& t = *tree_;
    for (canopy::tree::index i : yielding_) {
        if (!agent_->is_running(i)) continue;
        bool child_running = false;
        for (canopy::tree::index child : t.children(i)) child_running |= agent_->is_running(child);
        if (!child_running) return true;
    }
    return false;
}

void TreeState::halt() {
    std::lock_guard<TreeLock> hold(lock_);
    try {
        agent_->halt();
    } catch (const canopy::error& e) {
        throw RuntimeError(e.what());  // an `_onHalted` script's failure, as in tick_root
    }
}

NodeStatus TreeState::view_status(std::uint32_t index) const {
    return from_canopy(agent_->last_status(index));
}

void TreeState::wake() {
    {
        std::lock_guard<std::mutex> hold(wake_mutex_);
        woken_ = true;
    }
    wake_cv_.notify_all();
}

bool TreeState::sleep(std::chrono::steady_clock::duration timeout) {
    std::unique_lock<std::mutex> hold(wake_mutex_);
    const bool woken = wake_cv_.wait_for(hold, timeout, [&] { return woken_; });
    woken_ = false;
    return woken;
}

bool TreeState::take_wake_up() {
    std::lock_guard<std::mutex> hold(wake_mutex_);
    return std::exchange(woken_, false);
}

NodeStatus TreeState::tick_child(std::uint32_t index) {
    if (ctx_ == nullptr) {
        throw LogicError("executeTick() of [", nodes_[index]->name(),
                         "] called outside its parent's tick");
    }
    return from_canopy(ctx_->tick(index));
}

void TreeState::halt_child(std::uint32_t index) {
    if (ctx_ != nullptr) {
        ctx_->halt(index);
    } else if (agent_->is_running(index)) {
        throw LogicError("haltNode() of [", nodes_[index]->name(),
                         "] called outside its parent's tick");
    }
}

std::uint32_t TreeState::port_slot(std::uint32_t index, const std::string& port,
                                   StringView key) const {
    const canopy::param_list params = tree_->params(index);
    if (const canopy::param* found = params.find_param(port);
        found != nullptr && found->key != canopy::param::no_key)
        return found->key;
    return agent_->blackboard().find(key);
}

Any TreeState::read_slot(std::uint32_t slot, bool in_place) {
    const canopy::blackboard board = agent_->blackboard();
    if (!board.is_set(slot)) return {};
    const canopy::blackboard_key& key = board.keys()[slot];
    switch (key.type) {
        case canopy::param_type::integer: return Any(board.get<std::int64_t>(slot));
        case canopy::param_type::number: return Any(board.get<double>(slot));
        case canopy::param_type::boolean: return Any(board.get<bool>(slot));
        case canopy::param_type::string: return Any(std::string(board.get<std::string_view>(slot)));
        default: break;
    }
    if (key.custom == nullptr) return {};
    if (canopy::detail::is_btcpp_entry(key.custom.get())) {
        const auto& entry = board.get_ref<canopy::detail::btcpp_entry>(slot);
        if (!entry.exists) return {};
        switch (entry.value.held) {
            case canopy::detail::btcpp_any::kind::integer: return Any(entry.value.i);
            case canopy::detail::btcpp_any::kind::real: return Any(entry.value.d);
            case canopy::detail::btcpp_any::kind::string: return Any(entry.value.s);
            case canopy::detail::btcpp_any::kind::empty: return {};
        }
        return {};
    }
    const canopy::value_type& type = *key.custom;
    if (in_place) {
        // An alias that owns nothing, valid while the agent keeps the value.
        return Any::object(std::shared_ptr<void>(std::shared_ptr<void>(), board.address(slot)),
                           rtti_of(type));
    }
    void* copy = ::operator new(type.size, std::align_val_t(type.align));
    try {
        type.copy_construct(copy, board.address(slot));
    } catch (...) {
        ::operator delete(copy, std::align_val_t(type.align));
        throw;
    }
    const std::shared_ptr<const canopy::value_type> keep = key.custom;
    return Any::object(std::shared_ptr<void>(copy,
                                             [keep](void* object) {
                                                 keep->destroy(object);
                                                 ::operator delete(object,
                                                                   std::align_val_t(keep->align));
                                             }),
                       rtti_of(type));
}

namespace {

// A program's std::vector<T> or SharedQueue<T> (std::shared_ptr<std::deque<T>>), copied into
// a loop's queue key (a std::deque of Canopy's element type), as LoopNode<T> reads either.
template <typename Element, typename... Programs>
bool store_queue_of(canopy::blackboard& board, std::uint32_t slot, const Any& value) {
    bool stored = false;
    auto try_one = [&](auto program) {
        using Program = decltype(program);
        if (stored) return;
        const std::vector<Program>* vector = value.castPtr<std::vector<Program>>();
        const auto* shared = value.castPtr<std::shared_ptr<std::deque<Program>>>();
        if (vector == nullptr && (shared == nullptr || *shared == nullptr)) return;
        std::deque<Element> queue;
        if (vector != nullptr) {
            queue.assign(vector->begin(), vector->end());
        } else {
            queue.assign((*shared)->begin(), (*shared)->end());
        }
        board.set_object(slot, canopy::type_id_of<std::deque<Element>>(), &queue);
        stored = true;
    };
    (try_one(Programs{}), ...);
    return stored;
}

}  // namespace

bool TreeState::store_queue(canopy::blackboard& board, std::uint32_t slot,
                            canopy::type_id queue_type, const Any& value) {
    if (value.kind() != Any::Kind::Object) return false;
    if (queue_type == canopy::type_id_of<std::deque<std::int64_t>>())
        return store_queue_of<std::int64_t, int, long, long long, unsigned, short>(board, slot,
                                                                                   value);
    if (queue_type == canopy::type_id_of<std::deque<double>>())
        return store_queue_of<double, double, float>(board, slot, value);
    if (queue_type == canopy::type_id_of<std::deque<std::string>>())
        return store_queue_of<std::string, std::string>(board, slot, value);
    if (queue_type == canopy::type_id_of<std::deque<bool>>())
        return store_queue_of<bool, bool>(board, slot, value);
    return false;
}

std::string TreeState::write_slot(std::uint32_t slot, const Any& value, bool as_is) {
    canopy::blackboard board = agent_->blackboard();
    const canopy::blackboard_key& key = board.keys()[slot];
    auto failed = [&](const std::string& why) {
        return "the entry [" + key.name + "] holds " + std::string(key.type_name()) + ": " + why;
    };
    auto store = [&](auto cast) -> std::string {
        if (!cast) return failed(cast.error());
        board.set(slot, *cast);
        return {};
    };
    switch (key.type) {
        case canopy::param_type::integer: return store(value.tryCast<std::int64_t>());
        case canopy::param_type::number: return store(value.tryCast<double>());
        case canopy::param_type::boolean:
            if (value.isString()) {  // text the key's type reads, as a typed entry takes it
                try {
                    board.set(slot, convertFromString<bool>(value.cast<std::string>()));
                    return {};
                } catch (const std::exception& e) {
                    return failed(e.what());
                }
            }
            return store(value.tryCast<bool>());
        case canopy::param_type::string: {
            if (!value.isString() && !value.isNumber())
                return failed("cannot store [" + demangle(value.type()) + "]");
            return store(value.tryCast<std::string>());
        }
        default: break;
    }
    if (key.custom == nullptr) return failed("not a value the program can set");
    if (canopy::detail::is_btcpp_entry(key.custom.get())) {
        using canopy::detail::btcpp_any;
        using canopy::detail::btcpp_entry;
        btcpp_entry entry = board.get_ref<btcpp_entry>(slot);
        btcpp_any held;
        btcpp_entry::declared as = btcpp_entry::declared::any_value;
        if (value.isType<bool>()) {
            held = btcpp_any::integer(value.cast<bool>() ? 1 : 0);
            as = btcpp_entry::declared::boolean;
        } else if (value.isIntegral()) {
            held = btcpp_any::integer(value.cast<std::int64_t>());
            as = btcpp_entry::declared::integer;
        } else if (value.isNumber()) {
            held = btcpp_any::real(value.cast<double>());
            as = btcpp_entry::declared::real;
        } else if (value.isString()) {
            held = btcpp_any::text(value.cast<std::string>());
            as = btcpp_entry::declared::string;
        } else {
            return failed("a value of [" + demangle(value.type()) +
                          "] cannot go where the tree's uses of the key disagree on its type");
        }
        try {
            if (as_is) {
                entry.exists = true;
                entry.value = std::move(held);
            } else {
                canopy::detail::write_output(entry, held, as);
            }
        } catch (const std::exception& e) {
            return failed(e.what());
        }
        board.set_object(slot, canopy::type_id_of<btcpp_entry>(), &entry);
        return {};
    }
    if (store_queue(board, slot, key.custom->cpp_type, value)) return {};
    if (value.kind() != Any::Kind::Object || value.type() != rtti_of(*key.custom)) {
        if (value.isString() && key.custom->from_text) {
            try {
                const auto object = key.custom->from_text(value.cast<std::string>());
                board.set_object(slot, key.custom->cpp_type, object.get());
                return {};
            } catch (const std::exception& e) {
                return failed(e.what());
            }
        }
        return failed("cannot store [" + demangle(value.type()) + "]");
    }
    board.set_object(slot, key.custom->cpp_type, value.objectAddress());
    return {};
}

}  // namespace BT::detail
