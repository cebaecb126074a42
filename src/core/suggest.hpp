#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace canopy::detail {

/// The candidate nearest to `word` by edit distance, ignoring ASCII case, or an empty view when
/// none is close enough to be a plausible typo (at most a third of the word's length, and
/// at least 1 and at most 3 edits). Ties go to the earliest candidate.
std::string_view nearest(std::string_view word, const std::vector<std::string_view>& candidates);

/// The candidate nearest to `word` within `max_edits` edits (ignoring ASCII case; an adjacent
/// transposition is one edit), other than `word` itself, or an empty view. Ties go to the
/// earliest candidate.
std::string_view nearest_within(std::string_view word,
                                const std::vector<std::string_view>& candidates,
                                std::size_t max_edits);

/// " (did you mean 'X'?)" when a candidate is near `word`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace canopy::detail
