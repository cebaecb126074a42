// try_load_document (canopy/load/load.hpp): a file's document, checked, with what writers need
// said the way every writer can say it.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "canopy/load/load.hpp"
#include "core/json_text.hpp"
#include "load/loader.hpp"
#include "load/subtree_node.hpp"

namespace canopy {
namespace {

using detail::file_set;
using detail::loader;
using detail::tree_ref;

// The records with each type named as the registry (or the learned types) names it and, where
// the tree was built, each literal given as text (XML's) typed as its parameter is, so that a
// format that types its values (JSON) writes it as what it is: 3, not "3".
record_set with_registered_names(const record_set& records, const registry& reg,
                                 const registry& overlay, const tree* built, bool implicit_keys) {
    std::unordered_map<std::int64_t, tree::index> node_of;
    if (built != nullptr) {
        for (tree::index n = 0; n < built->size(); ++n) node_of.emplace(built->record_id(n), n);
    }
    record_set named;
    named.set_name(records.name());
    named.set_tree_metadata(records.tree_metadata());
    for (const record_set::raw_param& port : records.port_defaults()) named.add_port_default(port);
    for (record_set::key_declaration key : records.declared_keys()) {
        // A default given as text (XML's) typed as its key is, as literals are below.
        if (key.initial && key.initial->from_text && built != nullptr) {
            for (const blackboard_key& made : built->keys()) {
                if (made.name != key.name || !made.initial || made.custom != nullptr) continue;
                key.initial->value = *made.initial;
                key.initial->from_text = false;
            }
        }
        named.declare_key(std::move(key));
    }
    if (implicit_keys && built != nullptr) {
        // The keys the file's uses made, declared with the type they were given, so that a
        // format whose keys are declared (any but behavior3) reads the written tree. Not the
        // program's keys, nor the keys private to one use of a subtree ("name#2/key").
        for (const blackboard_key& key : built->keys()) {
            const bool declared = std::any_of(
                records.declared_keys().begin(), records.declared_keys().end(),
                [&](const record_set::key_declaration& d) { return d.name == key.name; });
            const bool program_key =
                std::any_of(reg.keys().begin(), reg.keys().end(),
                            [&](const blackboard_key& k) { return k.name == key.name; });
            if (declared || key.from_file || program_key ||
                key.name.find('#') != std::string::npos) {
                continue;
            }
            record_set::key_declaration made;
            made.name = key.name;
            made.type = std::string(key.type_name());
            made.implicit = true;
            named.declare_key(std::move(made));
        }
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
        const node_type* type = nullptr;
        if (records.has_type_id(i)) {
            type = reg.find(records.type_id(i));
        } else if (records.type_name(i) != detail::subtree_type_name) {
            type = overlay.find(records.type_name(i));
            if (type == nullptr) type = reg.find(records.type_name(i));
        }
        named.add(records.id(i), records.parent_id(i),
                  type != nullptr ? std::string_view(type->name) : records.type_name(i),
                  records.describe(i), records.where(i));
        named.copy_written_type(records, i);
        named.copy_metadata(records, i);
        auto node = node_of.find(records.id(i));
        for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
            const param* checked = nullptr;
            if (p->from_text && built != nullptr && node != node_of.end()) {
                checked = built->params(node->second).find_param(p->name);
            }
            if (checked != nullptr && checked->key == param::no_key && !checked->names_key &&
                !checked->output) {
                record_set::raw_param typed = *p;
                typed.value = checked->value;
                typed.from_text = false;
                named.add_param(std::move(typed));
            } else {
                named.add_param(*p);
            }
        }
    }
    return named;
}

// Each subtree named by file, as a path from the file's own folder (behavior3's paths start at
// its workspace), with the name of the tree it uses: what every format's writer can say.
void name_subtree_files(file_set& files, std::size_t f, const std::filesystem::path& relative_to) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path own_folder =
        fs::weakly_canonical(fs::absolute(files.file(f).location), ec).parent_path();
    // Where the written document's relative paths start: its own folder, or the one it is
    // written to (so that a converted file in another folder still finds what it names).
    const fs::path folder =
        relative_to.empty() ? own_folder : fs::weakly_canonical(fs::absolute(relative_to), ec);
    // First every file the subtrees name, opened (opening may move the files' documents).
    struct named_file {
        std::string path;
        std::string tree;
    };
    std::map<std::string, named_file> by_path;
    for (std::size_t t = 0; t < files.file(f).document.trees.size(); ++t) {
        for (std::size_t i = 0; i < files.file(f).document.trees[t].size(); ++i) {
            const record_set& records = files.file(f).document.trees[t];
            if (records.type_name(i) != detail::subtree_type_name) continue;
            const std::string* written = records.text_param(i, "file");
            if (!written) continue;
            const std::string file = *written;  // opening a file may move the records
            const fs::path found = files.resolve(f, file);
            const std::optional<std::size_t> target =
                found.empty() ? std::nullopt : files.open(found);
            if (!target) continue;
            named_file named{fs::weakly_canonical(fs::absolute(found), ec)
                                 .lexically_relative(folder)
                                 .generic_string(),
                             {}};
            const tree_document& used = files.file(*target).document;
            if (used.trees.size() == 1) named.tree = used.trees[0].name();
            by_path.emplace(file, std::move(named));
        }
    }
    tree_document& document = files.file(f).document;
    if (!relative_to.empty() && document.subtree_paths == tree_document::path_base::file) {
        for (file_reference& include : document.includes) {
            const fs::path written(include.path);
            if (written.is_absolute()) continue;
            include.path = fs::weakly_canonical(own_folder / written, ec)
                               .lexically_relative(folder)
                               .generic_string();
        }
    }
    for (record_set& records : document.trees) {
        record_set named;
        named.set_name(records.name());
        named.set_tree_metadata(records.tree_metadata());
        named.copy_declarations(records);
        for (std::size_t i = 0; i < records.size(); ++i) {
            named.add(records.id(i), records.parent_id(i), records.type_name(i),
                      records.describe(i), records.where(i));
            named.copy_written_type(records, i);
            named.copy_metadata(records, i);
            std::optional<std::string> file;
            bool has_tree = false;
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                if (records.type_name(i) == detail::subtree_type_name && p->name == "file" &&
                    std::holds_alternative<std::string>(p->value)) {
                    file = std::get<std::string>(p->value);
                    continue;
                }
                has_tree = has_tree || p->name == "tree";
                named.add_param(*p);
            }
            if (!file) continue;
            auto found = by_path.find(*file);
            if (found == by_path.end()) {
                named.add_param("file", *file, records.where(i));
                continue;
            }
            if (!has_tree && !found->second.tree.empty())
                named.add_param("tree", found->second.tree, records.where(i));
            named.add_param("file", found->second.path, records.where(i));
        }
        records = std::move(named);
    }
    document.subtree_paths = tree_document::path_base::file;
}

// The C++ type a port of another program's node takes, as the values its uses give it say
// where a format types them (JSON's numbers and booleans): "int", "double" or "bool", so that
// a format that says values as text (XML) declares it and a reader of one that types them
// (behavior3) types them again; empty where a use gives text, a key or nothing typed.
std::string type_of_uses(const tree_document& document, std::string_view type,
                         std::string_view port) {
    std::string found;
    for (const record_set& records : document.trees) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (records.has_type_id(i) || records.type_name(i) != type) continue;
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
                if (p->name != port) continue;
                if (p->from_text || std::holds_alternative<std::string>(p->value)) return {};
                const std::string kind = std::holds_alternative<bool>(p->value) ? "bool"
                                         : std::holds_alternative<std::int64_t>(p->value)
                                             ? "int"
                                             : "double";
                if (found.empty() || found == kind) {
                    found = kind;
                } else if ((found == "int" && kind == "double") ||
                           (found == "double" && kind == "int")) {
                    found = "double";
                } else {
                    return {};
                }
            }
        }
    }
    return found;
}

// The models of the types lenient loading learned that the document's trees use, each with
// every port any use in any file of the load gives (a model of the file's own kept, with what
// it leaves out added): so that a writer declares every port, and a file converted and read
// back with the files it names learns the same types.
void add_learned_models(tree_document& document, const registry& learned) {
    for (const node_type& type : learned.types()) {
        const bool used = std::any_of(
            document.trees.begin(), document.trees.end(), [&](const record_set& records) {
                for (std::size_t i = 0; i < records.size(); ++i) {
                    if (!records.has_type_id(i) && records.type_name(i) == type.name) return true;
                }
                return false;
            });
        if (!used) continue;
        auto model = std::find_if(document.models.begin(), document.models.end(),
                                  [&](const node_model& m) { return m.name == type.name; });
        if (model == document.models.end()) {
            node_model made;
            made.name = type.name;
            made.shape = type.arity;
            document.models.push_back(std::move(made));
            model = document.models.end() - 1;
        }
        for (const param_spec& spec : type.params) {
            auto listed = std::find_if(model->ports.begin(), model->ports.end(),
                                       [&](const port_model& p) { return p.name == spec.name; });
            if (listed == model->ports.end()) {
                port_model port;
                port.name = spec.name;
                if (spec.default_value)
                    port.default_value = detail::attribute_text(*spec.default_value);
                model->ports.push_back(std::move(port));
                listed = model->ports.end() - 1;
            }
            if (listed->type.empty()) listed->type = type_of_uses(document, type.name, spec.name);
        }
    }
}

}  // namespace

document_load_result try_load_document(const std::filesystem::path& path, const registry& reg,
                                       const load_options& options) {
    loader load(reg, options);
    document_load_result result;
    std::optional<std::size_t> f = load.files().open(path, options.format);
    if (f) {
        load.prepare();
        const std::size_t trees = load.files().file(*f).document.trees.size();
        // A project (its includes hold its trees) converts without a main tree; a file of
        // no tree is refused, saying why.
        const tree_document& opened = load.files().file(*f).document;
        if (trees == 0 && (opened.includes.empty() || !opened.main_tree.empty())) load.choose(*f);
        std::vector<std::shared_ptr<const tree>> built;
        for (std::size_t t = 0; t < trees; ++t) built.push_back(load.build({*f, t}, false));
        name_subtree_files(load.files(), *f, options.relative_to);
        result.document = std::move(load.files().file(*f).document);
        for (std::size_t t = 0; t < trees; ++t) {
            record_set& records = result.document.trees[t];
            records = with_registered_names(records, reg, load.overlay(), built[t].get(),
                                            result.document.implicit_keys);
        }
        add_learned_models(result.document, load.overlay());
        // The learned types that take the place of a registered one (load/foreign_types).
        for (const node_type& learned : load.overlay().types()) {
            if (reg.find(learned.name) != nullptr)
                result.document.foreign_namesakes.push_back(learned.name);
        }
    }
    result.diagnostics = load.finish(nullptr).diagnostics;
    return result;
}

}  // namespace canopy
