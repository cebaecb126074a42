// Change detection by polling: metadata on every poll, content hashes once a file settles.
#include "canopy/reload/file_watcher.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>
#include <optional>
#include <set>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#define CANOPY_POSIX_STAT 1
#endif

namespace canopy {
namespace {

namespace fs = std::filesystem;
using metadata = file_watcher::metadata;

// Within this long after a file's last modification, its content is hashed on every poll even
// when its metadata has not changed: file systems stamp times from a clock that ticks in
// milliseconds or coarser, so two writes of the same size within one tick look alike.
constexpr std::int64_t recent_ns = 2'000'000'000;

#if CANOPY_POSIX_STAT
metadata read_metadata(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return {};
#if defined(__APPLE__)
    const timespec& modified = info.st_mtimespec;
#else
    const timespec& modified = info.st_mtim;
#endif
    return {true, static_cast<std::uintmax_t>(info.st_size),
            static_cast<std::int64_t>(modified.tv_sec) * 1'000'000'000 + modified.tv_nsec,
            static_cast<std::uint64_t>(info.st_ino)};
}

// The clock st_mtim is stamped from.
std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}
#else
metadata read_metadata(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return {};
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) return {};
    const fs::file_time_type modified = fs::last_write_time(path, ec);
    if (ec) return {};
    return {
        true, size,
        std::chrono::duration_cast<std::chrono::nanoseconds>(modified.time_since_epoch()).count(),
        0};
}

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               fs::file_time_type::clock::now().time_since_epoch())
        .count();
}
#endif

// 64-bit FNV-1a of the file's bytes; nothing if it cannot be read.
std::optional<std::uint64_t> hash_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a's offset basis
    std::array<char, 1 << 16> buffer{};
    while (in) {
        in.read(buffer.data(), buffer.size());
        const auto got = static_cast<std::size_t>(in.gcount());
        for (std::size_t i = 0; i < got; ++i) {
            hash ^= static_cast<unsigned char>(buffer[i]);
            hash *= 0x100000001b3ULL;  // FNV's 64-bit prime
        }
    }
    if (in.bad()) return std::nullopt;
    return hash;
}

bool recently_modified(const metadata& m) {
    return now_ns() - m.modified_ns < recent_ns;
}

}  // namespace

void file_watcher::start(const fs::path& file, file_state& state) {
    state.seen = read_metadata(file);
    state.known = state.seen;
    state.settled = true;
    if (state.known.exists) {
        std::optional<std::uint64_t> hash = hash_file(file);
        state.known.exists = hash.has_value();
        state.hash = hash.value_or(0);
    }
}

void file_watcher::add(const std::vector<fs::path>& files) {
    for (const fs::path& file : files) {
        auto [at, inserted] = files_.try_emplace(file);
        if (inserted) start(file, at->second);
    }
}

void file_watcher::watch(const std::vector<fs::path>& files) {
    const std::set<fs::path> wanted(files.begin(), files.end());
    for (auto at = files_.begin(); at != files_.end();) {
        at = wanted.count(at->first) != 0 ? std::next(at) : files_.erase(at);
    }
    add(files);
}

std::vector<std::pair<fs::path, file_watcher::change>> file_watcher::poll() {
    std::vector<std::pair<fs::path, change>> changes;
    for (auto& [file, state] : files_) {
        const metadata now = read_metadata(file);
        if (now != state.seen) {  // still moving: wait for the next poll to see it rest
            state.seen = now;
            state.settled = false;
            continue;
        }
        if (!now.exists) {
            state.settled = true;
            if (state.known.exists) changes.emplace_back(file, change::deleted);
            state.known = now;
            continue;
        }
        // Truncated and not yet written: no tree file is empty, so wait for its bytes.
        state.settled = now.size != 0;
        if (!state.settled) continue;
        if (now == state.known && !recently_modified(now)) continue;
        const std::optional<std::uint64_t> hash = hash_file(file);
        if (!hash) {  // gone between the stat and the read
            state.settled = false;
            continue;
        }
        if (!state.known.exists || *hash != state.hash)
            changes.emplace_back(file, change::modified);
        state.known = now;
        state.hash = *hash;
    }
    return changes;
}

bool file_watcher::settled(const fs::path& file) const {
    auto at = files_.find(file);
    return at == files_.end() || at->second.settled;
}

}  // namespace canopy
