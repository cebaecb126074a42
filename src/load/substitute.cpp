#include "load/substitute.hpp"

#include <unordered_map>

#include "load/subtree_node.hpp"
#include "load/test_node.hpp"

namespace canopy {

// Greedy with one backtracking point, so linear in most patterns.
bool matches_pattern(std::string_view text, std::string_view pattern) {
    std::size_t t = 0;
    std::size_t p = 0;
    std::size_t star = std::string_view::npos;
    std::size_t resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++t;
            ++p;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

}  // namespace canopy

namespace canopy::detail {
namespace {

class substituter {
public:
    substituter(record_set& records, const substitution_rules& rules, const registry& reg,
                registry& overlay, std::vector<diagnostic>& out)
        : records_(records), rules_(rules), reg_(reg), overlay_(overlay), out_(out) {}

    void run() {
        // Children in record order; the expander lays records out in preorder, but a flat
        // file may list them in any order.
        std::unordered_map<std::int64_t, std::size_t> index_of;
        for (std::size_t i = 0; i < records_.size(); ++i) index_of.emplace(records_.id(i), i);
        std::vector<std::vector<std::size_t>> children(records_.size());
        std::vector<std::size_t> roots;
        for (std::size_t i = 0; i < records_.size(); ++i) {
            auto parent = index_of.find(records_.parent_id(i));
            if (records_.parent_id(i) == 0 || parent == index_of.end()) {
                roots.push_back(i);
            } else {
                children[parent->second].push_back(i);
            }
        }
        // Preorder, numbering nodes from 1 as BehaviorTree.CPP does when it makes them: the
        // contents of a SubTree a rule replaces are never made there, so never numbered.
        struct visit {
            std::size_t record;
            std::string prefix;  // the path of the subtree it is in, with a trailing '/'
        };
        std::vector<visit> stack;
        for (auto r = roots.rbegin(); r != roots.rend(); ++r) stack.push_back({*r, {}});
        std::uint64_t uid = 0;
        while (!stack.empty()) {
            visit at = std::move(stack.back());
            stack.pop_back();
            const std::size_t i = at.record;
            ++uid;
            const bool subtree = records_.type_name(i) == subtree_type_name;
            const std::string_view type = subtree ? subtree_type_name : records_.written_type(i);
            // A SubTree's name is its `name`, else its tree's; another node's its `name`, else
            // its type. The number marks a node named by its type (its tree, for a SubTree).
            std::string_view tree = type;
            if (subtree) {
                const std::string* used = records_.text_param(i, "tree");
                tree = used ? std::string_view(*used) : std::string_view();
            }
            const std::string_view name =
                records_.describe(i).empty() ? tree : records_.describe(i);
            std::string path = at.prefix + std::string(name);
            if (name == tree) path += "::" + std::to_string(uid);
            const substitution_rule* rule = matching(name, type, path);
            if (rule != nullptr && substitute(i, *rule) && subtree) continue;
            const std::string inner = subtree ? path + "/" : at.prefix;
            for (auto c = children[i].rbegin(); c != children[i].rend(); ++c)
                stack.push_back({*c, inner});
        }
    }

private:
    const substitution_rule* matching(std::string_view name, std::string_view type,
                                      const std::string& path) const {
        for (const substitution_rule& rule : rules_.rules) {
            if (rule.pattern == name || rule.pattern == type || matches_pattern(path, rule.pattern))
                return &rule;
        }
        return nullptr;
    }

    void report(const substitution_rule& rule, std::string message) {
        out_.push_back({rules_.path, rule.where, std::nullopt, diagnostic_code::invalid_param,
                        std::move(message), diagnostic_severity::error});
    }

    // Gives record i the type that runs the rule's replacement; false when it cannot.
    bool substitute(std::size_t i, const substitution_rule& rule) {
        const node_type* original = records_.has_type_id(i) ? reg_.find(records_.type_id(i))
                                                            : overlay_.find(records_.type_name(i));
        if (original == nullptr && !records_.has_type_id(i))
            original = reg_.find(records_.type_name(i));
        if (original == nullptr) return false;  // an unknown type: the builder reports it
        const std::string name = rule.replacement + " for " + original->name;
        if (overlay_.find(name) == nullptr) {
            if (const test_node_config* config = rules_.config(rule.replacement)) {
                overlay_.add(make_test_node_type(name, *original, *config));
            } else if (const node_type* replacement = find(rule.replacement)) {
                if (replacement->arity != arity::leaf && replacement->arity != original->arity) {
                    report(rule, "'" + rule.replacement + "' (a " +
                                     std::string(to_string(replacement->arity)) +
                                     ") cannot stand in for '" + original->name + "' (a " +
                                     std::string(to_string(original->arity)) +
                                     "): a node replaced keeps its children, so its replacement "
                                     "is a leaf or of its own kind");
                    return false;
                }
                node_type made = replacing_type(name, *original, *replacement);
                overlay_.add(std::move(made));
            } else {
                report(rule, "the rule for '" + rule.pattern + "' names '" + rule.replacement +
                                 "', which is neither one of \"TestNodeConfigs\" nor a node "
                                 "type (Substituted Node ID [" +
                                 rule.replacement + "] not found)");
                return false;
            }
        }
        records_.retype(i, name);
        return true;
    }

    const node_type* find(std::string_view name) const {
        const node_type* found = overlay_.find(name);
        return found != nullptr ? found : reg_.find(name);
    }

    record_set& records_;
    const substitution_rules& rules_;
    const registry& reg_;
    registry& overlay_;
    std::vector<diagnostic>& out_;
};

}  // namespace

void apply_substitutions(record_set& records, const substitution_rules& rules, const registry& reg,
                         registry& overlay, std::vector<diagnostic>& out) {
    if (rules.rules.empty() || records.any_problems()) return;
    substituter(records, rules, reg, overlay, out).run();
}

}  // namespace canopy::detail
