#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

namespace canopy {

/// Tells when files change, the way editors save them: in place, to a temporary file renamed
/// over the old one, truncated then written, deleted then created. Each poll compares a file's
/// metadata (whether it exists, its size, its modification time in nanoseconds, its inode)
/// with the previous poll's; a file whose metadata is the same on two polls in a row has
/// settled, and only then is its content hashed (64-bit FNV-1a) and compared with the content
/// last seen. A touch that keeps the bytes is no change; an empty file is taken as a save in
/// progress and waited for. A file modified within the last 2 s is hashed on every poll even
/// when its metadata looks the same, since two writes in one tick of the file system's clock
/// that keep the size leave the same metadata. See docs/hot_reload.md.
///
/// Not thread-safe: tree_library guards its own with a mutex.
class file_watcher {
public:
    /// What happened to a file, as of a poll where it has settled.
    enum class change : std::uint8_t {
        modified,  ///< exists and holds other bytes than before (or is back after a deletion)
        deleted,   ///< was there and no longer is
    };

    /// Watches exactly these files (absolute and normalised, as try_load_file lists them):
    /// those not watched yet are read now, as they are, so that only later changes count;
    /// those no longer listed are forgotten. Missing files may be watched: creating one is a
    /// change.
    void watch(const std::vector<std::filesystem::path>& files);
    /// Adds files to those watched, as watch() does, forgetting none.
    void add(const std::vector<std::filesystem::path>& files);

    /// Looks at every watched file once and returns those whose settled content changed since
    /// they were last reported (or added), in path order.
    std::vector<std::pair<std::filesystem::path, change>> poll();

    /// Whether the file's metadata was the same on the last two polls (true for a file not
    /// polled since it was added, and for a file not watched).
    bool settled(const std::filesystem::path& file) const;

    std::size_t size() const noexcept { return files_.size(); }

    /// What a poll looks at: whether the file exists, its size, its modification time in
    /// nanoseconds since the epoch, and its inode (0 where the system has none).
    struct metadata {
        bool exists = false;
        std::uintmax_t size = 0;
        std::int64_t modified_ns = 0;
        std::uint64_t inode = 0;
        friend bool operator==(const metadata& a, const metadata& b) noexcept {
            return a.exists == b.exists && a.size == b.size && a.modified_ns == b.modified_ns &&
                   a.inode == b.inode;
        }
        friend bool operator!=(const metadata& a, const metadata& b) noexcept { return !(a == b); }
    };

private:
    struct file_state {
        metadata seen;           // at the last poll
        metadata known;          // of the content last reported
        std::uint64_t hash = 0;  // of that content
        bool settled = true;
    };
    static void start(const std::filesystem::path& file, file_state& state);
    std::map<std::filesystem::path, file_state> files_;
};

}  // namespace canopy
