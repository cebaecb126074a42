#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace canopy::detail {

/// Maps record ids to record indexes with open addressing: two flat arrays and no allocation
/// per entry, which matters when a file holds a million records.
class id_index {
public:
    static constexpr std::uint32_t none = 0xFFFFFFFF;

    explicit id_index(std::size_t count) {
        std::size_t capacity = 16;
        while (capacity < count * 2) capacity *= 2;
        mask_ = capacity - 1;
        ids_.resize(capacity);
        indexes_.assign(capacity, none);
    }

    /// Inserts id → index unless the id is present; returns the index stored for the id.
    std::uint32_t insert(std::int64_t id, std::uint32_t index) {
        for (std::size_t slot = hash(id);; slot = (slot + 1) & mask_) {
            if (indexes_[slot] == none) {
                ids_[slot] = id;
                indexes_[slot] = index;
                return index;
            }
            if (ids_[slot] == id) return indexes_[slot];
        }
    }

    /// The index stored for id, or none.
    std::uint32_t find(std::int64_t id) const {
        for (std::size_t slot = hash(id);; slot = (slot + 1) & mask_) {
            if (indexes_[slot] == none || ids_[slot] == id) return indexes_[slot];
        }
    }

private:
    std::size_t hash(std::int64_t id) const {
        // splitmix64's finaliser: sequential ids spread over the whole table.
        auto x = static_cast<std::uint64_t>(id);
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        x ^= x >> 31;
        return static_cast<std::size_t>(x) & mask_;
    }

    std::size_t mask_ = 0;
    std::vector<std::int64_t> ids_;
    std::vector<std::uint32_t> indexes_;
};

}  // namespace canopy::detail
