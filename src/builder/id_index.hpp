#pragma once

#include <cstdint>
#include <vector>

namespace canopy::detail {

/// Maps record ids to record indexes. Ids in a file are usually dense (1..n with gaps), so
/// when their range is at most four times their count a flat array indexed by id serves;
/// otherwise open addressing does. Neither allocates per entry, which matters at a million
/// records.
class id_index {
public:
    static constexpr std::uint32_t none = 0xFFFFFFFF;

    id_index(std::int64_t min_id, std::int64_t max_id, std::size_t count) {
        const auto range = static_cast<std::uint64_t>(max_id) - static_cast<std::uint64_t>(min_id);
        if (count != 0 && max_id >= min_id && range < 4 * static_cast<std::uint64_t>(count) + 16) {
            base_ = min_id;
            dense_ = true;
            indexes_.assign(static_cast<std::size_t>(range) + 1, none);
            return;
        }
        std::size_t capacity = 16;
        while (capacity < count * 2) capacity *= 2;
        mask_ = capacity - 1;
        ids_.resize(capacity);
        indexes_.assign(capacity, none);
    }

    /// Inserts id → index unless the id is present; returns the index stored for the id.
    /// In the dense form, id must lie within [min_id, max_id].
    std::uint32_t insert(std::int64_t id, std::uint32_t index) {
        if (dense_) {
            std::uint32_t& slot = indexes_[offset(id)];
            if (slot == none) slot = index;
            return slot;
        }
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
        if (dense_) {
            auto at = static_cast<std::uint64_t>(id) - static_cast<std::uint64_t>(base_);
            return at < indexes_.size() ? indexes_[static_cast<std::size_t>(at)] : none;
        }
        for (std::size_t slot = hash(id);; slot = (slot + 1) & mask_) {
            if (indexes_[slot] == none || ids_[slot] == id) return indexes_[slot];
        }
    }

private:
    std::size_t offset(std::int64_t id) const {
        return static_cast<std::size_t>(static_cast<std::uint64_t>(id) -
                                        static_cast<std::uint64_t>(base_));
    }

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

    bool dense_ = false;
    std::int64_t base_ = 0;
    std::size_t mask_ = 0;
    std::vector<std::int64_t> ids_;  // hashed form only
    std::vector<std::uint32_t> indexes_;
};

}  // namespace canopy::detail
