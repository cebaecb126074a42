// canopy validate: checks tree files and reports every problem; with --watch, again each time
// a file, or a file it uses, is saved.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "canopy/load/load.hpp"
#include "canopy/reload/file_watcher.hpp"
#include "canopy/run/tree.hpp"
#include "commands.hpp"

namespace canopy::cli {
namespace {

namespace fs = std::filesystem;

// Under --verbose, what a tree needs from the program that runs it: the names its
// BehaviorTree.CPP scripts read that the program provides, and the node types the file
// declares itself (learned by --lenient), which have no behaviour here.
void print_needs(const std::string& name, const tree& t) {
    std::string provided;
    for (const blackboard_key& key : t.keys()) {
        if (key.provided) provided += (provided.empty() ? "" : ", ") + key.name;
    }
    std::string own;
    std::vector<std::string_view> seen;
    for (tree::index i = 0; i < t.size(); ++i) {
        const std::string_view type = t.type_name(i);
        if (t.object(i) != nullptr || std::find(seen.begin(), seen.end(), type) != seen.end())
            continue;
        seen.push_back(type);
        own += (own.empty() ? "" : ", ") + std::string(type);
    }
    if (!provided.empty())
        std::cout << "  " << name << ": keys the program provides: " << provided << '\n';
    if (!own.empty())
        std::cout << "  " << name << ": the file's own node types, without behaviour here: " << own
                  << '\n';
}

// Checks every tree of one file, or the one --tree names; prints its problems on stderr or
// "FILE: ok (...)" on stdout.
bool validate(const std::string& file, const load_options& options, bool verbose) {
    const std::string path = input_path(file, options);
    file_load_result loaded;
    if (options.tree.empty()) {
        loaded = try_load_every_tree(path, cli_registry(), options);
    } else {
        load_result one = try_load_file(path, cli_registry(), options);
        loaded.diagnostics = std::move(one.diagnostics);
        if (one) loaded.trees.emplace_back(options.tree, std::move(one.tree));
    }
    print_diagnostics(loaded.diagnostics);
    if (!loaded) return false;
    if (loaded.trees.empty()) {
        // Every refusal carries a diagnostic; should one come without, say so, not "ok".
        std::cerr << input_name(file)
                  << ": error: no tree was loaded and no problem was reported (a bug in Canopy)\n";
        return false;
    }
    auto nodes = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " node" : " nodes"); };
    std::cout << input_name(file) << ": ok (";
    if (!options.tree.empty()) {
        std::cout << options.tree << " " << nodes(loaded.trees[0].second->size());
    } else if (loaded.trees.size() == 1) {
        std::cout << nodes(loaded.trees[0].second->size());
    } else {
        std::cout << loaded.trees.size() << " trees: ";
        for (std::size_t t = 0; t < loaded.trees.size(); ++t) {
            std::cout << (t == 0 ? "" : ", ") << loaded.trees[t].first << " "
                      << nodes(loaded.trees[t].second->size());
        }
    }
    std::cout << ")\n";
    if (verbose) {
        for (const auto& [name, t] : loaded.trees) print_needs(name, *t);
    }
    std::cout.flush();  // in order with the problems of the next file, on stderr
    return true;
}

// One file of the command line under --watch: the files its check read, and its result.
struct watched_file {
    std::string name;
    std::vector<fs::path> files;
    std::vector<fs::path> pending;  // changed, not yet checked again
    bool valid = false;
};

// Validates the file and notes the files it reads: itself, its includes, its main tree's
// subtree files (loading its main tree lists them; a file of several trees and no main one
// lists its includes).
void check(watched_file& w, const load_options& options) {
    w.valid = validate(w.name, options, false);
    std::cout.flush();
    w.files.clear();
    try_load_file(w.name, cli_registry(), options, w.files);
    std::error_code ec;
    fs::path self = fs::weakly_canonical(w.name, ec);
    if (ec) self = fs::absolute(w.name, ec).lexically_normal();
    if (std::find(w.files.begin(), w.files.end(), self) == w.files.end()) w.files.push_back(self);
}

std::vector<fs::path> all_files(const std::vector<watched_file>& watched) {
    std::vector<fs::path> files;
    for (const watched_file& w : watched) files.insert(files.end(), w.files.begin(), w.files.end());
    return files;
}

// Checks the files, then again each time one changes and settles, until Ctrl-C or SIGTERM;
// 0 if every file is valid at the end.
int validate_watching(const std::vector<std::string>& names, const load_options& options) {
    stop_on_signals();
    std::vector<watched_file> watched;
    for (const std::string& name : names) {
        watched.push_back({name, {}, {}, false});
        check(watched.back(), options);
    }
    file_watcher watcher;
    watcher.watch(all_files(watched));
    const auto interval = std::chrono::milliseconds(250);
    while (!stop_requested()) {
        const auto next_poll = std::chrono::steady_clock::now() + interval;
        while (!stop_requested() && std::chrono::steady_clock::now() < next_poll)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (stop_requested()) break;
        const auto changes = watcher.poll();
        bool checked = false;
        for (watched_file& w : watched) {
            for (const auto& change : changes) {
                if (std::find(w.files.begin(), w.files.end(), change.first) != w.files.end() &&
                    std::find(w.pending.begin(), w.pending.end(), change.first) == w.pending.end())
                    w.pending.push_back(change.first);
            }
            const bool settled = std::all_of(w.files.begin(), w.files.end(),
                                             [&](const fs::path& f) { return watcher.settled(f); });
            if (w.pending.empty() || !settled) continue;
            w.pending.clear();
            check(w, options);
            checked = true;
        }
        if (checked) watcher.watch(all_files(watched));
    }
    const bool all_valid =
        std::all_of(watched.begin(), watched.end(), [](const watched_file& w) { return w.valid; });
    return all_valid ? 0 : 1;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
    auto* command =
        app.add_subcommand("validate", "Check tree files and report every problem in each");
    auto files = std::make_shared<std::vector<std::string>>();
    auto options = std::make_shared<load_options>();
    auto watch = std::make_shared<bool>(false);
    auto verbose = std::make_shared<bool>(false);
    command->add_option("FILE", *files, "Tree files (see docs/formats.md); - reads standard input")
        ->required();
    add_reading_options(*command, *options);
    command->add_flag("--watch", *watch,
                      "Check each file again each time it, or a file it uses, is saved, until "
                      "Ctrl-C or SIGTERM (see docs/hot_reload.md)");
    command->add_flag("--verbose", *verbose,
                      "After each valid tree, list what it needs from the program that runs it: "
                      "the keys its BehaviorTree.CPP scripts read that the program provides, and "
                      "the file's own node types (--lenient)");
    command->footer(
        "Checks every tree of each file, used or not (with --tree: that tree). Prints 'FILE: ok (N "
        "nodes)' for each "
        "valid file (with the trees' names and sizes where it holds several) and "
        "path:line:col: error: ... on stderr for each problem; exits 1 if any file is invalid "
        "(with --watch: at the end).");
    command->callback([files, options, watch, verbose, &exit_code] {
        if (*watch) {
            if (std::find(files->begin(), files->end(), "-") != files->end()) {
                throw CLI::ValidationError("--watch", "standard input ('-') cannot be watched");
            }
            exit_code = validate_watching(*files, *options);
            return;
        }
        exit_code = 0;
        for (const std::string& file : *files) {
            if (!validate(file, *options, *verbose)) exit_code = 1;
        }
    });
}

}  // namespace canopy::cli
