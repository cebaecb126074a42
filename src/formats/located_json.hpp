#pragma once
// A flat, located copy of a JSON text, filled by nlohmann's SAX parser (iterative): one vector
// of values linked by index, so that neither building it, reading it nor freeing it recurses,
// whatever the depth, and every value and key knows where it stands. For readers that need
// the whole text before they can judge it (behavior3 files, substitution rules).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/source_location.hpp"
#include "core/diagnostic_sink.hpp"
#include "core/json_text.hpp"
#include "formats/json_tracking.hpp"
#include "formats/text_position.hpp"

namespace canopy::detail::json_copy {

using json = nlohmann::json;

/// The index of no value: an empty container's first, a last element's next, a missing member.
inline constexpr std::uint32_t no_value = 0xFFFFFFFF;

enum class kind : std::uint8_t { null, boolean, integer, number, string, array, object };

struct jvalue {
    kind type = kind::null;
    bool boolean = false;
    bool big_integer = false;  // an integer beyond 64 bits, kept as a number
    std::int64_t integer = 0;
    double number = 0;
    std::string text;  // a string's value
    std::string key;   // its name in the object that holds it
    source_location where;
    source_location key_where;
    std::uint32_t first = no_value;  // the first element or member
    std::uint32_t last = no_value;
    std::uint32_t next = no_value;  // the next element or member of the same container
    std::uint32_t size = 0;
};

inline std::string_view kind_name(const jvalue& v) {
    switch (v.type) {
        case kind::null: return "null";
        case kind::boolean: return "a boolean";
        case kind::integer: return "an integer";
        case kind::number: return v.big_integer ? "an integer beyond 64 bits" : "a number";
        case kind::string: return "a string";
        case kind::array: return "an array";
        default: return "an object";
    }
}

// final: sax_parse is a template over the handler type, so the calls are not virtual.
class located_copy final : public nlohmann::json_sax<json> {
public:
    located_copy(std::string_view text, std::vector<jvalue>& values, diagnostic_sink& sink,
                 bool& complete, std::size_t start = 0)
        : text_(text),
          values_(values),
          sink_(sink),
          complete_(complete),
          position_(text),
          reached_(text.data() + start),
          previous_end_(start) {}

    const char** reached() { return &reached_; }

    bool null() override {
        add(token_start(), kind::null);
        return true;
    }
    bool boolean(bool value) override {
        values_[add(token_start(), kind::boolean)].boolean = value;
        return true;
    }
    bool number_integer(std::int64_t value) override {
        values_[add(token_start(), kind::integer)].integer = value;
        return true;
    }
    bool number_unsigned(std::uint64_t value) override {
        const std::size_t start = token_start();
        if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            jvalue& v = values_[add(start, kind::number)];
            v.number = static_cast<double>(value);
            v.big_integer = true;
        } else {
            values_[add(start, kind::integer)].integer = static_cast<std::int64_t>(value);
        }
        return true;
    }
    bool number_float(double value, const std::string& written) override {
        jvalue& v = values_[add(token_start(), kind::number)];
        v.number = value;
        // nlohmann reads an integer below the 64-bit range as a float.
        v.big_integer = written.find_first_of(".eE") == std::string::npos;
        return true;
    }
    bool string(std::string& value) override {
        values_[add(token_start(), kind::string)].text = std::move(value);
        return true;
    }
    bool binary(binary_t& /*value*/) override { return true; }  // JSON text has none
    bool start_object(std::size_t /*elements*/) override {
        open_.push_back(add(token_start(), kind::object));
        return true;
    }
    bool start_array(std::size_t /*elements*/) override {
        open_.push_back(add(token_start(), kind::array));
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(std::string& name) override {
        key_where_ = location(token_start());
        key_ = std::move(name);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& ex) override {
        const std::string message = parse_error_text(ex.what());
        const diagnostic_code code = message.find("UTF-8") != std::string::npos
                                         ? diagnostic_code::invalid_utf8
                                         : diagnostic_code::syntax_error;
        sink_.report(position_.at(position == 0 ? 0 : position - 1), code, "JSON " + message);
        complete_ = false;
        return false;
    }

private:
    // Where the previous token ended; the token being reported starts past the white space
    // and separator that follow (see the flat JSON reader, which does the same).
    std::size_t token_start() {
        const std::size_t previous = previous_end_;
        previous_end_ = static_cast<std::size_t>(reached_ - text_.data());
        return previous;
    }
    source_location location(std::size_t at) {
        auto skip_space = [&] {
            while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t' ||
                                         text_[at] == '\n' || text_[at] == '\r')) {
                ++at;
            }
        };
        skip_space();
        if (at < text_.size() && (text_[at] == ',' || text_[at] == ':')) {
            ++at;
            skip_space();
        }
        return position_.at(at);
    }

    std::uint32_t add(std::size_t start, kind type) {
        const auto index = static_cast<std::uint32_t>(values_.size());
        values_.emplace_back();
        jvalue& v = values_.back();
        v.type = type;
        v.where = location(start);
        if (!open_.empty()) {
            jvalue& parent = values_[open_.back()];
            if (parent.last == no_value) {
                parent.first = index;
            } else {
                values_[parent.last].next = index;
            }
            parent.last = index;
            ++parent.size;
            if (parent.type == kind::object) {
                v.key = std::move(key_);
                v.key_where = key_where_;
            }
        }
        return index;
    }
    bool close() {
        token_start();
        open_.pop_back();
        return true;
    }

    std::string_view text_;
    std::vector<jvalue>& values_;
    diagnostic_sink& sink_;
    bool& complete_;
    text_position position_;
    const char* reached_;
    std::size_t previous_end_ = 0;
    std::vector<std::uint32_t> open_;  // the containers being read, innermost last
    std::string key_;
    source_location key_where_;
};

/// Reads `text` into `values` (appended), reporting a syntax error to `sink`; false when the
/// text is not JSON. With `from` and `to`: the value text[from, to) only, located in the
/// whole text (a part of a file another reader streams).
inline bool copy_json(std::string_view text, std::vector<jvalue>& values, diagnostic_sink& sink,
                      std::size_t from = 0, std::size_t to = std::string_view::npos) {
    bool complete = true;
    located_copy copy(text, values, sink, complete, from);
    tracking_iterator first(text.data() + from, copy.reached());
    tracking_iterator last(text.data() + std::min(to, text.size()), copy.reached());
    json::sax_parse(first, last, &copy);
    return complete;
}

/// The JSON text of values[value], without recursion, whatever its depth.
inline std::string json_text(const std::vector<jvalue>& values, std::uint32_t value) {
    struct step {
        std::uint32_t index;
        bool closing;
        bool member;  // of an object: its key goes first
        bool first;   // the first of its container: no comma before it
    };
    std::string out;
    std::vector<step> todo{{value, false, false, true}};
    while (!todo.empty()) {
        const step s = todo.back();
        todo.pop_back();
        const jvalue& v = values[s.index];
        if (s.closing) {
            out += v.type == kind::object ? '}' : ']';
            continue;
        }
        if (!s.first) out += ',';
        if (s.member) {
            out += '"';
            append_json_escaped(out, v.key);
            out += "\":";
        }
        switch (v.type) {
            case kind::null: out += "null"; break;
            case kind::boolean: out += v.boolean ? "true" : "false"; break;
            case kind::integer: out += std::to_string(v.integer); break;
            case kind::number: out += text::of_number(v.number); break;
            case kind::string:
                out += '"';
                append_json_escaped(out, v.text);
                out += '"';
                break;
            default: {
                out += v.type == kind::object ? '{' : '[';
                todo.push_back({s.index, true, false, true});
                const std::size_t from = todo.size();
                for (std::uint32_t i = v.first; i != no_value; i = values[i].next) {
                    todo.push_back({i, false, v.type == kind::object, i == v.first});
                }
                std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(from), todo.end());
            }
        }
    }
    return out;
}

}  // namespace canopy::detail::json_copy
