#include "core/suggest.hpp"

#include <algorithm>
#include <string>

namespace canopy::detail {
namespace {

char fold(char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-folded.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> before(b.size() + 1);  // the row before the previous one
    std::vector<std::size_t> previous(b.size() + 1);
    std::vector<std::size_t> current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1])) {
                current[j] = std::min(current[j], before[j - 2] + 1);
            }
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::string_view nearest_of(std::string_view word, const std::vector<std::string_view>& candidates,
                            std::size_t limit, bool skip_word) {
    std::string_view best;
    std::size_t best_distance = limit + 1;
    for (std::string_view candidate : candidates) {
        // Lengths further apart than the limit are further apart in edits too; skipping them
        // keeps a long word (a 1 MB type name) linear in its length, not times every name's.
        const std::size_t apart = word.size() > candidate.size() ? word.size() - candidate.size()
                                                                 : candidate.size() - word.size();
        if (apart > limit || (skip_word && candidate == word)) continue;
        std::size_t distance = edit_distance(word, candidate);
        if (distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace

std::string_view nearest(std::string_view word, const std::vector<std::string_view>& candidates) {
    return nearest_of(word, candidates, std::clamp<std::size_t>(word.size() / 3, 1, 3), false);
}

std::string_view nearest_within(std::string_view word,
                                const std::vector<std::string_view>& candidates,
                                std::size_t max_edits) {
    return nearest_of(word, candidates, max_edits, true);
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
    std::string_view best = nearest(word, candidates);
    if (best.empty()) return {};
    return " (did you mean '" + std::string(best) + "'?)";
}

}  // namespace canopy::detail
