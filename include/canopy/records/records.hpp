#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "canopy/core/param.hpp"
#include "canopy/core/source_location.hpp"

namespace canopy {

/// The parameters that give a record BehaviorTree.CPP's pre-conditions (checked before the
/// node ticks, in this order) and post-conditions (run after it finishes or is halted): scripts
/// on any node, whatever its type (docs/scripting.md). A record carries them as parameters of
/// these names; the builder compiles them rather than checking them against the type.
inline constexpr std::string_view condition_params[] = {
    "_failureIf", "_successIf", "_skipIf",   "_while",  // pre
    "_onSuccess", "_onFailure", "_onHalted", "_post",   // post
};
/// How many of condition_params are pre-conditions (the first ones).
inline constexpr std::size_t pre_condition_count = 4;

/// Whether a parameter's name is one of condition_params.
constexpr bool is_condition_param(std::string_view name) noexcept {
    bool found = false;
    for (std::string_view condition : condition_params) found = found || name == condition;
    return found;
}

/// The flat records a tree file describes, in file order, before any validation: one per node,
/// naming its parent, as a flat editor export lists them. Readers fill one from a file; a program
/// may fill one by hand and pass it to build_tree(). Storage is compact (strings live in shared
/// arenas) because a file may hold millions of records.
class record_set {
public:
    /// A record's parameter as the file wrote it. Values read from XML attributes are text
    /// that the builder converts to the declared type (`from_text`); JSON values are typed.
    /// A reader that translates a parameter to Canopy's (BehaviorTree.CPP's `msec="100"` to
    /// `seconds` 0.1) keeps the file's words with write_as(), which printing and diagnostics
    /// speak.
    struct raw_param {
        // A constructor rather than an aggregate, so that the rest may be left out.
        raw_param(std::string name_ = {}, param_value value_ = {}, source_location where_ = {},
                  bool from_text_ = false)
            : name(std::move(name_)),
              value(std::move(value_)),
              where(where_),
              from_text(from_text_) {}

        /// What the file wrote where a reader translated it: a name (empty: `name`) and a
        /// value (none: `value`). Shared, and absent for most parameters, so that copying a
        /// parameter costs no more for it.
        struct words {
            std::string name;
            std::optional<param_value> value;
        };

        std::string name;
        param_value value;
        source_location where;
        bool from_text = false;
        /// Added by a reader or the loader, not written in the file (behavior3's subtrees'
        /// `_autoremap`): never shown as the file's.
        bool unwritten = false;
        /// For a `"{key}"` value: what the key's value is multiplied by to give the
        /// parameter's (param::key_scale): a reader's unit conversion, 0.001 for a file's
        /// milliseconds read into seconds.
        double key_scale = 1;
        std::shared_ptr<const words> written;

        /// Says the file wrote the parameter as `written_name` (empty: as `name`) with
        /// `written_value` (none: `value`).
        void write_as(std::string written_name, std::optional<param_value> written_value = {}) {
            written = std::make_shared<const words>(
                words{std::move(written_name), std::move(written_value)});
        }
        std::string_view name_as_written() const noexcept {
            return written && !written->name.empty() ? std::string_view(written->name)
                                                     : std::string_view(name);
        }
        const param_value& value_as_written() const noexcept {
            return written && written->value ? *written->value : value;
        }
    };

    /// A blackboard key the file declares, as written; the builder checks the type's name
    /// (integer, number, boolean or string) and converts the initial value to it.
    struct key_declaration {
        std::string name;
        std::string type;
        std::optional<raw_param> initial;  ///< its name is the key's
        source_location where;
        /// A key a BehaviorTree.CPP tree makes, which holds no value until written, and
        /// (made_by_script) one a script's `:=` makes: what the subtree expander carries over
        /// from each tree's own keys (blackboard_key::starts_unset, made_by_script).
        bool starts_unset = false;
        bool made_by_script = false;
        /// A key the file does not declare, which its uses make where its format makes keys
        /// on first use (tree_document::implicit_keys), declared by try_load_document for
        /// formats whose keys are declared: a writer whose format (or rules) makes keys on
        /// first use leaves it out.
        bool implicit = false;
    };

    /// An editor's note on a record or on the whole tree, as written: meaningless to the
    /// builder and to running, kept so that a writer that can say it writes it back and a
    /// viewer shows it. BehaviorTree.CPP XML attributes that start with '_' and are not
    /// BehaviorTree.CPP's own (MoveIt Pro's `_collapsed`, `_favorite`, `_description`) are
    /// such notes. See docs/formats.md ("Editor metadata").
    struct metadata_entry {
        std::string name;  ///< as written, the leading '_' included
        std::string value;
    };

    /// What the reader could not read in a record. A problem it has already reported, so the
    /// builder does not report what follows from it a second time.
    enum problem : std::uint8_t {
        bad_id = 1,      ///< id missing or unreadable
        bad_parent = 2,  ///< parentId unreadable
        bad_type = 4,    ///< type missing or unreadable
    };

    /// Appends a record naming its type by name and returns its index.
    std::size_t add(std::int64_t id, std::int64_t parent_id, std::string_view type_name,
                    std::string_view describe = {}, source_location where = {});
    /// Appends a record naming its type by numeric id and returns its index.
    std::size_t add_with_type_id(std::int64_t id, std::int64_t parent_id, std::int64_t type_id,
                                 std::string_view describe = {}, source_location where = {});
    /// Appends a parameter to the last record added.
    void add_param(std::string name, param_value value, source_location where = {},
                   bool from_text = false);
    /// Appends a parameter to the last record added, with its written words (a copy).
    void add_param(raw_param param);
    /// Names the last record's type as the file wrote it, where a reader translated it
    /// (BehaviorTree.CPP's `Sleep` read as Canopy's `Wait`).
    void set_written_type(std::string_view name);
    /// Makes record i name its type `type_name`, keeping how the file wrote its type (a node a
    /// substitution rule replaces keeps its words).
    void retype(std::size_t i, std::string_view type_name);
    /// Gives the last record added the text written_params() returns for it, in place of its
    /// own parameters' (the loader's SubTree records, which hold what the file's remappings
    /// became rather than the remappings).
    void set_written_params(std::string text);
    /// Appends parameters as written_params() shows them.
    static void append_written(std::string& out, const raw_param* first, const raw_param* last);
    /// Gives the last record added the written type of record i of `from`.
    void copy_written_type(const record_set& from, std::size_t i) {
        set_written_type(from.written_type(i));
    }
    /// Makes room for `records` records and `text_bytes` of describe text.
    void reserve(std::size_t records, std::size_t text_bytes) {
        records_.reserve(records);
        text_.reserve(text_bytes);
    }
    /// Appends an editor's note to the last record added.
    void add_metadata(std::string name, std::string value);
    /// Appends to the last record added the notes of record i of `from`.
    void copy_metadata(const record_set& from, std::size_t i);
    /// Record i's editor notes, in file order: [first, second).
    std::pair<const metadata_entry*, const metadata_entry*> metadata(std::size_t i) const;
    /// The notes on the tree itself (on BehaviorTree.CPP's `<BehaviorTree>`), in file order.
    const std::vector<metadata_entry>& tree_metadata() const noexcept { return tree_metadata_; }
    void add_tree_metadata(std::string name, std::string value) {
        tree_metadata_.push_back({std::move(name), std::move(value)});
    }
    void set_tree_metadata(std::vector<metadata_entry> notes) { tree_metadata_ = std::move(notes); }
    /// Marks what a reader failed to read in the last record added (a bitwise or of problem).
    void mark_problem(std::uint8_t problems);

    std::size_t size() const noexcept { return records_.size(); }
    bool empty() const noexcept { return records_.empty(); }

    std::int64_t id(std::size_t i) const { return records_[i].id; }
    /// 0 for a root.
    std::int64_t parent_id(std::size_t i) const { return records_[i].parent_id; }
    /// Whether the record names its type by numeric id rather than by name.
    bool has_type_id(std::size_t i) const { return records_[i].type_name == by_type_id; }
    std::string_view type_name(std::size_t i) const;
    /// The type's name as the file wrote it: type_name(i) unless set_written_type said
    /// otherwise; empty for a record that names its type by id.
    std::string_view written_type(std::size_t i) const;
    /// Once drop_params() ran: the record's parameters as the file wrote them, each as
    /// ` name=value` with the value as JSON (XML attributes are strings), in file order, those
    /// not written (raw_param::unwritten) left out. Empty before.
    std::string_view written_params(std::size_t i) const;
    std::int64_t type_id(std::size_t i) const { return records_[i].type_id; }
    std::string_view describe(std::size_t i) const;
    source_location where(std::size_t i) const { return records_[i].where; }
    std::uint8_t problems(std::size_t i) const { return records_[i].problems; }
    const raw_param* params_begin(std::size_t i) const;
    const raw_param* params_end(std::size_t i) const;
    /// The text of record i's parameter `name`; null when it has none or its value is not
    /// text. The string lives as long as the record's parameters.
    const std::string* text_param(std::size_t i, std::string_view name) const;
    /// Record i's parameters, to rename or change in place before the builder reads them (a
    /// loader giving a positional name its parameter's): [first, second).
    std::pair<raw_param*, raw_param*> params_to_change(std::size_t i);

    /// The distinct type names records use; type_name_index() indexes into it.
    const std::vector<std::string>& type_names() const noexcept { return type_names_; }
    /// The index of a record's type name in type_names(); only when !has_type_id(i).
    std::uint32_t type_name_index(std::size_t i) const { return records_[i].type_name; }

    /// Adds a blackboard key the file declares.
    void declare_key(key_declaration key) { keys_.push_back(std::move(key)); }
    const std::vector<key_declaration>& declared_keys() const noexcept { return keys_; }
    /// What a use of this tree as a subtree gets for a port it does not remap: a literal
    /// value or a "{key}" of the user's (a BehaviorTree.CPP <SubTree> model's defaults).
    void add_port_default(raw_param port) { port_defaults_.push_back(std::move(port)); }
    const std::vector<raw_param>& port_defaults() const noexcept { return port_defaults_; }
    /// Gives the declared key `name` another type (its initial value stays, as text).
    void retype_key(std::string_view name, const std::string& type) {
        for (key_declaration& key : keys_) {
            if (key.name == name) key.type = type;
        }
    }
    /// Copies `other`'s key declarations and port defaults, for a copy of its records.
    void copy_declarations(const record_set& other) {
        keys_ = other.keys_;
        port_defaults_ = other.port_defaults_;
    }

    /// The tree's name, if the file gives one.
    const std::string& name() const noexcept { return name_; }
    void set_name(std::string name) { name_ = std::move(name); }

    /// The least and the greatest record id (0 and 0 when empty), kept as records arrive so
    /// that the builder need not pass over the records to learn them.
    std::int64_t min_id() const noexcept { return min_id_; }
    std::int64_t max_id() const noexcept { return max_id_; }
    /// Whether a reader marked a problem in any record (mark_problem).
    bool any_problems() const noexcept { return any_problems_; }
    /// Frees the parameters as written, once the builder holds them checked: a built tree
    /// keeps the records for their ids, describe texts, locations and the text of their
    /// parameters as written (written_params) only.
    void drop_params();

private:
    static constexpr std::uint32_t by_type_id = 0xFFFFFFFF;

    struct record {
        std::int64_t id;
        std::int64_t parent_id;
        std::int64_t type_id;
        std::uint64_t describe_offset;
        std::uint32_t describe_size;
        std::uint32_t type_name;  // index into type_names_, or by_type_id
        // Into params_; once drop_params ran, the written parameters' text in written_text_.
        std::uint32_t first_param;
        std::uint32_t param_count;
        source_location where;
        std::uint32_t written_type;  // index into type_names_, or by_type_id
        std::uint8_t problems;
    };
    static_assert(sizeof(record) <= 64, "a record stays within a cache line");

    std::size_t push(std::int64_t id, std::int64_t parent_id, std::uint32_t type_name,
                     std::int64_t type_id, std::string_view describe, source_location where);
    std::uint32_t intern_type_name(std::string_view name);

    std::vector<record> records_;
    std::string text_;          // every describe, back to back
    std::string written_text_;  // every record's written parameters, once drop_params ran
    std::vector<raw_param> params_;
    std::vector<std::string> type_names_;
    std::unordered_map<std::string, std::uint32_t> type_name_indexes_;
    std::string lookup_key_;  // reused so that interning a known name allocates nothing
    std::uint32_t last_type_name_ = 0;
    std::int64_t min_id_ = 0;
    std::int64_t max_id_ = 0;
    bool any_problems_ = false;
    bool dropped_ = false;  // drop_params ran: first_param and param_count say written_text_
    std::string name_;
    std::vector<key_declaration> keys_;
    std::vector<raw_param> port_defaults_;
    // Rare, so kept apart from the records: the notes in record order, and each one's record.
    std::vector<metadata_entry> metadata_;
    std::vector<std::size_t> metadata_records_;
    std::vector<metadata_entry> tree_metadata_;
    std::vector<std::pair<std::size_t, std::string>> written_params_;  // set_written_params
};

}  // namespace canopy
