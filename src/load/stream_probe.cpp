#include "load/stream_probe.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "formats/utf8.hpp"

namespace canopy::detail {
namespace {

// Keeps nothing, and remembers where the parser stopped. (nlohmann calls the handlers through
// a pointer; static ones serve as well.)
struct syntax_probe {
    using json = nlohmann::json;
    std::size_t error_at = std::string_view::npos;

    static bool null() { return true; }
    static bool boolean(bool /*value*/) { return true; }
    static bool number_integer(json::number_integer_t /*value*/) { return true; }
    static bool number_unsigned(json::number_unsigned_t /*value*/) { return true; }
    static bool number_float(json::number_float_t /*value*/, const json::string_t& /*text*/) {
        return true;
    }
    static bool string(json::string_t& /*value*/) { return true; }
    static bool binary(json::binary_t& /*value*/) { return true; }
    static bool start_object(std::size_t /*elements*/) { return true; }
    static bool key(json::string_t& /*value*/) { return true; }
    static bool end_object() { return true; }
    static bool start_array(std::size_t /*elements*/) { return true; }
    static bool end_array() { return true; }
    bool parse_error(std::size_t at, const std::string& /*token*/, const json::exception& /*e*/) {
        error_at = at;
        return false;
    }
};

// A token cut by the end of the bytes read (a number, a literal, an escape) makes the parser
// stop at the end or a few bytes before it; an error further back is in the text itself.
constexpr std::size_t longest_cut_token = 16;

}  // namespace

bool prefix_is_refused(std::string_view prefix, text_syntax syntax) {
    if (syntax == text_syntax::any) return false;
    // A character cut by the end of the bytes read is not yet a wrong one.
    const std::size_t invalid = first_invalid_utf8(prefix);
    if (invalid != std::string_view::npos && invalid + 4 <= prefix.size()) return true;

    if (syntax == text_syntax::xml) {
        // The XML parser reads up to the first NUL byte only: with no element before it, the
        // document is empty whatever follows.
        const std::size_t nul = prefix.find('\0');
        return nul != std::string_view::npos &&
               prefix.substr(0, nul).find('<') == std::string_view::npos;
    }
    syntax_probe probe;
    nlohmann::json::sax_parse(prefix, &probe, nlohmann::json::input_format_t::json, true, true);
    return probe.error_at != std::string_view::npos &&
           probe.error_at + longest_cut_token < prefix.size();
}

}  // namespace canopy::detail
