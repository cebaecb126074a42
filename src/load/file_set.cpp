#include "load/file_set.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/diagnostic_sink.hpp"
#include "load/stream_probe.hpp"
#include "load/subtree_node.hpp"

namespace canopy::detail {
namespace {

namespace fs = std::filesystem;

// "expected .json (flat JSON or behavior3), .xml (...)": each extension once.
std::string known_extensions() {
    std::vector<std::pair<std::string, std::string>> known;
    for (const format_info& row : formats()) {
        for (std::string_view extension : row.extensions) {
            auto same = std::find_if(known.begin(), known.end(),
                                     [&](const auto& k) { return k.first == extension; });
            if (same == known.end()) {
                known.emplace_back(std::string(extension), std::string(row.name));
            } else {
                same->second += " or " + std::string(row.name);
            }
        }
    }
    std::string text;
    for (const auto& [extension, names] : known) {
        if (!text.empty()) text += ", ";
        text.append(extension).append(" (").append(names).append(")");
    }
    return text;
}

fs::path canonical_or_absolute(const fs::path& path) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    return ec ? fs::absolute(path, ec).lexically_normal() : canonical;
}

bool exists_as_file(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

bool holds_workspace_file(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator entry(folder, ec), end; !ec && entry != end; entry.increment(ec)) {
        if (entry->path().extension() == ".b3-workspace") return true;
    }
    return false;
}

}  // namespace

// Reads a whole file straight into the string that will hold it: one copy from the page
// cache. The size is a hint only; a file that grows or shrinks meanwhile is read as it is.
std::string too_large_message(std::uint64_t max_bytes) {
    return "the file is larger than " + std::to_string(max_bytes) +
           " bytes, the limit load_options::max_file_bytes sets; raise it to load the file";
}

std::optional<std::string> read_whole_file(const fs::path& path, std::string& problem,
                                           std::uint64_t max_bytes, bool& too_large,
                                           text_syntax syntax) {
    too_large = false;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        problem = "cannot read: it is a directory";
        return std::nullopt;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) {
        problem = std::string("cannot open: ") + std::strerror(errno);
        return std::nullopt;
    }
    std::uintmax_t expected = fs::file_size(path, ec);
    if (!ec && expected > max_bytes) {
        too_large = true;
        problem = too_large_message(max_bytes);
        return std::nullopt;
    }
    const bool stream = ec || !fs::is_regular_file(path, ec);
    return read_all(file.get(), stream ? std::nullopt : std::optional<std::uint64_t>(expected),
                    problem, max_bytes, too_large, syntax);
}

std::optional<std::string> read_all(std::FILE* file, std::optional<std::uint64_t> size,
                                    std::string& problem, std::uint64_t max_bytes, bool& too_large,
                                    text_syntax syntax) {
    too_large = false;
    std::string text;
    text.resize(size ? static_cast<std::size_t>(*size) + 1 : 0);  // +1 to see the end
    std::size_t read = 0;
    std::size_t next_probe = 1 << 16;  // doubling: probing costs at most twice the reading
    for (;;) {
        if (read == text.size()) text.resize(std::max<std::size_t>(2 * read, 1 << 16));
        std::size_t got = std::fread(text.data() + read, 1, text.size() - read, file);
        read += got;
        if (got == 0) break;
        if (!size && read >= next_probe) {
            next_probe = 2 * read;
            if (prefix_is_refused({text.data(), read}, syntax)) break;
        }
        // A device or pipe has no size to check first: stop reading once past the limit.
        if (read > max_bytes) {
            too_large = true;
            problem = too_large_message(max_bytes);
            return std::nullopt;
        }
    }
    if (std::ferror(file) != 0) {
        problem = std::string("cannot read: ") + std::strerror(errno);
        return std::nullopt;
    }
    text.resize(read);
    return text;
}

void file_set::report(std::size_t file, source_location where, diagnostic_code code,
                      std::string message, std::optional<std::int64_t> record,
                      diagnostic_severity severity) {
    out_.push_back({files_[file].name, where, record, code, std::move(message), severity});
}

std::optional<std::size_t> file_set::open(const fs::path& path, std::optional<file_format> format) {
    const std::size_t before = files_.size();
    std::optional<std::size_t> first = read(path, path.string(), std::nullopt, {}, format);
    if (first && *first >= before) open_includes(*first);
    return first;
}

std::optional<std::size_t> file_set::open_text(std::string_view text, file_format format,
                                               const std::string& name) {
    if (text.size() > max_file_bytes_) {
        out_.push_back({name,
                        {},
                        std::nullopt,
                        diagnostic_code::limit_exceeded,
                        too_large_message(max_file_bytes_)});
        return std::nullopt;
    }
    std::optional<std::size_t> first = add(fs::path(name), name, text, format);
    if (first) open_includes(*first);
    return first;
}

std::optional<std::size_t> file_set::open_changed(const fs::path& path,
                                                  const std::vector<subtree_override>& changes) {
    const std::optional<std::size_t> plain = open(path);
    if (!plain || changes.empty() || info(files_[*plain].format).read_overridden == nullptr)
        return plain;
    std::string problem;
    bool too_large = false;
    std::optional<std::string> text =
        read_text(path, problem, too_large, syntax_of(files_[*plain].format));
    if (!text) return plain;  // it read a moment ago; changed since, it is reloaded anyway
    // The changes whose uuid the text holds (a disabled node's too, which an override may
    // put back); where none does, the file is used as it is.
    std::vector<subtree_override> relevant;
    std::string key;
    for (const subtree_override& change : changes) {
        if (text->find('"' + change.node + '"') == std::string::npos) continue;
        relevant.push_back(change);
        key.append(change.node).append(1, '\0').append(change.patch).append(1, '\0');
    }
    if (relevant.empty()) return plain;
    for (std::size_t f = 0; f < files_.size(); ++f) {
        if (canonical_[f] == canonical_[*plain] && files_[f].changed_by == key) return f;
    }
    const std::size_t before = files_.size();
    std::optional<std::size_t> changed =
        add(path, files_[*plain].name, *text, files_[*plain].format, relevant);
    if (!changed || *changed < before) return changed;
    files_[*changed].changed_by = std::move(key);
    open_includes(*changed);
    return changed;
}

void file_set::refer(std::size_t file, std::size_t from, source_location where, bool included) {
    if (file == from || files_[file].referrer) return;
    // Not by a file it led to itself (two files that include each other).
    for (std::optional<std::size_t> at = from; at; at = files_[*at].referrer) {
        if (*at == file) return;
    }
    files_[file].referrer = from;
    files_[file].referred_at = where;
    files_[file].included = included;
}

void file_set::add_referrer_notes(std::vector<diagnostic>& diagnostics) const {
    for (diagnostic& d : diagnostics) {
        if (!d.notes.empty()) continue;
        auto named = std::find_if(files_.begin(), files_.end(), [&](const loaded_file& file) {
            return file.name == d.path && file.changed_by.empty();
        });
        for (auto at = named; at != files_.end() && at->referrer;) {
            const loaded_file& from = files_[*at->referrer];
            d.notes.push_back(
                {from.name, at->referred_at,
                 "'" + at->name + "' is " +
                     (at->included ? "included here" : "named here as a subtree's file")});
            at = files_.begin() + static_cast<std::ptrdiff_t>(*at->referrer);
        }
    }
}

void file_set::open_subtree_files() {
    for (std::size_t f = 0; f < files_.size(); ++f) {
        std::vector<std::pair<std::string, source_location>> named;
        for (const record_set& records : files_[f].document.trees) {
            const std::vector<std::string>& types = records.type_names();
            if (std::find(types.begin(), types.end(), subtree_type_name) == types.end()) continue;
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (records.type_name(i) != subtree_type_name) continue;
                if (const std::string* file = records.text_param(i, "file"))
                    named.emplace_back(*file, records.where(i));
            }
        }
        for (const auto& [path, where] : named) {
            const fs::path found = resolve(f, path);
            if (found.empty()) continue;
            if (std::optional<std::size_t> opened = open(found)) refer(*opened, f, where, false);
        }
    }
}

// Files from `first` on: all their includes are open, so every tree name they may use is
// known.
void file_set::mark_tree_uses(std::size_t file) {
    for (record_set& records : files_[file].document.trees) {
        // By distinct type name first: a file of a million records has a few dozen.
        std::vector<bool> tree_name(records.type_names().size(), false);
        bool any = false;
        for (std::size_t n = 0; n < tree_name.size(); ++n) {
            const std::string& type = records.type_names()[n];
            tree_name[n] = type != subtree_type_name && registry_.find(type) == nullptr &&
                           find_tree(file, type).has_value();
            any = any || tree_name[n];
        }
        if (!any) continue;
        auto names_tree = [&](std::size_t i) {
            return !records.has_type_id(i) && tree_name[records.type_name_index(i)];
        };
        std::size_t i = 0;
        record_set marked;
        marked.set_name(records.name());
        marked.set_tree_metadata(records.tree_metadata());
        marked.copy_declarations(records);
        for (i = 0; i < records.size(); ++i) {
            if (records.has_type_id(i)) {
                marked.add_with_type_id(records.id(i), records.parent_id(i), records.type_id(i),
                                        records.describe(i), records.where(i));
            } else if (names_tree(i)) {
                marked.add(records.id(i), records.parent_id(i), subtree_type_name,
                           records.describe(i), records.where(i));
                marked.copy_written_type(records, i);
                record_set::raw_param tree{"tree", std::string(records.type_name(i)),
                                           records.where(i)};
                tree.unwritten = true;  // the type's name says it
                marked.add_param(std::move(tree));
            } else {
                marked.add(records.id(i), records.parent_id(i), records.type_name(i),
                           records.describe(i), records.where(i));
                marked.copy_written_type(records, i);
            }
            for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p)
                marked.add_param(*p);
            marked.copy_metadata(records, i);
            marked.mark_problem(records.problems(i));
        }
        records = std::move(marked);
    }
}

// Breadth first, so that no chain of includes, however long, deepens the stack.
void file_set::open_includes(std::size_t first) {
    for (std::size_t i = first; i < files_.size(); ++i) {
        const std::vector<file_reference> references = files_[i].document.includes;
        for (const file_reference& reference : references) {
            const fs::path target = files_[i].location.parent_path() / reference.path;
            std::optional<std::size_t> included =
                read(target, target.lexically_normal().string(), i, reference.where);
            if (included) {
                files_[i].includes.push_back(*included);
                refer(*included, i, reference.where, true);
            }
        }
    }
    for (std::size_t i = first; i < files_.size(); ++i) mark_tree_uses(i);
}

std::optional<std::size_t> file_set::read(const fs::path& path, const std::string& name,
                                          std::optional<std::size_t> from, source_location where,
                                          std::optional<file_format> format) {
    auto fail = [&](diagnostic_code code, std::string message) -> std::optional<std::size_t> {
        if (from) {
            report(*from, where, code, "'" + name + "': " + message);
        } else {
            out_.push_back({name, {}, std::nullopt, code, std::move(message)});
        }
        return std::nullopt;
    };
    const fs::path canonical = canonical_or_absolute(path);
    for (std::size_t f = 0; f < files_.size(); ++f) {
        if (canonical_[f] == canonical && files_[f].changed_by.empty()) return f;
    }
    if (std::find(failed_.begin(), failed_.end(), canonical) != failed_.end()) return std::nullopt;
    failed_.push_back(canonical);  // until it reads
    if (!format && !format_for_path(path)) {
        const std::string extension = path.extension().string();
        return fail(diagnostic_code::unknown_format,
                    (extension.empty() ? std::string("the file has no extension")
                                       : "unknown file extension '" + extension + "'") +
                        "; expected " + known_extensions());
    }
    std::string problem;
    bool too_large = false;
    std::optional<std::string> text =
        read_text(path, problem, too_large, syntax_of(format ? *format : *format_for_path(path)));
    if (!text)
        return fail(too_large ? diagnostic_code::limit_exceeded : diagnostic_code::io_error,
                    problem);
    return add(path, name, *text, format ? *format : *detect_format(path, *text));
}

std::optional<std::size_t> file_set::add(const fs::path& path, const std::string& name,
                                         std::string_view text, file_format format,
                                         const std::vector<subtree_override>& changes) {
    read_result read = changes.empty() ? read_records(text, format, name)
                                       : info(format).read_overridden(text, name, changes);
    diagnostic_sink::sort(read.diagnostics);
    const bool clean = read.complete && !has_errors(read.diagnostics);
    const std::size_t reported = out_.size();
    for (diagnostic& problem : read.diagnostics) {
        // The file read as changed says again what it said as it is: once is enough.
        auto same = [&](const diagnostic& d) {
            return d.path == problem.path && d.where == problem.where && d.code == problem.code &&
                   d.message == problem.message;
        };
        if (!changes.empty() &&
            std::any_of(out_.begin(), out_.begin() + static_cast<std::ptrdiff_t>(reported), same))
            continue;
        out_.push_back(std::move(problem));
    }
    // A problem the reader found (a misspelled key, say) must not pass silently: the file
    // makes no tree, though its problems and those the builder finds are all reported.
    if (!read.complete) return std::nullopt;  // a file that is not well-formed makes nothing
    files_.push_back({name, path, std::move(read.document), {}, format, {}, {}, {}, false});
    canonical_.push_back(canonical_or_absolute(path));
    failed_.erase(std::remove(failed_.begin(), failed_.end(), canonical_.back()), failed_.end());
    clean_.push_back(clean);
    return files_.size() - 1;
}

std::optional<tree_ref> file_set::find_tree(std::size_t file, std::string_view name) const {
    std::vector<std::size_t> queue{file};
    std::vector<bool> queued(files_.size(), false);
    queued[file] = true;
    for (std::size_t at = 0; at < queue.size(); ++at) {
        const std::vector<record_set>& trees = files_[queue[at]].document.trees;
        for (std::size_t t = 0; t < trees.size(); ++t) {
            if (trees[t].name() == name) return tree_ref{queue[at], t};
        }
        for (std::size_t included : files_[queue[at]].includes) {
            if (!queued[included]) {
                queued[included] = true;
                queue.push_back(included);
            }
        }
    }
    // Then every file of the load: a project's files see each other's trees, as
    // BehaviorTree.CPP's factory registers every tree of every file it reads.
    for (std::size_t f = 0; f < files_.size(); ++f) {
        if (queued[f] || !files_[f].changed_by.empty()) continue;
        const std::vector<record_set>& trees = files_[f].document.trees;
        for (std::size_t t = 0; t < trees.size(); ++t) {
            if (trees[t].name() == name) return tree_ref{f, t};
        }
    }
    return std::nullopt;
}

void file_set::read_from_memory(const std::map<fs::path, std::string>& files) {
    for (const auto& [path, text] : files) in_memory_[canonical_or_absolute(path)] = &text;
}

const std::string* file_set::in_memory(const fs::path& path) const {
    if (in_memory_.empty()) return nullptr;
    auto found = in_memory_.find(canonical_or_absolute(path));
    return found == in_memory_.end() ? nullptr : found->second;
}

bool file_set::is_file(const fs::path& path) const {
    return in_memory(path) != nullptr || exists_as_file(path);
}

std::optional<std::string> file_set::read_text(const fs::path& path, std::string& problem,
                                               bool& too_large, text_syntax syntax) const {
    too_large = false;
    if (const std::string* text = in_memory(path)) {
        if (text->size() <= max_file_bytes_) return *text;
        too_large = true;
        problem = too_large_message(max_file_bytes_);
        return std::nullopt;
    }
    return read_whole_file(path, problem, max_file_bytes_, too_large, syntax);
}

fs::path file_set::resolve(std::size_t from, const std::string& path) {
    const fs::path folder = files_[from].location.parent_path();
    auto missing = [&] {
        const fs::path where = canonical_or_absolute(folder / path);
        if (std::find(missing_.begin(), missing_.end(), where) == missing_.end())
            missing_.push_back(where);
        return fs::path();
    };
    if (files_[from].document.subtree_paths == tree_document::path_base::file) {
        return is_file(folder / path) ? folder / path : missing();
    }
    // behavior3editor names subtree files from its workspace root: the folder of the
    // .b3-workspace file, else the nearest folder up from the file where the path exists.
    fs::path nearest;
    for (fs::path at = folder.empty() ? fs::path(".") : folder;;) {
        if (holds_workspace_file(at) && is_file(at / path)) return at / path;
        if (nearest.empty() && is_file(at / path)) nearest = at / path;
        fs::path up = fs::absolute(at).parent_path();
        if (up == fs::absolute(at) || up.empty()) break;
        at = up;
    }
    return nearest.empty() ? missing() : nearest;
}

}  // namespace canopy::detail
