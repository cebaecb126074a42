// The one place that validates records and the one place that makes trees. Every pass is
// linear and iterative (no recursion), so a tree ten thousand levels deep or a million nodes
// wide costs no stack.
#include "canopy/build.hpp"

#include <charconv>
#include <cmath>
#include <unordered_map>

#include "canopy/records.hpp"
#include "canopy/registry.hpp"
#include "canopy/tree.hpp"
#include "diagnostic_order.hpp"
#include "id_index.hpp"
#include "param_text.hpp"
#include "suggest.hpp"

namespace canopy {
namespace {

constexpr std::uint32_t none = detail::id_index::none;

std::string id_text(std::int64_t id) {
    return "node " + std::to_string(id);
}

std::string at_line(source_location where) {
    if (where.line == 0) return {};
    return " (line " + std::to_string(where.line) + ")";
}

std::string describe_value(const param_value& value) {
    switch (value.index()) {
        case 0: return std::get<bool>(value) ? "true" : "false";
        case 1: return std::to_string(std::get<std::int64_t>(value));
        case 2: {
            char text[32];
            char* end = std::to_chars(text, text + sizeof text, std::get<double>(value)).ptr;
            return {text, end};  // shortest form that reads back the same: "2.5"
        }
        default: return '"' + std::get<std::string>(value) + '"';
    }
}

// Converts a parameter as written to its declared type, or returns nothing.
std::optional<param_value> convert(const record_set::raw_param& raw, param_type type) {
    if (!raw.from_text) {
        if (type_of(raw.value) == type) return raw.value;
        if (type == param_type::number && raw.value.index() == 1) {
            return static_cast<double>(std::get<std::int64_t>(raw.value));
        }
        return std::nullopt;
    }
    const auto& text = std::get<std::string>(raw.value);
    const char* first = text.data();
    const char* last = text.data() + text.size();
    switch (type) {
        case param_type::string: return raw.value;
        case param_type::boolean:
            if (text == "true") return true;
            if (text == "false") return false;
            return std::nullopt;
        case param_type::integer: {
            std::int64_t value = 0;
            auto [end, error] = std::from_chars(first, last, value);
            if (text.empty() || error != std::errc() || end != last) return std::nullopt;
            return value;
        }
        case param_type::number: {
            double value = 0;
            auto [end, error] = std::from_chars(first, last, value);
            // JSON has no infinity or NaN, so neither does XML.
            if (text.empty() || error != std::errc() || end != last || !std::isfinite(value)) {
                return std::nullopt;
            }
            return value;
        }
    }
    return std::nullopt;
}

}  // namespace

class tree_builder {
public:
    tree_builder(const record_set& records, const registry& reg, const std::string& path)
        : records_(records), registry_(reg), path_(path), count_(records.size()) {}

    load_result run() {
        if (count_ == 0) {
            report_file(diagnostic_code::no_root,
                        "the file holds no node records; a tree needs at least a root");
            return finish();
        }
        if (count_ >= none) {
            report_file(diagnostic_code::too_many_nodes,
                        "the file holds " + std::to_string(count_) +
                            " records; a tree holds at most " + std::to_string(none - 1));
            return finish();
        }
        resolve_types();
        index_ids();
        link_parents();
        find_cycles();
        check_arity();
        check_params();
        // Records a reader marked as unreadable never make a tree; the reader has reported them.
        if (!diagnostics_.empty() || any_marked()) return finish();
        assemble();
        return finish();
    }

private:
    // ---- reporting -------------------------------------------------------------------------

    void report(std::size_t record, diagnostic_code code, std::string message) {
        std::optional<std::int64_t> id;
        if ((records_.problems(record) & record_set::bad_id) == 0) id = records_.id(record);
        diagnostics_.push_back({path_, records_.where(record), id, code, std::move(message)});
    }
    void report_at(source_location where, std::size_t record, diagnostic_code code,
                   std::string message) {
        report(record, code, std::move(message));
        if (where.line != 0) diagnostics_.back().where = where;
    }
    void report_file(diagnostic_code code, std::string message) {
        diagnostics_.push_back({path_, {}, std::nullopt, code, std::move(message)});
    }

    load_result finish() {
        load_result result;
        if (diagnostics_.empty()) {
            result.tree = std::move(tree_);
        } else {
            detail::sort_by_location(diagnostics_);
            result.diagnostics = std::move(diagnostics_);
        }
        return result;
    }

    bool any_marked() const {
        for (std::size_t i = 0; i < count_; ++i) {
            if (records_.problems(i) != 0) return true;
        }
        return false;
    }

    std::string name_of(std::size_t record) const {
        return (records_.problems(record) & record_set::bad_id) != 0 ? "the node"
                                                                     : id_text(records_.id(record));
    }

    // ---- passes ----------------------------------------------------------------------------

    void resolve_types() {
        types_.assign(count_, nullptr);
        std::vector<const node_type*> by_name(records_.type_names().size(), nullptr);
        for (std::size_t i = 0; i < records_.type_names().size(); ++i) {
            by_name[i] = registry_.find(records_.type_names()[i]);
        }
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_type) != 0) continue;
            if (records_.has_type_id(i)) {
                types_[i] = registry_.find(records_.type_id(i));
                if (types_[i] == nullptr) {
                    report(i, diagnostic_code::unknown_type,
                           "unknown node type id " + std::to_string(records_.type_id(i)) +
                               " (`canopy types` lists the registered ids)");
                }
                continue;
            }
            types_[i] = by_name[records_.type_name_index(i)];
            if (types_[i] == nullptr) {
                std::string_view name = records_.type_name(i);
                std::string_view nearest = registry_.nearest_name(name);
                report(i, diagnostic_code::unknown_type,
                       "unknown node type '" + std::string(name) + "'" +
                           (nearest.empty()
                                ? std::string(" (`canopy types` lists the registered types)")
                                : " (did you mean '" + std::string(nearest) + "'?)"));
            }
        }
    }

    void index_ids() {
        ids_ = std::make_unique<detail::id_index>(count_);
        reliable_.assign(count_, true);
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_id) != 0) {
                ids_unreadable_ = true;
                reliable_[i] = false;
                continue;
            }
            std::int64_t id = records_.id(i);
            if (id == 0) {
                report(i, diagnostic_code::invalid_id,
                       "node id 0 is not allowed: parentId 0 means 'no parent'; give the node a "
                       "non-zero id");
                reliable_[i] = false;
                continue;
            }
            std::uint32_t first = ids_->insert(id, static_cast<std::uint32_t>(i));
            if (first != i) {
                report(i, diagnostic_code::duplicate_id,
                       "duplicate node id " + std::to_string(id) + "; it was first used" +
                           at_line(records_.where(first)));
                reliable_[i] = false;
            }
        }
    }

    void link_parents() {
        parent_.assign(count_, none);
        std::size_t first_root = none;
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_parent) != 0) {
                damaged_ = true;
                continue;
            }
            std::int64_t parent_id = records_.parent_id(i);
            if (parent_id == 0) {
                if (first_root == none) {
                    first_root = i;
                } else {
                    report(i, diagnostic_code::multiple_roots,
                           name_of(i) + " has no parent, but " + name_of(first_root) +
                               at_line(records_.where(first_root)) +
                               " is already the root; a tree has exactly one root");
                }
                continue;
            }
            if (reliable_[i] && parent_id == records_.id(i)) {
                report(i, diagnostic_code::self_parent, name_of(i) + " is its own parent");
                damaged_ = true;
                continue;
            }
            std::uint32_t parent = ids_->find(parent_id);
            if (parent == none) {
                damaged_ = true;
                // With an id the reader could not read, that record may be the parent meant.
                if (!ids_unreadable_) {
                    report(i, diagnostic_code::unknown_parent,
                           "parent id " + std::to_string(parent_id) + " of " + name_of(i) +
                               " names no node");
                }
                continue;
            }
            parent_[i] = parent;
        }
        root_ = static_cast<std::uint32_t>(first_root);
        if (first_root == none && !damaged_) {
            report_file(diagnostic_code::no_root,
                        "no root: every record has a parent; exactly one must have parentId 0, "
                        "null or none");
        }
    }

    // Walks up from every record, marking each walk; reaching a record marked by the current
    // walk closes a cycle, which is reported once, at its first record in the file.
    void find_cycles() {
        std::vector<std::uint32_t> walk(count_, none);
        std::vector<std::uint32_t> cycle;
        for (std::size_t start = 0; start < count_; ++start) {
            auto at = static_cast<std::uint32_t>(start);
            while (at != none && walk[at] == none) {
                walk[at] = static_cast<std::uint32_t>(start);
                at = parent_[at];
            }
            if (at == none || walk[at] != start) continue;
            cycle.clear();
            std::uint32_t first = at;
            std::uint32_t member = at;
            do {
                cycle.push_back(member);
                first = std::min(first, member);
                member = parent_[member];
            } while (member != at);
            std::string chain;
            for (std::size_t k = 0; k < cycle.size() && k < 8; ++k) {
                chain += std::to_string(records_.id(cycle[k])) + " -> ";
            }
            chain += cycle.size() > 8 ? "..." : std::to_string(records_.id(cycle[0]));
            report(first, diagnostic_code::parent_cycle,
                   name_of(first) + " is its own ancestor: parents run " + chain +
                       "; one of these nodes must hang from the root");
            damaged_ = true;
        }
    }

    // Too many children is always a problem; too few may only follow from a broken parent
    // link reported already, so it is checked only when every link is sound.
    void check_arity() {
        child_count_.assign(count_, 0);
        for (std::size_t i = 0; i < count_; ++i) {
            if (parent_[i] != none) ++child_count_[parent_[i]];
        }
        for (std::size_t i = 0; i < count_; ++i) {
            const node_type* type = types_[i];
            if (type == nullptr || !reliable_[i]) continue;
            std::uint32_t children = child_count_[i];
            const std::string kind =
                "'" + type->name + "' is a " + std::string(to_string(type->arity));
            switch (type->arity) {
                case arity::leaf:
                    if (children != 0) {
                        report(i, diagnostic_code::leaf_with_children,
                               kind + " and takes no children, but " + name_of(i) + " has " +
                                   std::to_string(children));
                    }
                    break;
                case arity::decorator:
                    if (children > 1 || (children == 0 && !damaged_)) {
                        report(i, diagnostic_code::decorator_child_count,
                               kind + " and takes exactly one child, but " + name_of(i) + " has " +
                                   std::to_string(children));
                    }
                    break;
                case arity::composite:
                    if (children == 0 && !damaged_) {
                        report(i, diagnostic_code::composite_without_children,
                               kind + " and needs at least one child, but " + name_of(i) +
                                   " has none");
                    }
                    break;
            }
        }
    }

    void check_params() {
        params_begin_.assign(count_ + 1, 0);
        for (std::size_t i = 0; i < count_; ++i) {
            params_begin_[i] = static_cast<std::uint32_t>(params_.size());
            const node_type* type = types_[i];
            if (type != nullptr) check_params_of(i, *type);
        }
        params_begin_[count_] = static_cast<std::uint32_t>(params_.size());
    }

    void check_params_of(std::size_t i, const node_type& type) {
        const record_set::raw_param* first = records_.params_begin(i);
        const record_set::raw_param* last = records_.params_end(i);
        std::vector<std::string_view> declared;
        for (const param_spec& spec : type.params) declared.emplace_back(spec.name);
        for (const record_set::raw_param* raw = first; raw != last; ++raw) {
            auto spec = std::find_if(type.params.begin(), type.params.end(),
                                     [&](const param_spec& s) { return s.name == raw->name; });
            if (spec != type.params.end()) continue;
            std::string accepted;
            for (std::string_view name : declared)
                accepted += (accepted.empty() ? "" : ", ") + std::string(name);
            std::string hint = detail::did_you_mean(raw->name, declared);
            if (hint.empty())
                hint = accepted.empty() ? "; it takes none" : "; it takes: " + accepted;
            report_at(raw->where, i, diagnostic_code::unknown_param,
                      "'" + type.name + "' has no parameter '" + raw->name + "'" + hint);
        }
        for (const param_spec& spec : type.params) {
            const auto* raw = std::find_if(
                first, last, [&](const record_set::raw_param& r) { return r.name == spec.name; });
            if (raw == last) {
                if (spec.default_value) {
                    params_.push_back({spec.name, *spec.default_value});
                } else {
                    report(i, diagnostic_code::missing_param,
                           name_of(i) + " ('" + type.name + "') needs parameter '" + spec.name +
                               "' (" + detail::with_article(spec.type) + ")");
                }
                continue;
            }
            std::optional<param_value> value = convert(*raw, spec.type);
            if (!value) {
                std::string given = raw->from_text ? describe_value(raw->value)
                                                   : detail::with_article(type_of(raw->value)) +
                                                         " (" + describe_value(raw->value) + ")";
                report_at(raw->where, i, diagnostic_code::wrong_param_type,
                          "parameter '" + spec.name + "' of '" + type.name + "' must be " +
                              detail::with_article(spec.type) + ", not " + given);
                continue;
            }
            params_.push_back({spec.name, std::move(*value)});
        }
    }

    // ---- assembly --------------------------------------------------------------------------

    void assemble() {
        // Children of each record in file order (counting sort), then preorder from the root.
        std::vector<std::uint32_t> child_begin(count_ + 1, 0);
        for (std::size_t i = 0; i < count_; ++i)
            child_begin[i + 1] = child_begin[i] + child_count_[i];
        std::vector<std::uint32_t> children(count_ == 0 ? 0 : count_ - 1);
        {
            std::vector<std::uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
            for (std::size_t i = 0; i < count_; ++i) {
                if (parent_[i] != none)
                    children[fill[parent_[i]]++] = static_cast<std::uint32_t>(i);
            }
        }
        std::vector<std::uint32_t> order;  // preorder position -> record
        order.reserve(count_);
        std::vector<std::uint32_t> stack{root_};
        while (!stack.empty()) {
            std::uint32_t record = stack.back();
            stack.pop_back();
            order.push_back(record);
            for (std::uint32_t k = child_begin[record + 1]; k > child_begin[record]; --k) {
                stack.push_back(children[k - 1]);
            }
        }
        // Every record with a sound parent chain reaches the root; the passes above report
        // every other case, so this only guards against a mistake in them.
        if (order.size() != count_) {
            report_file(diagnostic_code::parent_cycle, "some records do not hang from the root");
            return;
        }
        std::vector<std::uint32_t> position(count_);
        for (std::size_t k = 0; k < count_; ++k) position[order[k]] = static_cast<std::uint32_t>(k);

        auto built = std::shared_ptr<tree>(new tree());
        tree& t = *built;
        t.name_ = records_.name();
        t.subtree_end_.resize(count_);
        t.parent_.resize(count_);
        t.child_count_.resize(count_);
        t.type_.resize(count_);
        t.record_id_.resize(count_);
        t.where_.resize(count_);
        t.describe_end_.resize(count_);
        t.params_end_.resize(count_);

        std::unordered_map<const node_type*, std::uint16_t> type_index;
        bool any_creator = false;
        for (std::size_t k = 0; k < count_; ++k) {
            std::uint32_t record = order[k];
            const node_type* type = types_[record];
            auto [entry, added] =
                type_index.emplace(type, static_cast<std::uint16_t>(t.types_.size()));
            if (added) {
                if (t.types_.size() == 0xFFFF) {
                    report_file(diagnostic_code::too_many_types,
                                "a tree uses at most 65535 distinct node types");
                    return;
                }
                t.types_.push_back({type->name, type->id, type->arity});
                any_creator = any_creator || static_cast<bool>(type->create);
            }
            t.type_[k] = entry->second;
            t.parent_[k] = parent_[record] == none ? tree::no_parent : position[parent_[record]];
            t.child_count_[k] = child_count_[record];
            t.record_id_[k] = records_.id(record);
            t.where_[k] = records_.where(record);
            t.text_.append(records_.describe(record));
            t.describe_end_[k] = t.text_.size();
            for (std::uint32_t p = params_begin_[record]; p < params_begin_[record + 1]; ++p) {
                t.params_.push_back(std::move(params_[p]));
            }
            t.params_end_[k] = static_cast<std::uint32_t>(t.params_.size());
            t.subtree_end_[k] = static_cast<tree::index>(k + 1);
        }
        // Subtree sizes, children before parents: in preorder a parent precedes its children.
        for (std::size_t k = count_; k-- > 1;) {
            tree::index parent = t.parent_[k];
            t.subtree_end_[parent] = std::max(t.subtree_end_[parent], t.subtree_end_[k]);
        }
        if (any_creator) create_objects(t, order);
        tree_ = std::move(built);
    }

    void create_objects(tree& t, const std::vector<std::uint32_t>& order) {
        t.objects_.resize(count_);
        for (std::size_t k = 0; k < count_; ++k) {
            const node_type* type = types_[order[k]];
            if (!type->create) continue;
            try {
                t.objects_[k] = type->create(t.params(static_cast<tree::index>(k)));
            } catch (const std::exception& e) {
                report(order[k], diagnostic_code::invalid_param,
                       name_of(order[k]) + " ('" + type->name + "'): " + e.what());
            } catch (...) {
                report(order[k], diagnostic_code::invalid_param,
                       name_of(order[k]) + " ('" + type->name + "'): its creator failed");
            }
        }
    }

    const record_set& records_;
    const registry& registry_;
    const std::string& path_;
    const std::size_t count_;
    std::vector<diagnostic> diagnostics_;

    std::vector<const node_type*> types_;  // per record; null when unknown
    std::unique_ptr<detail::id_index> ids_;
    std::vector<bool> reliable_;  // false: id unreadable, 0 or a duplicate
    bool ids_unreadable_ = false;
    std::vector<std::uint32_t> parent_;  // per record: the parent record, or none
    std::uint32_t root_ = none;
    bool damaged_ = false;                    // some parent link is broken (and reported)
    std::vector<std::uint32_t> child_count_;  // per record
    std::vector<param> params_;               // checked params, record by record
    std::vector<std::uint32_t> params_begin_;
    std::shared_ptr<tree> tree_;
};

load_result build_tree(const record_set& records, const registry& reg, const std::string& path) {
    return tree_builder(records, reg, path).run();
}

}  // namespace canopy
