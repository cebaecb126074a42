// Assembly, the half of building that makes the tree: see assemble.hpp. Linear and
// iterative, like validation, so a tree ten thousand levels deep costs no stack.
#include "builder/assemble.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include "builder/id_index.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/script.hpp"

namespace canopy::detail {

class tree_assembler {
public:
    tree_assembler(validated_records& v, diagnostic_sink& sink)
        : records_(v.records),
          owned_(v.owned),
          count_(v.count),
          root_(v.root),
          parent_(v.parent),
          child_count_(v.child_count),
          slot_(v.slot),
          slot_types_(v.slot_types),
          params_(std::move(v.params)),
          params_begin_(std::move(v.params_begin)),
          keys_(std::move(v.keys)),
          condition_of_record_(std::move(v.condition_of_record)),
          conditions_(std::move(v.conditions)),
          scripts_(std::move(v.scripts)),
          interrupts_on_error_(v.interrupts_on_error),
          fails_as_btcpp_(v.fails_as_btcpp),
          enums_(v.enums),
          sink_(sink) {}

    // Lays the nodes out in preorder with one depth-first walk that writes each tree array
    // front to back; only the reads of per-record data jump about.
    std::shared_ptr<const tree> run() {
        // The children of each record in file order, by counting sort.
        std::vector<std::uint32_t> child_begin(count_ + 1, 0);
        for (std::size_t i = 0; i < count_; ++i)
            child_begin[i + 1] = child_begin[i] + child_count_[i];
        std::vector<std::uint32_t> children(count_ - 1);
        {
            std::vector<std::uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
            for (std::size_t i = 0; i < count_; ++i) {
                if (parent_[i] != none)
                    children[fill[parent_[i]]++] = static_cast<std::uint32_t>(i);
            }
        }

        tree_parts parts;
        tree_layout& layout = parts.layout;
        layout.subtree_end.resize(count_);
        layout.interrupts_on_error = interrupts_on_error_;
        layout.fails_as_btcpp = fails_as_btcpp_;
        parts.parent.resize(count_);
        parts.child_count.resize(count_);
        parts.type.resize(count_);
        parts.record_of.resize(count_);
        struct pending {
            std::uint32_t record;
            tree::index parent;
        };
        std::vector<pending> stack{{root_, tree::no_parent}};
        tree::index k = 0;
        while (!stack.empty()) {
            const pending next = stack.back();
            stack.pop_back();
            const std::uint32_t record = next.record;
            parts.record_of[k] = record;
            parts.parent[k] = next.parent;
            parts.type[k] = static_cast<std::uint16_t>(slot_[record]);
            parts.child_count[k] = child_count_[record];
            for (std::uint32_t c = child_begin[record + 1]; c > child_begin[record]; --c) {
                stack.push_back({children[c - 1], k});
            }
            ++k;
        }
        // Every record with a sound parent chain reaches the root, and the checks before
        // report every other case; this only guards against a mistake in them.
        if (k != count_) {
            sink_.report_file(diagnostic_code::parent_cycle,
                              "some records do not hang from the root");
            return nullptr;
        }
        // Subtree ends, children before parents: in preorder a parent precedes its children.
        for (std::size_t i = 0; i < count_; ++i)
            layout.subtree_end[i] = static_cast<tree::index>(i + 1);
        for (std::size_t i = count_; i-- > 1;) {
            tree::index parent = parts.parent[i];
            layout.subtree_end[parent] =
                std::max(layout.subtree_end[parent], layout.subtree_end[i]);
        }

        bool any_creator = false;
        for (const node_type* type : slot_types_) {
            parts.types.push_back({type->name, type->id, type->arity});
            any_creator = any_creator || static_cast<bool>(type->create);
        }
        if (owned_ != nullptr) {
            parts.records = std::move(*owned_);
        } else {
            parts.records = records_;
        }
        parts.records.drop_params();  // as written; the checked ones follow
        parts.param_values = std::move(params_);
        parts.params_begin = std::move(params_begin_);
        // Stamps per key only where a node reads them: other trees' agents stay as small.
        const bool stamps = std::any_of(slot_types_.begin(), slot_types_.end(),
                                        [](const node_type* t) { return t->watches_updates; });
        layout.board.place(std::move(keys_), stamps);
        parts.owned_scripts = std::move(scripts_);
        if (any_creator) create_objects(parts);
        note_hooks_and_hosts(parts);
        place_conditions(parts);
        lay_out_state(layout);
        place_inline_conditions(layout);
        if (failed_) return nullptr;
        return std::make_shared<const tree>(std::move(parts));
    }

    // Places each node's per-agent state after the status bytes, then the blackboard.
    static void lay_out_state(tree_layout& layout) {
        const std::size_t count = layout.size();
        auto align_up = [](std::size_t offset, std::size_t align) {
            return (offset + align - 1) / align * align;
        };
        std::size_t offset = count;  // one status byte per node
        if (layout.fails_as_btcpp) layout.left_running_flag = static_cast<std::uint32_t>(offset++);
        if (layout.interrupts_on_error)
            layout.behavior3_last_status = static_cast<std::uint32_t>(offset++);
        std::size_t align = 1;
        layout.state_offset.assign(count, 0);
        layout.runnable = !layout.objects.empty();
        for (tree::index k = 0; k < count && layout.runnable; ++k) {
            const node* object = layout.objects[k];
            if (object == nullptr) {
                layout.runnable = false;
                break;
            }
            const state_layout state = object->state();
            if (state.size == 0) continue;
            offset = align_up(offset, state.align);
            layout.state_offset[k] = static_cast<std::uint32_t>(offset);
            layout.stateful.push_back(k);
            if (state.owns) layout.owning.push_back(k);
            offset += state.size;
            align = std::max(align, state.align);
        }
        const blackboard::layout& board = layout.board;  // placed when its keys were given
        if (!board.keys.empty()) {
            offset = align_up(offset, board.align);
            align = std::max(align, board.align);
        }
        layout.blackboard_offset = offset;
        layout.block_size = offset + board.bytes;
        layout.block_align = align;
    }

    // Each node's hooks are its type's; the host types are those of the types the tree uses.
    void note_hooks_and_hosts(tree_parts& parts) const {
        tree_layout& layout = parts.layout;
        layout.hooks.resize(count_);
        layout.waits_on_children.resize(count_);
        for (tree::index k = 0; k < count_; ++k) {
            const node_type& type = *slot_types_[parts.type[k]];
            layout.hooks[k] = type.hooks;
            layout.waits_on_children[k] = type.waits_on_children ? 1 : 0;
            if (type.listens_while_idle) {
                layout.hooks[k] |= listening_hook;
                layout.listeners.push_back(k);
            }
            if (type.sees_errors) layout.hooks[k] |= error_seeing_hook;
            if (type.abandons_children && interrupts_on_error_) layout.abandons = true;
            if (fails_as_btcpp_ && parts.child_count[k] != 0 && !type.stays_idle_when_skipped)
                layout.hooks[k] |= left_running_hook;
        }
        for (const node_type* type : slot_types_) {
            if (!type->host) continue;
            const bool known =
                std::any_of(layout.hosts.begin(), layout.hosts.end(),
                            [&](const host_need& need) { return need.type == type->host; });
            if (!known) layout.hosts.push_back({type->host, type->name});
        }
    }

    // BehaviorTree.CPP's pre- and post-conditions, from records to the nodes that have them.
    void place_conditions(tree_parts& parts) {
        if (conditions_.empty()) return;
        tree_layout& layout = parts.layout;
        layout.condition_index.assign(count_, 0);
        for (tree::index k = 0; k < count_; ++k) {
            const std::uint32_t entry = condition_of_record_[parts.record_of[k]];
            if (entry == 0xFFFFFFFF) continue;
            layout.condition_index[k] = entry;
            layout.hooks[k] |= conditions_hook;
        }
        layout.conditions = std::move(conditions_);
    }

    // Where a node's one condition is a key compared with a constant, the engine tests it
    // inline (detail::inline_condition); it needs the key's offset in the agent's block.
    static void place_inline_conditions(tree_layout& layout) {
        if (layout.conditions.empty()) return;
        using kind = node_conditions;
        std::vector<std::optional<inline_condition>> inline_entry(layout.conditions.size());
        for (std::size_t entry = 0; entry < layout.conditions.size(); ++entry) {
            const node_conditions& c = layout.conditions[entry];
            if (c.pre[kind::while_true] != nullptr ||
                std::any_of(std::begin(c.post), std::end(c.post),
                            [](const script* s) { return s != nullptr; }))
                continue;
            const auto given = std::count_if(std::begin(c.pre), std::end(c.pre),
                                             [](const script* s) { return s != nullptr; });
            if (given != 1) continue;
            const std::size_t which = c.pre[kind::failure_if] != nullptr   ? kind::failure_if
                                      : c.pre[kind::success_if] != nullptr ? kind::success_if
                                                                           : kind::skip_if;
            const std::optional<key_test> test = c.pre[which]->as_key_test();
            if (!test) continue;
            inline_condition& made = inline_entry[entry].emplace();
            made.offset = static_cast<std::uint32_t>(layout.blackboard_offset +
                                                     layout.board.offsets[test->slot]);
            made.boolean_key = test->boolean_key;
            made.range = test->range();
            made.result = which == kind::failure_if   ? status::failure
                          : which == kind::success_if ? status::success
                                                      : status::skipped;
        }
        if (std::none_of(inline_entry.begin(), inline_entry.end(),
                         [](const auto& made) { return made.has_value(); }))
            return;
        layout.inline_conditions.resize(layout.size());
        for (tree::index k = 0; k < layout.size(); ++k) {
            // A node a skip may leave running (left_running_hook) takes the general step,
            // which tells that from not running.
            if ((layout.hooks[k] & conditions_hook) == 0 ||
                (layout.hooks[k] & left_running_hook) != 0)
                continue;
            const std::optional<inline_condition>& made = inline_entry[layout.condition_index[k]];
            if (!made) continue;
            layout.inline_conditions[k] = *made;
            layout.hooks[k] |= inline_condition_hook;
        }
    }

    // A type without parameters makes one object per tree, which all its nodes share: the
    // object is const and per-agent state lives in the agents, so nothing tells the nodes
    // apart, and a tree of a million Sequences costs one allocation, not a million.
    void create_objects(tree_parts& parts) {
        std::vector<const node*>& objects = parts.layout.objects;
        objects.assign(count_, nullptr);
        std::vector<const node*> shared(slot_types_.size(), nullptr);
        for (tree::index k = 0; k < count_; ++k) {
            const std::uint16_t slot = parts.type[k];
            const node_type* type = slot_types_[slot];
            if (!type->create) continue;
            const bool shareable = type->params.empty();
            try {
                if (shareable && shared[slot] != nullptr) {
                    objects[k] = shared[slot];
                } else {
                    const std::uint32_t record = parts.record_of[k];
                    const param_list params(
                        parts.param_values.data() + parts.params_begin[record],
                        parts.params_begin[record + 1] - parts.params_begin[record], &enums_,
                        fails_as_btcpp_);
                    std::unique_ptr<node> made = type->create(params);
                    objects[k] = made.get();
                    if (shareable) shared[slot] = made.get();
                    if (made) parts.owned_objects.push_back(std::move(made));
                }
                if (type->arity != arity::leaf && objects[k] != nullptr) {
                    objects[k]->check_children(parts.child_count[k]);
                }
            } catch (const unused_children& e) {
                report_node(parts, k, type, e.what(), diagnostic_severity::warning);
            } catch (const children_refused_at_tick& e) {
                // BehaviorTree.CPP builds such a node and its tick throws: so does Canopy's.
                report_node(
                    parts, k, type,
                    fails_as_btcpp_ ? e.what() + std::string("; its tick fails") : e.what(),
                    fails_as_btcpp_ ? diagnostic_severity::warning : diagnostic_severity::error);
            } catch (const std::exception& e) {
                report_node(parts, k, type, e.what());
            } catch (...) {
                report_node(parts, k, type, "its creator failed");
            }
        }
    }

    void report_node(const tree_parts& parts, tree::index k, const node_type* type,
                     const std::string& what,
                     diagnostic_severity severity = diagnostic_severity::error) {
        const std::uint32_t record = parts.record_of[k];
        const std::int64_t id = parts.records.id(record);
        // A BehaviorTree.CPP file's record ids are the reader's numbering: the location says
        // which node, in the file's words.
        const std::string_view written = parts.records.written_type(record);
        std::string message =
            fails_as_btcpp_ && parts.records.where(record).line != 0
                ? "'" + std::string(written.empty() ? std::string_view(type->name) : written) +
                      "': " + what
                : "node " + std::to_string(id) + " ('" + type->name + "'): " + what;
        if (severity == diagnostic_severity::warning) {
            sink_.warn(parts.records.where(record), diagnostic_code::invalid_param,
                       std::move(message), id);
            return;
        }
        sink_.report(parts.records.where(record), diagnostic_code::invalid_param,
                     std::move(message), id);
        failed_ = true;
    }

private:
    static constexpr std::uint32_t none = id_index::none;

    const record_set& records_;
    record_set* owned_;
    const std::size_t count_;
    const std::uint32_t root_;
    const std::vector<std::uint32_t>& parent_;
    const std::vector<std::uint32_t>& child_count_;
    const std::vector<std::uint32_t>& slot_;
    const std::vector<const node_type*>& slot_types_;
    std::vector<param> params_;
    std::vector<std::uint32_t> params_begin_;
    std::vector<blackboard_key> keys_;
    std::vector<std::uint32_t> condition_of_record_;
    std::vector<node_conditions> conditions_;
    std::vector<std::shared_ptr<const script>> scripts_;
    bool interrupts_on_error_;
    bool fails_as_btcpp_;
    const enum_table& enums_;
    diagnostic_sink& sink_;
    bool failed_ = false;
};

std::shared_ptr<const tree> assemble_tree(validated_records records, diagnostic_sink& sink) {
    return tree_assembler(records, sink).run();
}

}  // namespace canopy::detail
