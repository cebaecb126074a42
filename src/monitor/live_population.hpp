// Counting, per node, how many agents' status bytes say idle, success, failure, running or
// skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "canopy/run/tree.hpp"

namespace canopy {
class agent;
}

namespace canopy::detail::live {

/// The status bytes counted: idle 0, success 1, failure 2, running 3, skipped 4.
inline constexpr std::size_t status_codes = 5;

/// One count of a population, taken between ticks.
struct population_counts {
    std::uint64_t tick = 0;      ///< the tick number update() was given
    std::size_t counted = 0;     ///< agents on the tree counted
    std::size_t other_tree = 0;  ///< agents on another tree, not counted
    /// Per node, status_codes counts: idle, success, failure, running, skipped.
    std::vector<std::uint32_t> by_node;
};

/// Counts the status bytes of the agents of [first, first + count) that run `t`, into `out`
/// (its vectors are reused). The bytes are read eight nodes at a time: a byte is 0 to 4, so
/// equality to a status is an xor, two shifts and a mask per word; idle is what is left.
void count_population(const agent* first, std::size_t count, const tree& t, population_counts& out);

/// Up to `limit` indexes of agents of [first, first + count) on `t` whose node `node` has
/// status byte `code`, in index order.
std::vector<std::size_t> agents_at(const agent* first, std::size_t count, const tree& t,
                                   tree::index node, std::uint8_t code, std::size_t limit);

}  // namespace canopy::detail::live
