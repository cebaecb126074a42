// The trees of watched files: one handle per file, reloaded when a file it was built from
// changes and settles, kept when the new version does not load.
#include "canopy/reload/tree_library.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "canopy/core/error.hpp"
#include "canopy/reload/file_watcher.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;

// The same spelling of a file as try_load_file's list of the files it read.
fs::path key_of(const fs::path& path) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    return ec ? fs::absolute(path, ec).lexically_normal() : canonical;
}

void add_unique(std::vector<fs::path>& to, const fs::path& file) {
    if (std::find(to.begin(), to.end(), file) == to.end()) to.push_back(file);
}

struct timed_load {
    load_result result;
    std::vector<fs::path> files;
    std::chrono::nanoseconds time{0};
    std::string refusal;
};

}  // namespace

std::string_view to_string(reload_outcome outcome) noexcept {
    switch (outcome) {
        case reload_outcome::reloaded: return "reloaded";
        case reload_outcome::kept_previous: return "kept the previous tree";
        case reload_outcome::deleted: return "deleted";
    }
    return "?";
}

struct tree_library::state {
    struct entry {
        fs::path name;  // as first given to load()
        tree_handle handle;
        std::vector<fs::path> files;    // those its current tree (and any failed reload) read
        std::vector<fs::path> pending;  // changed since its last load, not yet acted on
        bool gone = false;              // its file is deleted, and that has been reported
    };

    state(const registry& r, tree_library_options o) : reg(r), options(std::move(o)) {}

    timed_load load(const fs::path& name) const {
        timed_load loaded;
        const auto start = std::chrono::steady_clock::now();
        loaded.result = try_load_file(name, reg, options.load, loaded.files);
        loaded.time = std::chrono::steady_clock::now() - start;
        if (loaded.result && options.accept) loaded.refusal = options.accept(*loaded.result.tree);
        return loaded;
    }

    // Every file some tree uses: what the watcher must watch.
    std::vector<fs::path> all_files() const {
        std::vector<fs::path> files;
        for (const auto& [key, e] : entries)
            files.insert(files.end(), e.files.begin(), e.files.end());
        return files;
    }

    // Reloads one tree whose files changed and settled; the event says what came of it.
    reload_event reload(const fs::path& key, entry& e) const {
        reload_event event;
        event.path = e.name;
        event.changed = std::move(e.pending);
        e.pending.clear();
        std::error_code ec;
        if (!fs::exists(key, ec)) {
            event.outcome = reload_outcome::deleted;
            event.nodes = e.handle.current()->size();
            event.version = e.handle.version();
            e.gone = true;
            return event;
        }
        e.gone = false;
        timed_load loaded = load(e.name);
        event.load_time = loaded.time;
        add_unique(loaded.files, key);
        if (loaded.result && loaded.refusal.empty()) {
            event.outcome = reload_outcome::reloaded;
            e.handle.publish(loaded.result.tree);
            e.files = std::move(loaded.files);
        } else {
            // Keep watching what the kept tree was built from, and what the failed load
            // looked for (a missing subtree file, once created, is a change).
            event.outcome = reload_outcome::kept_previous;
            event.diagnostics = std::move(loaded.result.diagnostics);
            event.refusal = std::move(loaded.refusal);
            for (const fs::path& file : loaded.files) add_unique(e.files, file);
        }
        event.nodes = e.handle.current()->size();
        event.version = e.handle.version();
        return event;
    }

    const registry& reg;
    const tree_library_options options;

    mutable std::mutex mutex;  // guards everything below
    std::map<fs::path, entry> entries;
    file_watcher watcher;
    std::function<void(const reload_event&)> callback;

    std::mutex watch_mutex;  // guards `stopping`; `watcher_thread` is watch()'s and stop()'s
    std::condition_variable wake;
    bool stopping = false;
    std::thread watcher_thread;
};

tree_library::tree_library(const registry& reg, tree_library_options options)
    : state_(std::make_unique<state>(reg, std::move(options))) {}

tree_library::~tree_library() {
    stop();
}

tree_library::load_result tree_library::try_load(const fs::path& path) {
    const fs::path key = key_of(path);
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto found = state_->entries.find(key);
    if (found != state_->entries.end()) return {found->second.handle, {}, {}};

    // Read the file's state before loading it, so that a save during the load is a change.
    state_->watcher.add({key});
    timed_load loaded = state_->load(path);
    if (!loaded.result || !loaded.refusal.empty()) {
        state_->watcher.watch(state_->all_files());
        if (!loaded.result) return {{}, std::move(loaded.result.diagnostics), {}};
        return {{}, std::move(loaded.result.diagnostics), std::move(loaded.refusal)};
    }
    add_unique(loaded.files, key);
    state_->watcher.add(loaded.files);
    state::entry e{
        path, tree_handle(std::move(loaded.result.tree)), std::move(loaded.files), {}, false};
    tree_handle handle = e.handle;
    state_->entries.emplace(key, std::move(e));
    return {std::move(handle), std::move(loaded.result.diagnostics), {}};
}

tree_handle tree_library::load(const fs::path& path) {
    load_result loaded = try_load(path);
    if (!loaded.refused.empty())
        throw error(error_code::load, path.string() + ": " + loaded.refused);
    if (!loaded.handle) throw load_error(std::move(loaded.diagnostics));
    return std::move(loaded.handle);
}

void tree_library::on_event(std::function<void(const reload_event&)> callback) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->callback = std::move(callback);
}

std::size_t tree_library::poll() {
    std::vector<reload_event> events;
    std::function<void(const reload_event&)> callback;
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        const auto changes = state_->watcher.poll();
        for (auto& [key, e] : state_->entries) {
            for (const auto& [file, what] : changes) {
                if (std::find(e.files.begin(), e.files.end(), file) != e.files.end())
                    add_unique(e.pending, file);
            }
        }
        bool reloaded = false;
        for (auto& [key, e] : state_->entries) {
            if (e.pending.empty()) continue;
            // Wait until no file of the tree is still being written.
            const bool settled = std::all_of(e.files.begin(), e.files.end(), [&](const auto& f) {
                return state_->watcher.settled(f);
            });
            if (!settled) continue;
            const bool was_gone = e.gone;
            reload_event event = state_->reload(key, e);
            reloaded = true;
            // A deleted file is reported once, not again for each change to its subtrees.
            if (event.outcome != reload_outcome::deleted || !was_gone)
                events.push_back(std::move(event));
        }
        if (reloaded) state_->watcher.watch(state_->all_files());
        callback = state_->callback;
    }
    if (callback) {
        for (const reload_event& event : events) callback(event);
    }
    return events.size();
}

void tree_library::watch() {
    watch(state_->options.poll_interval);
}

void tree_library::watch(std::chrono::milliseconds interval) {
    stop();
    state& s = *state_;
    {
        std::lock_guard<std::mutex> lock(s.watch_mutex);
        s.stopping = false;
    }
    s.watcher_thread = std::thread([this, &s, interval] {
        std::unique_lock<std::mutex> lock(s.watch_mutex);
        while (!s.stopping) {
            lock.unlock();
            poll();
            lock.lock();
            s.wake.wait_for(lock, interval, [&s] { return s.stopping; });
        }
    });
}

void tree_library::stop() {
    state& s = *state_;
    if (!s.watcher_thread.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(s.watch_mutex);
        s.stopping = true;
    }
    s.wake.notify_all();
    s.watcher_thread.join();
}

std::size_t tree_library::size() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->entries.size();
}

}  // namespace canopy
