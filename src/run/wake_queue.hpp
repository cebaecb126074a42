#pragma once
// The sleeping agents of a world that have a time to wake, by that time on the world's clock:
// a timing wheel, so that queueing an agent, taking it out and finding those due each cost
// the same whatever the number asleep (a heap's log n is a cache miss a level with a million).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace canopy::detail {

class wake_queue {
public:
    wake_queue();

    /// Room for agents numbered 0 to `agents` - 1; an agent past the new end must not be
    /// queued.
    void resize(std::size_t agents);
    /// Queues `agent`, not queued yet, to wake at `due` (world nanoseconds), which must be
    /// later than the `now` of the last pop_due.
    void push(std::uint32_t agent, std::int64_t due);
    /// Takes `agent` out; nothing if it is not queued.
    void erase(std::uint32_t agent) noexcept;
    bool queued(std::uint32_t agent) const noexcept { return places_[agent].bucket != none; }
    /// Gives agent `from`'s entry to `to`, which has none: a world's agent moved to another
    /// index.
    void rename(std::uint32_t from, std::uint32_t to) noexcept;
    /// Takes out every agent due at or before `now` and appends it to `due`, in no
    /// particular order. `now` never goes back.
    void pop_due(std::int64_t now, std::vector<std::uint32_t>& due);

private:
    // Buckets of 2^22 ns (4.2 ms, a quarter of a 60 Hz frame) round a wheel of 4,096 (17 s):
    // a frame visits a few buckets, each entry is looked at about once when due, and one due
    // later than a turn of the wheel is passed over once a turn.
    static constexpr int bucket_shift = 22;
    static constexpr std::size_t bucket_count = 4096;
    static constexpr std::uint32_t none = 0xFFFFFFFF;

    struct entry {
        std::int64_t due;
        std::uint32_t agent;
    };
    struct place {
        std::uint32_t bucket = none;
        std::uint32_t position = 0;  // in its bucket
    };
    static std::uint32_t bucket_of(std::int64_t due) noexcept {
        return static_cast<std::uint32_t>(static_cast<std::uint64_t>(due >> bucket_shift) &
                                          (bucket_count - 1));
    }
    // Removes the entry at `position` of `bucket`, the last one taking its place.
    void remove_at(std::uint32_t bucket, std::uint32_t position) noexcept;

    std::vector<std::vector<entry>> buckets_;
    std::vector<place> places_;  // per agent
    std::int64_t cursor_ = 0;    // the bucket number (due >> bucket_shift) of the last `now`
};

}  // namespace canopy::detail
