#pragma once
// The byte encoding of snapshots (docs/snapshots.md): fixed-width little-endian numbers and
// length-prefixed strings, appended to a std::string and read back with every length checked,
// so that truncated or garbled bytes are refused rather than read past their end.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "canopy/core/error.hpp"

namespace canopy::detail {

// Snapshots are written in the host's byte order, which is little-endian on every platform
// Canopy is built for; the header's byte-order mark refuses a snapshot from any other.
template <typename T>
void put(std::string& out, T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

inline void put_text(std::string& out, std::string_view text) {
    put(out, static_cast<std::uint32_t>(text.size()));
    out.append(text);
}

/// A 64-bit checksum of bytes, eight at a time: what a snapshot ends with, so that bytes
/// damaged since (a flipped bit, a file cut short and padded) are refused as a whole. Not a
/// defence against bytes made to pass.
inline std::uint64_t checksum(std::string_view bytes) noexcept {
    // Four lanes, so that the multiplications of one do not wait for another's.
    constexpr std::uint64_t prime = 0x9e3779b97f4a7c15ULL;
    std::uint64_t lane[4] = {0x6a09e667f3bcc909ULL ^ bytes.size(), 0xbb67ae8584caa73bULL,
                             0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL};
    const char* at = bytes.data();
    const char* end = at + bytes.size();
    for (; end - at >= 32; at += 32) {
        for (int k = 0; k < 4; ++k) {
            std::uint64_t word;
            std::memcpy(&word, at + std::ptrdiff_t{8} * k, 8);
            lane[k] = (lane[k] ^ word) * prime;
            lane[k] ^= lane[k] >> 32;
        }
    }
    std::uint64_t hash = lane[0] ^ (lane[1] * 3) ^ (lane[2] * 5) ^ (lane[3] * 7);
    for (; at < end; ++at) hash = (hash ^ static_cast<unsigned char>(*at)) * 0x100000001b3ULL;
    return hash ^ (hash >> 29);
}

/// Reads what put() and put_text() wrote; every read past the end throws
/// error(error_code::snapshot) saying what was being read and at which byte.
class byte_reader {
public:
    explicit byte_reader(std::string_view bytes) noexcept : bytes_(bytes) {}

    template <typename T>
    T get(const char* what) {
        static_assert(std::is_trivially_copyable_v<T>);
        need(sizeof(T), what);
        T value;
        std::memcpy(&value, bytes_.data() + at_, sizeof(T));
        at_ += sizeof(T);
        return value;
    }
    std::string_view get_bytes(std::size_t count, const char* what) {
        need(count, what);
        const std::string_view part = bytes_.substr(at_, count);
        at_ += count;
        return part;
    }
    std::string_view get_text(const char* what) {
        return get_bytes(get<std::uint32_t>(what), what);
    }
    /// A count of items each at least `item_bytes` long: refused at once when the bytes left
    /// cannot hold that many, so that a garbled count never makes a huge allocation.
    std::uint32_t get_count(std::size_t item_bytes, const char* what) {
        const auto count = get<std::uint32_t>(what);
        if (item_bytes != 0 && count > left() / item_bytes)
            fail(what, "a count of " + std::to_string(count) + " larger than the bytes left");
        return count;
    }
    std::size_t at() const noexcept { return at_; }
    std::size_t left() const noexcept { return bytes_.size() - at_; }
    bool done() const noexcept { return at_ == bytes_.size(); }
    [[noreturn]] void fail(const char* what, const std::string& problem) const {
        fail_at(at_, what, problem);
    }
    /// The same, for what started at byte `at`.
    [[noreturn]] static void fail_at(std::size_t at, const char* what, const std::string& problem) {
        throw error(error_code::snapshot,
                    "snapshot: byte " + std::to_string(at) + " (" + what + "): " + problem);
    }

private:
    void need(std::size_t count, const char* what) const {
        if (count > left())
            fail(what, "truncated: " + std::to_string(count) + " bytes needed, " +
                           std::to_string(left()) + " left");
    }

    std::string_view bytes_;
    std::size_t at_ = 0;
};

}  // namespace canopy::detail
