#pragma once

#include <cstdint>

namespace canopy {

/// Where something stands in a tree file. Lines and columns are 1-based; 0 means unknown.
/// Columns count Unicode code points from the start of the line, so a column points at the
/// same character whatever the editor's byte encoding. XML sources carry lines only.
struct source_location {
    std::uint32_t line = 0;
    std::uint32_t column = 0;

    friend bool operator==(source_location a, source_location b) {
        return a.line == b.line && a.column == b.column;
    }
    friend bool operator!=(source_location a, source_location b) { return !(a == b); }
};

}  // namespace canopy
