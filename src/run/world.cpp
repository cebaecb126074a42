// A world: agents ticked frame by frame, the waiting ones asleep in a timing wheel until their
// time comes. What lets an agent sleep is the tick's (src/run/sleep_report.cpp); the skipped
// ticks are made up by advancing its clock (detail::sleep_access::pass).
#include "canopy/run/world.hpp"

#include <exception>
#include <limits>
#include <string>

#include "canopy/core/error.hpp"
#include "canopy/run/parallel_ticker.hpp"
#include "run/sleep_access.hpp"
#include "run/sleep_report.hpp"
#include "run/time_step.hpp"
#include "run/wake_queue.hpp"

namespace canopy {
namespace {

// Below this many awake agents a frame is ticked on the calling thread: waking the ticker's
// workers costs more than they would save.
constexpr std::size_t fewest_shared = 256;

// How many agents ahead a loop over scattered agents asks for their memory
// (sleep_access::prefetch_agent): enough to cover a cache miss with the ticks between.
constexpr std::size_t prefetch_distance = 16;

void prefetch(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

}  // namespace

struct world::internals {
    detail::wake_queue queue;
    std::vector<detail::sleep_report> reports;  // one per thread
    std::vector<std::exception_ptr> failures;   // per thread: the first of the tick under way
};

world::world() : more_(std::make_unique<internals>()) {
    more_->reports.resize(1);
    more_->failures.resize(1);
}

world::world(parallel_ticker& ticker) : world() {
    ticker_ = &ticker;
    more_->reports.resize(ticker.threads());
    more_->failures.resize(ticker.threads());
}

world::world(world&& other) noexcept = default;
world& world::operator=(world&& other) noexcept = default;
world::~world() = default;

world::index world::add(agent a) {
    const index i = agents_.size();
    if (i >= place::asleep) {
        throw error(error_code::invalid_argument, "world::add: a world holds at most " +
                                                      std::to_string(place::asleep) + " agents");
    }
    agents_.push_back(std::move(a));
    places_.push_back({static_cast<std::uint32_t>(awake_.size()), 0, 0, 0});
    awake_.push_back(static_cast<std::uint32_t>(i));
    more_->queue.resize(agents_.size());
    return i;
}

agent world::remove(index i) {
    check_index(i, "world::remove");
    if (asleep(i)) wake_up(i);
    // Out of the awake list, the last of which takes its place.
    const std::uint32_t at = places_[i].awake_at;
    awake_[at] = awake_.back();
    places_[awake_[at]].awake_at = at;
    awake_.pop_back();
    agent removed = std::move(agents_[i]);
    const index last = agents_.size() - 1;
    if (i != last) {
        agents_[i] = std::move(agents_[last]);
        places_[i] = places_[last];
        if (places_[i].awake_at != place::asleep) {
            awake_[places_[i].awake_at] = static_cast<std::uint32_t>(i);
        } else {
            more_->queue.rename(static_cast<std::uint32_t>(last), static_cast<std::uint32_t>(i));
        }
    }
    agents_.pop_back();
    places_.pop_back();
    more_->queue.resize(agents_.size());
    return removed;
}

void world::check_index(index i, const char* caller) const {
    if (i < agents_.size()) return;
    throw error(error_code::invalid_argument, std::string(caller) + ": no agent " +
                                                  std::to_string(i) + " (the world has " +
                                                  std::to_string(agents_.size()) + ")");
}

bool world::asleep(index i) const noexcept {
    return places_[i].awake_at == place::asleep;
}

std::optional<std::int64_t> world::asleep_until_ns(index i) const noexcept {
    if (!asleep(i)) return std::nullopt;
    return places_[i].until_ns;
}

void world::catch_up(index i, std::int64_t now_ns, std::uint64_t frame) noexcept {
    place& p = places_[i];
    detail::sleep_access::pass(agents_[i], now_ns - p.since_ns, frame - p.since_frame);
    p.since_ns = now_ns;
    p.since_frame = frame;
}

void world::wake_up(index i) {
    catch_up(i, now_ns_, frame_);
    more_->queue.erase(static_cast<std::uint32_t>(i));
    places_[i].awake_at = static_cast<std::uint32_t>(awake_.size());
    awake_.push_back(static_cast<std::uint32_t>(i));
}

const agent& world::at(index i) {
    check_index(i, "world::at");
    if (asleep(i)) catch_up(i, now_ns_, frame_);
    return agents_[i];
}

canopy::blackboard world::read_blackboard(index i) {
    check_index(i, "world::read_blackboard");
    return agents_[i].blackboard();
}

agent& world::wake(index i) {
    check_index(i, "world::wake");
    if (asleep(i)) wake_up(i);
    return agents_[i];
}

void world::post_event(index i, std::string_view event, const event_values& values) {
    wake(i).post_event(event, values);
}

void world::post_event(std::string_view event, const event_values& values) {
    std::exception_ptr failure;
    for (index i = 0; i < agents_.size(); ++i) {
        try {
            wake(i).post_event(event, values);
        } catch (const error&) {
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
}

void world::tick(double dt) {
    step_ns_ = detail::time_step_ns(dt, "world::tick");
    const std::int64_t before_ns = now_ns_;
    const std::uint64_t before_frame = frame_;
    now_ns_ += step_ns_;
    ++frame_;
    // The sleepers whose time has come: their clocks are brought to the frame before, so
    // that this frame's tick gives them the step every agent gets.
    due_.clear();
    more_->queue.pop_due(now_ns_, due_);
    for (std::size_t k = 0; k < due_.size(); ++k) {
        if (k + prefetch_distance < due_.size()) {
            detail::sleep_access::prefetch_agent(agents_[due_[k + prefetch_distance]]);
            prefetch(&places_[due_[k + prefetch_distance]]);
        }
        const std::uint32_t i = due_[k];
        catch_up(i, before_ns, before_frame);
        places_[i].awake_at = static_cast<std::uint32_t>(awake_.size());
        awake_.push_back(i);
    }
    verdicts_.resize(awake_.size());
    for (std::exception_ptr& failure : more_->failures) failure = nullptr;
    if (ticker_ != nullptr && ticker_->threads() > 1 && awake_.size() >= fewest_shared) {
        auto share = [this](std::size_t first, std::size_t last, unsigned thread) {
            tick_awake(first, last, thread);
        };
        ticker_->run_shares(awake_.size(), share);
    } else {
        tick_awake(0, awake_.size(), 0);
    }
    ticked_.assign(awake_.begin(), awake_.end());
    // Those that may sleep leave the awake list, which keeps its order.
    std::size_t kept = 0;
    for (std::size_t k = 0; k < awake_.size(); ++k) {
        const std::uint32_t i = awake_[k];
        if (verdicts_[k] == detail::sleep_report::awake) {
            awake_[kept] = i;
            places_[i].awake_at = static_cast<std::uint32_t>(kept);
            ++kept;
        } else {
            fall_asleep(i, verdicts_[k]);
        }
    }
    awake_.resize(kept);
    for (const std::exception_ptr& failure : more_->failures) {
        if (failure) std::rethrow_exception(failure);
    }
}

void world::tick_awake(std::size_t first, std::size_t last, std::size_t share) noexcept {
    detail::sleep_report& report = more_->reports[share];
    for (std::size_t k = first; k < last; ++k) {
        // The agent object two distances ahead, what it points to one distance ahead: both
        // have arrived by the agent's turn.
        if (k + 2 * prefetch_distance < last)
            detail::sleep_access::prefetch_agent(agents_[awake_[k + 2 * prefetch_distance]]);
        if (k + prefetch_distance < last)
            detail::sleep_access::prefetch_state(agents_[awake_[k + prefetch_distance]]);
        try {
            detail::sleep_access::tick(agents_[awake_[k]], step_ns_, report, verdicts_[k]);
        } catch (...) {
            verdicts_[k] = detail::sleep_report::awake;
            if (!more_->failures[share]) more_->failures[share] = std::current_exception();
        }
    }
}

void world::fall_asleep(index i, std::int64_t until) {
    place& p = places_[i];
    p.awake_at = place::asleep;
    p.since_ns = now_ns_;
    p.since_frame = frame_;
    p.until_ns = until;
    if (until == context::never) return;  // until woken
    // The agent's clock is behind `until`; it reaches it at the first frame whose world clock
    // has advanced as much. A wait past the end of the world's clock is a wait for ever.
    const std::int64_t wait = until - agents_[i].time_ns();
    if (wait > std::numeric_limits<std::int64_t>::max() - now_ns_) return;
    more_->queue.push(static_cast<std::uint32_t>(i), now_ns_ + wait);
}

}  // namespace canopy
