// Counting, per node, how many agents' status bytes say idle, success, failure or running.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "canopy/run/tree.hpp"

namespace canopy {
class agent;
}

namespace canopy::detail::live {

/// One count of a population, taken between ticks.
struct population_counts {
    std::uint64_t tick = 0;              ///< the tick number update() was given
    std::size_t counted = 0;             ///< agents on the tree counted
    std::size_t other_tree = 0;          ///< agents on another tree, not counted
    std::vector<std::uint32_t> by_node;  ///< per node, 4 counts: idle, success, failure, running
};

/// Counts the status bytes of the agents of [first, first + count) that run `t`, into `out`
/// (its vectors are reused). The bytes are read eight nodes at a time: a byte is 0 to 3
/// (skipped leaves idle), so equality to a status is two shifts and a mask per word.
void count_population(const agent* first, std::size_t count, const tree& t, population_counts& out);

/// Up to `limit` indexes of agents of [first, first + count) on `t` whose node `node` has
/// status byte `code`, in index order.
std::vector<std::size_t> agents_at(const agent* first, std::size_t count, const tree& t,
                                   tree::index node, std::uint8_t code, std::size_t limit);

}  // namespace canopy::detail::live
