#pragma once

#include <algorithm>
#include <vector>

#include "canopy/diagnostic.hpp"

namespace canopy::detail {

/// Puts diagnostics in file order (problems of the whole file first), keeping the order of
/// those at one place.
inline void sort_by_location(std::vector<diagnostic>& diagnostics) {
    std::stable_sort(diagnostics.begin(), diagnostics.end(),
                     [](const diagnostic& a, const diagnostic& b) {
                         if (a.where.line != b.where.line) return a.where.line < b.where.line;
                         return a.where.column < b.where.column;
                     });
}

}  // namespace canopy::detail
