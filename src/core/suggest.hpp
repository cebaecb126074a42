#pragma once

#include <string_view>
#include <vector>

namespace canopy::detail {

/// The candidate nearest to `word` by edit distance, ignoring ASCII case, or an empty view when
/// none is close enough to be a plausible typo (at most a third of the word's length, and
/// at least 1 and at most 3 edits). Ties go to the earliest candidate.
std::string_view nearest(std::string_view word, const std::vector<std::string_view>& candidates);

/// " (did you mean 'X'?)" when a candidate is near `word`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace canopy::detail
