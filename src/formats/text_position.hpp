#pragma once

#include <cstring>
#include <string_view>

#include "canopy/core/source_location.hpp"

namespace canopy::detail {

/// Turns byte offsets into 1-based line and column (in code points) within one text. Offsets
/// usually come in increasing order, so it walks forward from the last one, finding newlines
/// with memchr; an earlier offset restarts the walk from the top.
class text_position {
public:
    explicit text_position(std::string_view text) : text_(text) {}

    source_location at(std::size_t offset) {
        if (offset > text_.size()) offset = text_.size();
        if (offset < scanned_) {
            scanned_ = 0;
            line_ = 1;
            column_ = 1;
        }
        const char* base = text_.data();
        while (const void* newline = std::memchr(base + scanned_, '\n', offset - scanned_)) {
            scanned_ = static_cast<std::size_t>(static_cast<const char*>(newline) - base) + 1;
            ++line_;
            column_ = 1;
        }
        // Counted from the last offset, not the line start, so that a file on one long line
        // (minified JSON) costs linear time, not quadratic.
        for (; scanned_ < offset; ++scanned_) {
            // UTF-8 continuation bytes (10xxxxxx) do not start a character.
            if ((static_cast<unsigned char>(base[scanned_]) & 0xC0) != 0x80) ++column_;
        }
        return {line_, column_};
    }

private:
    std::string_view text_;
    std::size_t scanned_ = 0;
    std::uint32_t line_ = 1;
    std::uint32_t column_ = 1;  // the column at scanned_
};

}  // namespace canopy::detail
