#pragma once

#include <cstdint>
#include <string_view>

namespace canopy {

/// What a node's tick returns: success, failure or running. `idle` is what a node is before
/// its first tick and after it finishes being halted; a tick never returns it (one that does
/// is taken as failure).
enum class status : std::uint8_t {
    idle = 0,
    success = 1,
    failure = 2,
    running = 3,  ///< not finished: tick again
};

/// "idle", "success", "failure" or "running".
std::string_view to_string(status s) noexcept;

}  // namespace canopy
