#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/core/fwd.hpp"
#include "canopy/load/load.hpp"
#include "canopy/run/tree_handle.hpp"

namespace canopy {

/// What a tree_library did about a change to a tree's files.
enum class reload_outcome : std::uint8_t {
    reloaded,       ///< a new tree is published: agents move to it at their next tick
    kept_previous,  ///< the files no longer give a tree (see diagnostics) or it was refused
    deleted,        ///< the tree's file is gone: the previous tree stays until it comes back
};

/// "reloaded", "kept the previous tree", "deleted".
std::string_view to_string(reload_outcome outcome) noexcept;

/// One change to a tree of a tree_library and what came of it, for tree_library::on_event.
struct reload_event {
    /// The tree's file, as first given to tree_library::load().
    std::filesystem::path path;
    reload_outcome outcome = reload_outcome::reloaded;
    /// kept_previous: every problem of the new version, located, as try_load_file gives them.
    std::vector<diagnostic> diagnostics;
    /// kept_previous: why tree_library_options::accept refused a tree that loaded; else empty.
    std::string refusal;
    /// The node count of the tree now current: the new one when reloaded, else the kept one.
    std::size_t nodes = 0;
    /// The files whose change set this off (absolute and normalised): the tree's file, or
    /// files it includes or uses as subtrees.
    std::vector<std::filesystem::path> changed;
    /// How long the load took (zero for deleted).
    std::chrono::nanoseconds load_time{0};
    /// The handle's version after the event (tree_handle::version).
    std::uint64_t version = 0;
};

struct tree_library_options {
    /// How every load of the library reads its files (tree_library::load and each reload).
    load_options load;
    /// How often watch() polls, unless it is given an interval. With the settle rule, a save
    /// is in use one to two intervals later.
    std::chrono::milliseconds poll_interval{250};
    /// Checks a tree that loaded before it is used: returns why it must not be (the tree then
    /// counts as not loading: load() throws canopy::error, a reload keeps the previous tree),
    /// or an empty string to accept it. Called on the thread that loads, with the library's lock
    /// held (so it must not call the library); may be empty.
    std::function<std::string(const tree&)> accept;
};

/// The trees of files that change, shared by everyone who loads them, and reloaded when their
/// files change. One handle per file: agents made from it follow each new tree
/// (canopy/run/agent.hpp). A file that no longer loads keeps its previous tree and says why
/// through on_event(). See docs/hot_reload.md.
///
/// Thread-safe: load(), poll() and on_event() may be called from any threads, while other
/// threads tick agents following the library's handles. The registry must outlive the library.
class tree_library {
public:
    explicit tree_library(const registry& reg, tree_library_options options = {});
    /// Stops watch()'s thread, if any. Handles and agents stay valid, on their last tree.
    ~tree_library();
    tree_library(const tree_library&) = delete;
    tree_library& operator=(const tree_library&) = delete;

    /// The handle of a tree file, loading it the first time: every later call for the same
    /// file (by its absolute, normalised path) returns the same handle. Relative paths, here
    /// and in reloads, start from the working directory.
    /// @warning throws load_error, with every problem found, if the file does not load the
    /// first time, and canopy::error if options.accept refuses its tree; the library then
    /// does not watch it.
    tree_handle load(const std::filesystem::path& path);

    /// What try_load gives: the handle, or no handle and why. Warnings come with a handle.
    struct load_result {
        tree_handle handle;
        std::vector<diagnostic> diagnostics;  ///< every problem found, located
        std::string refused;                  ///< options.accept's reason, when it refused
    };
    /// load(), with its errors as values: for a program built without exceptions.
    load_result try_load(const std::filesystem::path& path);

    /// Calls `callback` with each event from now on, on the thread that polls, after the
    /// library's lock is released (it may call load(), not poll()). Replaces any previous one.
    /// An exception from it passes out of poll(); on watch()'s thread, it ends the program.
    void on_event(std::function<void(const reload_event&)> callback);

    /// Looks at every file of every tree once, reloads the trees whose files changed and
    /// settled, publishes those that load, and reports each through on_event().
    /// @return how many events it reported.
    std::size_t poll();

    /// Polls every `interval` on a background thread until stop() or destruction (replacing
    /// any watch already running).
    void watch();
    void watch(std::chrono::milliseconds interval);
    /// Stops watch()'s thread and waits for it; does nothing when there is none.
    void stop();

    /// How many trees the library holds.
    std::size_t size() const;

private:
    struct state;
    std::unique_ptr<state> state_;
};

}  // namespace canopy
