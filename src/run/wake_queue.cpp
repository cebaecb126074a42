#include "run/wake_queue.hpp"

#include <algorithm>

namespace canopy::detail {

wake_queue::wake_queue() : buckets_(bucket_count) {}

void wake_queue::resize(std::size_t agents) {
    places_.resize(agents);
}

void wake_queue::push(std::uint32_t agent, std::int64_t due) {
    const std::uint32_t bucket = bucket_of(due);
    std::vector<entry>& entries = buckets_[bucket];
    places_[agent] = {bucket, static_cast<std::uint32_t>(entries.size())};
    entries.push_back({due, agent});
}

void wake_queue::remove_at(std::uint32_t bucket, std::uint32_t position) noexcept {
    std::vector<entry>& entries = buckets_[bucket];
    places_[entries[position].agent].bucket = none;
    if (position + 1 != entries.size()) {
        entries[position] = entries.back();
        places_[entries[position].agent].position = position;
    }
    entries.pop_back();
}

void wake_queue::erase(std::uint32_t agent) noexcept {
    const place at = places_[agent];
    if (at.bucket != none) remove_at(at.bucket, at.position);
}

void wake_queue::rename(std::uint32_t from, std::uint32_t to) noexcept {
    const place at = places_[from];
    places_[to] = at;
    places_[from].bucket = none;
    if (at.bucket != none) buckets_[at.bucket][at.position].agent = to;
}

void wake_queue::pop_due(std::int64_t now, std::vector<std::uint32_t>& due) {
    const std::int64_t last = now >> bucket_shift;
    // After a step longer than a turn of the wheel, each bucket is visited once.
    const std::int64_t first =
        std::max(cursor_, last - static_cast<std::int64_t>(bucket_count) + 1);
    for (std::int64_t b = first; b <= last; ++b) {
        const std::uint32_t bucket = bucket_of(b << bucket_shift);
        std::vector<entry>& entries = buckets_[bucket];
        // Entries of later turns of the wheel, or later in the current bucket, stay.
        for (std::uint32_t k = 0; k < entries.size();) {
            if (entries[k].due <= now) {
                due.push_back(entries[k].agent);
                remove_at(bucket, k);
            } else {
                ++k;
            }
        }
    }
    cursor_ = last;
}

}  // namespace canopy::detail
