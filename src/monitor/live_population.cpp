// The population count of the live view (docs/monitoring.md, "The population view").
#include "monitor/live_population.hpp"

#include <algorithm>
#include <cstring>

#include "canopy/run/agent.hpp"

namespace canopy::detail::live {

namespace {

constexpr std::uint64_t ones = 0x0101010101010101ULL;
// A byte counter per node in each accumulator word: flushed before it can pass 255.
constexpr std::size_t flush_every = 255;
constexpr std::size_t prefetch_distance = 8;

// 0x01 in each byte of `word` equal to `code`, for bytes 0 to 7: the three low bits of each
// byte of `x` are 0 where the byte equals the code. A shift carries bits of the next byte
// only into bits 6 and 7, which the mask leaves out.
inline std::uint64_t bytes_equal(std::uint64_t word, std::uint64_t code) noexcept {
    const std::uint64_t x = word ^ (code * ones);
    return ~(x | (x >> 1) | (x >> 2)) & ones;
}

void flush(std::vector<std::uint64_t>& sums, std::size_t nodes, std::vector<std::uint32_t>& out) {
    const std::size_t words = (nodes + 7) / 8;
    for (std::size_t code = 1; code < status_codes; ++code) {
        std::uint64_t* sum = sums.data() + (code - 1) * words;
        for (std::size_t w = 0; w < words; ++w) {
            for (std::size_t b = 0; b < 8 && w * 8 + b < nodes; ++b)
                out[(w * 8 + b) * status_codes + code] +=
                    static_cast<std::uint32_t>((sum[w] >> (8 * b)) & 0xFF);
            sum[w] = 0;
        }
    }
}

}  // namespace

void count_population(const agent* first, std::size_t count, const tree& t,
                      population_counts& out) {
    const std::size_t nodes = t.size();
    const std::size_t words = (nodes + 7) / 8;
    out.by_node.assign(nodes * status_codes, 0);
    out.counted = 0;
    out.other_tree = 0;
    std::vector<std::uint64_t> sums((status_codes - 1) * words, 0);
    std::size_t pending = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const agent& a = first[k];
        if (&a.tree() != &t) {
            ++out.other_tree;
            continue;
        }
        // Each agent's bytes are an allocation of its own: ask for a later agent's early,
        // so that the memory waits overlap.
        if (k + prefetch_distance < count)
            __builtin_prefetch(first[k + prefetch_distance].status_bytes());
        const std::uint8_t* bytes = a.status_bytes();
        for (std::size_t w = 0; w < words; ++w) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes + w * 8, std::min<std::size_t>(8, nodes - w * 8));
            word &= 0x0707070707070707ULL;  // the statuses (detail::status_of_code)
            sums[w] += bytes_equal(word, 1);
            sums[words + w] += bytes_equal(word, 2);
            sums[2 * words + w] += bytes_equal(word, 3);
            sums[3 * words + w] += bytes_equal(word, 4);
        }
        ++out.counted;
        if (++pending == flush_every) {
            flush(sums, nodes, out.by_node);
            pending = 0;
        }
    }
    flush(sums, nodes, out.by_node);
    for (std::size_t i = 0; i < nodes; ++i) {
        std::uint32_t* c = &out.by_node[i * status_codes];
        c[0] = static_cast<std::uint32_t>(out.counted) - c[1] - c[2] - c[3] - c[4];
    }
}

std::vector<std::size_t> agents_at(const agent* first, std::size_t count, const tree& t,
                                   tree::index node, std::uint8_t code, std::size_t limit) {
    std::vector<std::size_t> found;
    if (node >= t.size()) return found;
    for (std::size_t k = 0; k < count && found.size() < limit; ++k) {
        if (&first[k].tree() == &t && status_of_code(first[k].status_bytes()[node]) == code)
            found.push_back(k);
    }
    return found;
}

}  // namespace canopy::detail::live
