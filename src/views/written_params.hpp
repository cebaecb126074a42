#pragma once
// A node's parameters as its file wrote them, one by one: what the views show, read back from
// the text a tree keeps of them (tree::written_params), so that a view speaks the file's words
// as `canopy print` does.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/run/tree.hpp"

namespace canopy::detail {

/// One parameter as written: its name and its value as JSON (`"100"` for an XML attribute,
/// `0.5` or `true` from a JSON file).
struct written_param {
    std::string name;
    std::string json;

    bool is_string() const noexcept { return !json.empty() && json.front() == '"'; }
    /// The value as an attribute or a person reads it: a string's text unescaped, any other
    /// value as its JSON.
    std::string text() const;
    /// Whether it names a blackboard key: `{key}`, `{@key}` (a string in braces).
    bool names_key() const {
        return is_string() && json.size() > 4 && json[1] == '{' && json[json.size() - 2] == '}';
    }
    /// The value as a view shows it: a key as the file wrote it (`{@key}`), any other value as
    /// its JSON (`"text"`, `3`).
    std::string shown() const { return names_key() ? text() : json; }
};

/// Splits tree::written_params' text (` name=value` each, values as JSON) into parameters.
/// A name may hold spaces or '=' (a JSON file's key may): it ends at the first '=' that a whole
/// value follows, to the end of the text or a space. Only a name that itself holds `=VALUE `
/// could be split otherwise than it was written.
std::vector<written_param> split_written_params(std::string_view text);

namespace written {

// One past the end of the JSON string that starts at `at` (a '"'), or npos when it is not
// closed.
inline std::size_t string_end(std::string_view text, std::size_t at) {
    for (std::size_t k = at + 1; k < text.size(); ++k) {
        if (text[k] == '\\') {
            ++k;
        } else if (text[k] == '"') {
            return k + 1;
        }
    }
    return std::string_view::npos;
}

// Whether text is a JSON literal other than a string, as the printer writes one: true,
// false, or a number.
inline bool is_bare_value(std::string_view text) {
    if (text == "true" || text == "false" || text == "null") return true;
    if (text.empty()) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    });
}

inline void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

inline std::uint32_t hex4(std::string_view text, std::size_t at) {
    std::uint32_t code = 0;
    for (std::size_t k = at; k < at + 4 && k < text.size(); ++k) {
        const char c = text[k];
        const std::uint32_t digit =
            c >= '0' && c <= '9'   ? static_cast<std::uint32_t>(c - '0')
            : c >= 'a' && c <= 'f' ? static_cast<std::uint32_t>(c - 'a' + 10)
            : c >= 'A' && c <= 'F' ? static_cast<std::uint32_t>(c - 'A' + 10)
                                   : 0;
        code = code * 16 + digit;
    }
    return code;
}

}  // namespace written

inline std::string written_param::text() const {
    if (!is_string()) return json;
    std::string out;
    const std::string_view inside = std::string_view(json).substr(1, json.size() - 2);
    for (std::size_t k = 0; k < inside.size(); ++k) {
        if (inside[k] != '\\' || k + 1 == inside.size()) {
            out += inside[k];
            continue;
        }
        switch (inside[++k]) {
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t code = written::hex4(inside, k + 1);
                k += 4;
                // A pair of surrogates is one character.
                if (code >= 0xD800 && code < 0xDC00 && k + 6 < inside.size() &&
                    inside.substr(k + 1, 2) == "\\u") {
                    const std::uint32_t low = written::hex4(inside, k + 3);
                    if (low >= 0xDC00 && low < 0xE000) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        k += 6;
                    }
                }
                written::append_utf8(out, code);
                break;
            }
            default: out += inside[k];  // '"', '\\', '/'
        }
    }
    return out;
}

inline std::vector<written_param> split_written_params(std::string_view text) {
    std::vector<written_param> params;
    std::size_t at = 0;
    while (at < text.size() && text[at] == ' ') {
        const std::size_t name_start = at + 1;
        std::size_t value_end = std::string_view::npos;
        std::size_t equals = text.find('=', name_start);
        for (; equals != std::string_view::npos; equals = text.find('=', equals + 1)) {
            const std::size_t value_start = equals + 1;
            std::size_t end = std::string_view::npos;
            if (value_start < text.size() && text[value_start] == '"') {
                end = written::string_end(text, value_start);
            } else {
                end = std::min(text.find(' ', value_start), text.size());
                if (!written::is_bare_value(text.substr(value_start, end - value_start)))
                    end = std::string_view::npos;
            }
            if (end != std::string_view::npos && (end == text.size() || text[end] == ' ')) {
                value_end = end;
                break;
            }
        }
        if (value_end == std::string_view::npos) {
            // Not as the printer writes it: the rest is shown as one name, rather than lost.
            params.push_back({std::string(text.substr(name_start)), "\"\""});
            break;
        }
        params.push_back({std::string(text.substr(name_start, equals - name_start)),
                          std::string(text.substr(equals + 1, value_end - equals - 1))});
        at = value_end;
    }
    return params;
}

/// Node i's parameters as its file wrote them.
inline std::vector<written_param> written_params_of(const tree& t, tree::index i) {
    return split_written_params(t.written_params(i));
}

}  // namespace canopy::detail
