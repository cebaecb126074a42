// Assembly, the half of building that makes the tree: see assemble.hpp. Linear and
// iterative, like validation, so a tree ten thousand levels deep costs no stack.
#include "build/assemble.hpp"

#include <algorithm>
#include <string>

#include "build/id_index.hpp"
#include "canopy/run/node.hpp"

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

        auto built = std::shared_ptr<tree>(new tree());
        tree& t = *built;
        t.subtree_end_.resize(count_);
        t.parent_.resize(count_);
        t.child_count_.resize(count_);
        t.type_.resize(count_);
        t.record_of_.resize(count_);
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
            t.record_of_[k] = record;
            t.parent_[k] = next.parent;
            t.type_[k] = static_cast<std::uint16_t>(slot_[record]);
            t.child_count_[k] = child_count_[record];
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
            t.subtree_end_[i] = static_cast<tree::index>(i + 1);
        for (std::size_t i = count_; i-- > 1;) {
            tree::index parent = t.parent_[i];
            t.subtree_end_[parent] = std::max(t.subtree_end_[parent], t.subtree_end_[i]);
        }

        bool any_creator = false;
        for (const node_type* type : slot_types_) {
            t.types_.push_back({type->name, type->id, type->arity});
            any_creator = any_creator || static_cast<bool>(type->create);
        }
        if (owned_ != nullptr) {
            t.records_ = std::move(*owned_);
        } else {
            t.records_ = records_;
        }
        t.records_.params_.clear();  // as written; the checked ones follow
        t.records_.params_.shrink_to_fit();
        t.param_values_ = std::move(params_);
        t.params_begin_ = std::move(params_begin_);
        t.board_.keys = std::move(keys_);
        if (any_creator) create_objects(t);
        lay_out_state(t);
        if (failed_) return nullptr;
        return built;
    }

    // Places each node's per-agent state after the status bytes, then the blackboard.
    static void lay_out_state(tree& t) {
        const std::size_t count = t.size();
        auto align_up = [](std::size_t offset, std::size_t align) {
            return (offset + align - 1) / align * align;
        };
        std::size_t offset = count;  // one status byte per node
        std::size_t align = 1;
        t.state_offset_.assign(count, 0);
        t.runnable_ = !t.objects_.empty();
        for (tree::index k = 0; k < count && t.runnable_; ++k) {
            const node* object = t.objects_[k];
            if (object == nullptr) {
                t.runnable_ = false;
                break;
            }
            const state_layout layout = object->state();
            if (layout.size == 0) continue;
            offset = align_up(offset, layout.align);
            t.state_offset_[k] = static_cast<std::uint32_t>(offset);
            t.stateful_.push_back(k);
            offset += layout.size;
            align = std::max(align, layout.align);
        }
        blackboard::layout& board = t.board_;
        if (!board.keys.empty()) {
            offset = align_up(offset, blackboard::layout::align);
            align = std::max(align, blackboard::layout::align);
        }
        t.blackboard_offset_ = offset;
        for (const blackboard_key& key : board.keys) {
            board.offsets.push_back(static_cast<std::uint32_t>(board.bytes));
            board.bytes +=
                align_up(blackboard::layout::size_of(key.type), blackboard::layout::align);
        }
        t.block_size_ = offset + board.bytes;
        t.block_align_ = align;
    }

    // A type without parameters makes one object per tree, which all its nodes share: the
    // object is const and per-agent state lives in the agents, so nothing tells the nodes
    // apart, and a tree of a million Sequences costs one allocation, not a million.
    void create_objects(tree& t) {
        t.objects_.assign(count_, nullptr);
        std::vector<const node*> shared(slot_types_.size(), nullptr);
        for (tree::index k = 0; k < count_; ++k) {
            const node_type* type = slot_types_[t.type_[k]];
            if (!type->create) continue;
            const bool shareable = type->params.empty();
            try {
                if (shareable && shared[t.type_[k]] != nullptr) {
                    t.objects_[k] = shared[t.type_[k]];
                } else {
                    std::unique_ptr<node> made = type->create(t.params(k));
                    t.objects_[k] = made.get();
                    if (shareable) shared[t.type_[k]] = made.get();
                    if (made) t.owned_objects_.push_back(std::move(made));
                }
                if (type->arity != arity::leaf && t.objects_[k] != nullptr) {
                    t.objects_[k]->check_children(t.child_count(k));
                }
            } catch (const std::exception& e) {
                report_node(t, k, type, e.what());
            } catch (...) {
                report_node(t, k, type, "its creator failed");
            }
        }
    }

    void report_node(const tree& t, tree::index k, const node_type* type, const std::string& what) {
        sink_.report(t.where(k), diagnostic_code::invalid_param,
                     "node " + std::to_string(t.record_id(k)) + " ('" + type->name + "'): " + what,
                     t.record_id(k));
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
    diagnostic_sink& sink_;
    bool failed_ = false;
};

std::shared_ptr<const tree> assemble_tree(validated_records records, diagnostic_sink& sink) {
    return tree_assembler(records, sink).run();
}

}  // namespace canopy::detail
