#include "tree_generator.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "canopy/run/registry.hpp"

namespace canopy::fuzz {

namespace {

// Builds one tree's records, node by node in preorder.
class tree_maker {
public:
    tree_maker(const registry& reg, std::mt19937_64& random, int trees_after, int max_nodes)
        : reg_(reg), random_(random), trees_after_(trees_after), budget_(max_nodes) {}

    record_set make(int index) {
        records_.set_name("T" + std::to_string(index));
        next_subtree_ = index + 1;
        declare_keys();
        add_node(0, 0);
        return std::move(records_);
    }

private:
    int roll(int n) { return static_cast<int>(random_() % static_cast<std::uint64_t>(n)); }

    // Declares up to three keys, one of each of a few types, with initial values.
    void declare_keys() {
        static constexpr param_type kinds[] = {param_type::integer, param_type::number,
                                               param_type::boolean, param_type::string};
        const int count = roll(4);
        for (int k = 0; k < count; ++k) {
            const param_type type = kinds[roll(4)];
            record_set::key_declaration key;
            key.name = "k" + std::to_string(k);
            key.type = std::string(to_string(type));
            if (roll(2) == 0)
                key.initial = record_set::raw_param{key.name, value_of(type), {}, false};
            records_.declare_key(std::move(key));
            key_types_.push_back(type);
        }
    }

    param_value value_of(param_type type) {
        switch (type) {
            case param_type::integer: return std::int64_t{roll(6)};
            case param_type::number: return 0.25 * roll(9);
            case param_type::boolean: return roll(2) == 0;
            default: {
                static const char* const words[] = {
                    "", "a", "walk", "x y", "\"quoted\" <&>", "caf\xc3\xa9"};
                return std::string(words[roll(6)]);
            }
        }
    }

    // A declared key of that type, as "{k1}", or nothing.
    std::string key_of(param_type type) {
        for (std::size_t k = 0; k < key_types_.size(); ++k)
            if (key_types_[k] == type && roll(2) == 0) return "{k" + std::to_string(k) + "}";
        return {};
    }

    // Whether every parameter the type requires can be given a valid value here.
    bool can_fill(const node_type& type) const {
        for (const param_spec& spec : type.params) {
            if (spec.default_value || spec.output) continue;
            if (spec.type == param_type::key || spec.type == param_type::key_value) {
                if (reg_.keys().empty()) return false;
            } else if (spec.type != param_type::integer && spec.type != param_type::number &&
                       spec.type != param_type::boolean && spec.type != param_type::string &&
                       spec.type != param_type::script) {
                return false;
            }
        }
        return true;
    }

    void add_param(const param_spec& spec) {
        if (spec.default_value && roll(3) != 0) return;  // mostly left to its default
        if (spec.output) {
            const std::string key = key_of(spec.type);
            if (!key.empty()) records_.add_param(spec.name, key);
            return;
        }
        switch (spec.type) {
            case param_type::integer:
            case param_type::number:
            case param_type::boolean:
            case param_type::string: {
                const std::string key = roll(4) == 0 ? key_of(spec.type) : std::string();
                if (key.empty()) {
                    records_.add_param(spec.name, value_of(spec.type));
                } else {
                    records_.add_param(spec.name, key);
                }
                return;
            }
            case param_type::key:
                if (reg_.keys().empty()) return;
                chosen_key_ = &reg_.keys()[static_cast<std::size_t>(
                    roll(static_cast<int>(reg_.keys().size())))];
                records_.add_param(spec.name, chosen_key_->name);
                return;
            case param_type::key_value:
                if (chosen_key_ != nullptr)
                    records_.add_param(spec.name, value_of(chosen_key_->type));
                return;
            case param_type::script: {
                // Scripts that need no key, so that any tree may hold them.
                static constexpr const char* scripts[] = {"true", "false", "1 + 2 > 2",
                                                          "fuzz_n := 1; fuzz_n += 2"};
                records_.add_param(spec.name, std::string(scripts[roll(4)]));
                return;
            }
            default: return;  // learned types' parameters: left out, as they may be
        }
    }

    const node_type& pick_type(bool leaf_only) {
        for (;;) {
            const node_type& type =
                reg_.types()[static_cast<std::size_t>(roll(static_cast<int>(reg_.types().size())))];
            if ((!leaf_only || type.arity == arity::leaf) && can_fill(type)) return type;
        }
    }

    void add_node(std::int64_t parent, int depth) {
        const std::int64_t id = ++last_id_;
        --budget_;
        if (next_subtree_ <= trees_after_ && roll(8) == 0) {
            const int target = next_subtree_ + roll(trees_after_ - next_subtree_ + 1);
            records_.add(id, parent, "SubTree", "uses T" + std::to_string(target));
            records_.add_param("tree", "T" + std::to_string(target));
            if (roll(2) == 0) records_.add_param("_autoremap", true);
            return;
        }
        const node_type& type = pick_type(budget_ <= 1 || depth >= 8);
        records_.add(id, parent, type.name, roll(3) == 0 ? type.name : "");
        chosen_key_ = nullptr;
        for (const param_spec& spec : type.params) add_param(spec);
        if (roll(4) == 0) {
            // A pre- or post-condition, true, false or creating a key as it runs.
            static constexpr const char* scripts[] = {"true", "false", "fuzz_c := 3",
                                                      "fuzz_b := 1 > 2"};
            records_.add_param(std::string(condition_params[roll(8)]),
                               std::string(scripts[roll(4)]));
        }
        int children = 0;
        if (type.arity == arity::decorator) children = 1;
        if (type.arity == arity::composite) children = 1 + roll(4);
        for (int c = 0; c < children; ++c) add_node(id, depth + 1);
    }

    const registry& reg_;
    std::mt19937_64& random_;
    int trees_after_;
    int budget_;
    int next_subtree_ = 1;
    std::int64_t last_id_ = 0;
    std::vector<param_type> key_types_;
    const blackboard_key* chosen_key_ = nullptr;
    record_set records_;
};

}  // namespace

tree_document random_document(const registry& reg, std::mt19937_64& random, int max_nodes) {
    tree_document document;
    const int trees = 1 + static_cast<int>(random() % 3);
    for (int t = 0; t < trees; ++t)
        document.trees.push_back(tree_maker(reg, random, trees - 1, max_nodes).make(t));
    document.main_tree = "T0";
    return document;
}

}  // namespace canopy::fuzz
