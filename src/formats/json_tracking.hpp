#pragma once
// Shared by the JSON readers: nlohmann's SAX parser reports values, not where they are, so the
// text is fed through an iterator that records how far the parser has read.

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

namespace canopy::detail {

// Walks the text like a const char* and records how far the parser has read, so that the
// handler knows where each token ends.
class tracking_iterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    tracking_iterator(const char* at, const char** reached) : at_(at), reached_(reached) {}
    reference operator*() const { return *at_; }
    tracking_iterator& operator++() {
        *reached_ = ++at_;
        return *this;
    }
    tracking_iterator operator++(int) {
        tracking_iterator old = *this;
        ++*this;
        return old;
    }
    friend bool operator!=(const tracking_iterator& a, const tracking_iterator& b) {
        return a.at_ != b.at_;
    }

private:
    const char* at_;
    const char** reached_;
};

/// nlohmann's parse error as the readers report it, without the location nlohmann gives ("at
/// line 1, column 6": the reader gives its own) and without the echo of the last token read,
/// which may not even be UTF-8: "syntax error while parsing value - ...".
inline std::string parse_error_text(std::string_view what) {
    const std::size_t detail = what.find(": ", what.find("column"));
    std::string message =
        detail == std::string_view::npos ? std::string(what) : std::string(what.substr(detail + 2));
    if (const std::size_t echo = message.find("; last read:"); echo != std::string::npos) {
        message.erase(echo);
    }
    return message;
}

}  // namespace canopy::detail
