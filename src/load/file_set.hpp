#pragma once
// The files one load reads: the file asked for, the files it includes and the files its
// subtrees name, each read once, with an index of the trees they hold.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/formats/format.hpp"
#include "canopy/records/document.hpp"
#include "canopy/run/registry.hpp"
#include "load/stream_probe.hpp"

namespace canopy::detail {

/// One file a load read.
struct loaded_file {
    std::string name;                ///< as diagnostics name it
    std::filesystem::path location;  ///< where relative paths in it start from
    tree_document document;
    std::vector<std::size_t> includes;  ///< the files it includes, as indexes
    file_format format = file_format::flat_json;
    /// The overrides it was read with (file_set::open_changed), as one text; empty for the
    /// file as it is.
    std::string changed_by;
    /// The file that first led the load to this one, and where: an include, or a subtree
    /// naming it as its file; none for the files the load was asked for.
    std::optional<std::size_t> referrer;
    source_location referred_at;
    bool included = false;  ///< by an include, not a subtree's file
};

/// A tree of a file in a file_set.
struct tree_ref {
    std::size_t file = 0;
    std::size_t tree = 0;
    friend bool operator==(tree_ref a, tree_ref b) { return a.file == b.file && a.tree == b.tree; }
};

class file_set {
public:
    /// Problems go to `out`, each naming the file it is in. A record whose type `reg` does not
    /// know but which names a tree of its file or the files it includes is a use of that
    /// tree: it becomes a `SubTree` record (BehaviorTree.CPP's `<MyTree/>` for
    /// `<SubTree ID="MyTree"/>`).
    /// Files over `max_file_bytes` are refused (load_options::max_file_bytes).
    file_set(const registry& reg, std::vector<diagnostic>& out,
             std::uint64_t max_file_bytes = std::uint64_t{1} << 30)
        : registry_(reg), out_(out), max_file_bytes_(max_file_bytes) {}

    /// Reads these files from memory rather than from disk (load_options::files_in_memory);
    /// they need not exist. The map must outlive the set.
    void read_from_memory(const std::map<std::filesystem::path, std::string>& files);

    /// Reads a file and, transitively, the files it includes; returns its index, or nothing
    /// when it cannot be read as a whole (the reasons are reported). A file read before is
    /// not read again.
    std::optional<std::size_t> open(const std::filesystem::path& path,
                                    std::optional<file_format> format = std::nullopt);
    /// A file as a tree that uses it as a subtree changes it (tree_document::overrides, in the
    /// order they apply): read again with those of `changes` that name a uuid of its nodes, or,
    /// where none does, the file as open() reads it.
    std::optional<std::size_t> open_changed(const std::filesystem::path& path,
                                            const std::vector<subtree_override>& changes);
    /// The same for text in memory, named `name`, whose relative paths start at the working
    /// directory.
    std::optional<std::size_t> open_text(std::string_view text, file_format format,
                                         const std::string& name);

    /// Makes each record of the files read so far whose type names a tree of any of them a
    /// use of that tree, as open() does within the files one open reads: for files read as
    /// one program (load_options::registered_files).
    void mark_every_tree_use() {
        for (std::size_t f = 0; f < files_.size(); ++f) mark_tree_uses(f);
    }

    /// Opens, transitively, every file that the subtrees of the files read so far name.
    void open_subtree_files();

    const loaded_file& file(std::size_t i) const { return files_[i]; }
    loaded_file& file(std::size_t i) { return files_[i]; }
    std::size_t size() const noexcept { return files_.size(); }
    /// Whether the reader found nothing wrong in file i.
    bool clean(std::size_t i) const { return clean_[i]; }

    /// The tree of that name in a file or, failing that, in the files it includes, nearest
    /// first, or else in any file of the load (the files of one project see each other's).
    std::optional<tree_ref> find_tree(std::size_t file, std::string_view name) const;

    /// The file a subtree's `file` parameter in file `from` names, resolved as the document
    /// says (tree_document::path_base); empty when it names nothing that exists, and then the
    /// place it would be first looked for is among files_met(), for a watcher to see it come.
    std::filesystem::path resolve(std::size_t from, const std::string& path);

    /// Every file read or looked for, as absolute, normalised paths.
    std::vector<std::filesystem::path> files_met() const {
        std::vector<std::filesystem::path> met;
        for (std::size_t f = 0; f < files_.size(); ++f) {
            if (files_[f].changed_by.empty()) met.push_back(canonical_[f]);
        }
        met.insert(met.end(), failed_.begin(), failed_.end());
        met.insert(met.end(), missing_.begin(), missing_.end());
        return met;
    }

    /// Adds to each diagnostic in a file that another file led the load to the notes that
    /// say where: the include (or the subtree naming it), then where the file holding that
    /// is, up to a file the load was asked for.
    void add_referrer_notes(std::vector<diagnostic>& diagnostics) const;

    /// The diagnostic reported last, to add to it.
    diagnostic& last_reported() { return out_.back(); }

    /// Where to report a problem in file i.
    void report(std::size_t file, source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record = std::nullopt,
                diagnostic_severity severity = diagnostic_severity::error);

private:
    std::optional<std::size_t> add(const std::filesystem::path& path, const std::string& name,
                                   std::string_view text, file_format format,
                                   const std::vector<subtree_override>& changes = {});
    std::optional<std::size_t> read(const std::filesystem::path& path, const std::string& name,
                                    std::optional<std::size_t> from, source_location where,
                                    std::optional<file_format> format = std::nullopt);
    void open_includes(std::size_t first);
    void refer(std::size_t file, std::size_t from, source_location where, bool included);
    void mark_tree_uses(std::size_t file);

    const registry& registry_;
    std::vector<diagnostic>& out_;
    std::uint64_t max_file_bytes_;
    std::vector<loaded_file> files_;
    std::vector<std::filesystem::path> canonical_;  // per file, to read each once
    std::vector<bool> clean_;
    std::vector<std::filesystem::path> failed_;   // reported once
    std::vector<std::filesystem::path> missing_;  // subtree files named but not found
    // read_from_memory's files, by their canonical paths.
    std::map<std::filesystem::path, const std::string*> in_memory_;

    // The text of a file in memory, or null.
    const std::string* in_memory(const std::filesystem::path& path) const;
    bool is_file(const std::filesystem::path& path) const;
    std::optional<std::string> read_text(const std::filesystem::path& path, std::string& problem,
                                         bool& too_large, text_syntax syntax) const;
};

/// Reads a whole file; on failure returns nothing and says why in `problem`. A file of more
/// than `max_bytes` bytes (by its size, or by reading, for a device or pipe) is not read on:
/// it gives nothing and sets `too_large`. A device or pipe is read only until what it gave
/// is refused whatever follows (load/stream_probe.hpp), in the syntax its format has.
std::optional<std::string> read_whole_file(const std::filesystem::path& path, std::string& problem,
                                           std::uint64_t max_bytes, bool& too_large,
                                           text_syntax syntax);

/// Reads what is left of an open file: `size` bytes, as its size said, or, for a stream without
/// one (a pipe, a device, standard input), until its end, the limit, or what it gave is refused
/// whatever follows, as read_whole_file() does.
std::optional<std::string> read_all(std::FILE* file, std::optional<std::uint64_t> size,
                                    std::string& problem, std::uint64_t max_bytes, bool& too_large,
                                    text_syntax syntax);

/// Why a file or text over the size limit is refused.
std::string too_large_message(std::uint64_t max_bytes);

}  // namespace canopy::detail
