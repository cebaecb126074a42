#pragma once
// The registries the harnesses load with, and the byte stream that decides what the
// load-then-tick harness's leaves return.

#include <cstddef>
#include <cstdint>

#include "canopy/core/fwd.hpp"
#include "canopy/core/status.hpp"

namespace canopy::fuzz {

/// Built-in and demo node types, as the CLI registers them.
const registry& load_registry();

/// Built-in node types, the demo packs' leaf types and keys with the same names, parameters
/// and ids but whose results come from the agent's host, a byte_source, and two more such
/// leaves, "FuzzAction" and "FuzzCondition": every tree that loads with it can tick.
const registry& tick_registry();

/// The bytes that decide leaf outcomes and time steps, read in a cycle; an empty source gives
/// success, a zero time step.
class byte_source {
public:
    byte_source(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::uint8_t next() noexcept {
        if (size_ == 0) return 0;
        const std::uint8_t b = data_[at_];
        at_ = (at_ + 1) % size_;
        return b;
    }
    /// success, failure or running, about a third of the byte values each, and skipped for
    /// the top 20 values.
    status next_status() noexcept;
    /// One of 0, 0.01, 0.1, 1 and 10 seconds, so that timed nodes both wait and end.
    double next_dt() noexcept;

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

}  // namespace canopy::fuzz
