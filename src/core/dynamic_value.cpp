#include "canopy/core/dynamic_value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "canopy/core/error.hpp"
#include "core/bytes.hpp"
#include "core/json_text.hpp"
#include "core/value_sharing.hpp"

namespace canopy {
namespace {

// A string as JavaScript's Number(text) reads it: spaces around, empty is 0; decimal with an
// optional sign (past the largest double an infinity, as "1e999"), `Infinity` with one, and
// 0x, 0o, 0b integers without; anything else (`inf`, `nan`, `1_000`) is NaN.
double text_number(std::string_view text) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    if (text.empty()) return 0;
    if (text.size() > 2 && text[0] == '0') {
        const char form = static_cast<char>(text[1] | 0x20);
        const int base = form == 'x' ? 16 : form == 'o' ? 8 : form == 'b' ? 2 : 0;
        if (base != 0) {
            double value = 0;
            for (const char c : text.substr(2)) {
                const int digit = c >= '0' && c <= '9'   ? c - '0'
                                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                         : base;
                if (digit >= base) return nan;
                value = value * base + digit;
            }
            return value;
        }
    }
    const bool negative = text.front() == '-';
    if (text.front() == '+' || negative) text.remove_prefix(1);
    if (text == "Infinity")
        return negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
    // from_chars also reads "inf" and "nan", which JavaScript does not.
    if (text.empty() || !(text.front() == '.' || (text.front() >= '0' && text.front() <= '9')))
        return nan;
    double value = 0;
    const auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size()) return nan;
    if (problem == std::errc::result_out_of_range) {
        // Too large or too small for a double: strtod gives the infinity or the zero that
        // JavaScript gives (the text is known to be decimal digits by now).
        value = std::strtod(std::string(text).c_str(), nullptr);
    } else if (problem != std::errc()) {
        return nan;
    }
    return negative ? -value : value;
}

// An array index as JavaScript reads a property key: a whole number from 0, given as a number
// or as its canonical text.
bool index_of(const dynamic_value& key, std::size_t size, std::size_t& index) {
    double number = 0;
    if (key.is_number()) {
        number = key.number();
    } else if (key.is_string()) {
        const std::string& text = key.string();
        if (text.empty() || text.size() > 15 || (text.size() > 1 && text[0] == '0')) return false;
        if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        number = std::strtod(text.c_str(), nullptr);
    } else {
        return false;
    }
    if (!(number >= 0) || number != std::floor(number) || number >= static_cast<double>(size))
        return false;
    index = static_cast<std::size_t>(number);
    return true;
}

void write_string(std::string& out, const std::string& text) {
    out += '"';
    detail::append_json_escaped(out, text);
    out += '"';
}

void write_json(std::string& out, const dynamic_value& value) {
    switch (value.type()) {
        case dynamic_value::kind::null: out += "null"; break;
        case dynamic_value::kind::boolean: out += value.boolean() ? "true" : "false"; break;
        case dynamic_value::kind::number: {
            const double number = value.number();
            if (!std::isfinite(number)) {
                out += "null";
            } else if (number == 0) {
                out += '0';  // -0 too, as JSON.stringify writes it
            } else {
                out += text::of_number(number);
            }
            break;
        }
        case dynamic_value::kind::string: write_string(out, value.string()); break;
        case dynamic_value::kind::array: {
            out += '[';
            bool first = true;
            for (const dynamic_value& element : *value.array()) {
                if (!first) out += ',';
                first = false;
                write_json(out, element);
            }
            out += ']';
            break;
        }
        case dynamic_value::kind::object: {
            out += '{';
            bool first = true;
            for (const auto& [name, field] : *value.object()) {
                if (!first) out += ',';
                first = false;
                write_string(out, name);
                out += ':';
                write_json(out, field);
            }
            out += '}';
            break;
        }
    }
}

// JSON text to a value, by recursive descent bounded by max_depth.
class json_parser {
public:
    explicit json_parser(std::string_view text) : text_(text) {}

    dynamic_value whole() {
        dynamic_value value = parse(0);
        skip_space();
        if (at_ < text_.size()) fail("unexpected text after the value");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw error(error_code::param,
                    "not JSON at column " + std::to_string(at_ + 1) + ": " + why);
    }
    void skip_space() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }
    bool take(char c) {
        skip_space();
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!take(c)) fail(std::string("expected '") + c + "'");
    }
    bool word(std::string_view w) {
        if (text_.substr(at_, w.size()) != w) return false;
        at_ += w.size();
        return true;
    }

    dynamic_value parse(int depth) {
        if (depth >= dynamic_value::max_depth)
            fail("nested deeper than " + std::to_string(dynamic_value::max_depth) + " levels");
        skip_space();
        if (at_ >= text_.size()) fail("expected a value");
        const char c = text_[at_];
        if (c == '[') {
            ++at_;
            dynamic_value::array_type elements;
            if (!take(']')) {
                do {
                    elements.push_back(parse(depth + 1));
                } while (take(','));
                expect(']');
            }
            return {std::move(elements)};
        }
        if (c == '{') {
            ++at_;
            dynamic_value::object_type fields;
            if (!take('}')) {
                do {
                    skip_space();
                    if (at_ >= text_.size() || text_[at_] != '"') fail("expected a field name");
                    std::string name = string();
                    expect(':');
                    dynamic_value field = parse(depth + 1);
                    auto same = std::find_if(fields.begin(), fields.end(),
                                             [&](const auto& f) { return f.first == name; });
                    if (same != fields.end()) {
                        same->second = std::move(field);  // the last one, as JSON.parse
                    } else {
                        fields.emplace_back(std::move(name), std::move(field));
                    }
                } while (take(','));
                expect('}');
            }
            return {std::move(fields)};
        }
        if (c == '"') return {string()};
        if (word("null")) return {};
        if (word("true")) return {true};
        if (word("false")) return {false};
        return {number()};
    }

    double number() {
        const std::size_t start = at_;
        if (at_ < text_.size() && text_[at_] == '-') ++at_;
        const auto digits = [&] {
            const std::size_t from = at_;
            while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
            return at_ - from;
        };
        const std::size_t whole = at_;
        if (digits() == 0) {
            at_ = start;
            fail("expected a value");
        }
        if (text_[whole] == '0' && at_ - whole > 1) {
            at_ = whole + 1;
            fail("a number does not start with 0");
        }
        if (at_ < text_.size() && text_[at_] == '.') {
            ++at_;
            if (digits() == 0) fail("expected digits after '.'");
        }
        if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            ++at_;
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
            if (digits() == 0) fail("expected the exponent's digits");
        }
        double value = 0;
        std::from_chars(text_.data() + start, text_.data() + at_, value);
        return value;
    }

    std::string string() {
        ++at_;  // the opening quote
        std::string out;
        while (true) {
            if (at_ >= text_.size()) fail("a string without its closing '\"'");
            const char c = text_[at_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at_ >= text_.size()) fail("a string without its closing '\"'");
            const char escaped = text_[at_++];
            switch (escaped) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': append_utf8(out, code_point()); break;
                default: --at_; fail("an unknown escape");
            }
        }
    }

    std::uint32_t hex4() {
        if (at_ + 4 > text_.size()) fail("\\u needs four hexadecimal digits");
        std::uint32_t value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = text_[at_++];
            value <<= 4;
            if (c >= '0' && c <= '9') {
                value |= static_cast<std::uint32_t>(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                value |= static_cast<std::uint32_t>(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                value |= static_cast<std::uint32_t>(c - 'A' + 10);
            } else {
                --at_;
                fail("\\u needs four hexadecimal digits");
            }
        }
        return value;
    }
    // A \u escape, joined with the low half that follows a high surrogate; a lone half
    // becomes U+FFFD, as the text could not be written in UTF-8 otherwise.
    std::uint32_t code_point() {
        const std::uint32_t first = hex4();
        if (first >= 0xD800 && first <= 0xDBFF && text_.substr(at_, 2) == "\\u") {
            const std::size_t back = at_;
            at_ += 2;
            const std::uint32_t second = hex4();
            if (second >= 0xDC00 && second <= 0xDFFF)
                return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            at_ = back;
        }
        return first >= 0xD800 && first <= 0xDFFF ? 0xFFFD : first;
    }
    static void append_utf8(std::string& out, std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

}  // namespace

const dynamic_value& dynamic_value::missing() noexcept {
    static const dynamic_value undefined;
    return undefined;
}

const dynamic_value::array_type* dynamic_value::array() const noexcept {
    const auto* shared = std::get_if<std::shared_ptr<array_type>>(&value_);
    return shared != nullptr ? shared->get() : nullptr;
}

dynamic_value::array_type* dynamic_value::mutable_array() {
    auto* shared = std::get_if<std::shared_ptr<array_type>>(&value_);
    if (shared == nullptr) return nullptr;
    if (shared->use_count() > 1) *shared = std::make_shared<array_type>(**shared);
    return shared->get();
}

const dynamic_value::object_type* dynamic_value::object() const noexcept {
    const auto* shared = std::get_if<std::shared_ptr<object_type>>(&value_);
    return shared != nullptr ? shared->get() : nullptr;
}

dynamic_value::object_type* dynamic_value::mutable_object() {
    auto* shared = std::get_if<std::shared_ptr<object_type>>(&value_);
    if (shared == nullptr) return nullptr;
    if (shared->use_count() > 1) *shared = std::make_shared<object_type>(**shared);
    return shared->get();
}

dynamic_value::array_type* dynamic_value::shared_array() const noexcept {
    const auto* shared = std::get_if<std::shared_ptr<array_type>>(&value_);
    return shared != nullptr ? shared->get() : nullptr;
}

dynamic_value::object_type* dynamic_value::shared_object() const noexcept {
    const auto* shared = std::get_if<std::shared_ptr<object_type>>(&value_);
    return shared != nullptr ? shared->get() : nullptr;
}

const void* dynamic_value::identity() const noexcept {
    if (const array_type* elements = array()) return elements;
    return object();
}

dynamic_value dynamic_value::clone() const {
    if (const array_type* elements = array()) {
        array_type copy;
        copy.reserve(elements->size());
        for (const dynamic_value& e : *elements) copy.push_back(e.clone());
        return {std::move(copy)};
    }
    if (const object_type* fields = object()) {
        object_type copy;
        copy.reserve(fields->size());
        for (const auto& [name, value] : *fields) copy.emplace_back(name, value.clone());
        return {std::move(copy)};
    }
    return *this;
}

double dynamic_value::text_to_number(std::string_view text) noexcept {
    return text_number(text);
}

const dynamic_value& dynamic_value::at(const dynamic_value& key) const noexcept {
    if (const array_type* elements = array()) {
        std::size_t index = 0;
        return index_of(key, elements->size(), index) ? (*elements)[index] : missing();
    }
    if (object() == nullptr) return missing();
    if (key.is_string()) return field(key.string());
    if (key.is_number()) {
        // A number names the field of its text (obj[1] is obj["1"]).
        std::string name;
        write_json(name, key);
        return field(name);
    }
    return missing();
}

const dynamic_value& dynamic_value::field(std::string_view name) const noexcept {
    const object_type* fields = object();
    if (fields == nullptr) return missing();
    for (const auto& [field_name, value] : *fields) {
        if (field_name == name) return value;
    }
    return missing();
}

double dynamic_value::to_number() const noexcept {
    switch (type()) {
        case kind::null: return 0;
        case kind::boolean: return boolean() ? 1 : 0;
        case kind::number: return number();
        case kind::string: return text_number(string());
        case kind::array: {
            const array_type& elements = *array();
            if (elements.empty()) return 0;
            if (elements.size() == 1) {
                const dynamic_value& only = elements.front();
                if (only.is_null()) return 0;
                if (only.is_number() || only.is_string() || only.is_array())
                    return only.to_number();
            }
            return std::numeric_limits<double>::quiet_NaN();
        }
        case kind::object: return std::numeric_limits<double>::quiet_NaN();
    }
    return 0;
}

bool dynamic_value::truthy() const noexcept {
    switch (type()) {
        case kind::null: return false;
        case kind::boolean: return boolean();
        case kind::number: return number() != 0 && !std::isnan(number());
        case kind::string: return !string().empty();
        default: return true;
    }
}

bool operator==(const dynamic_value& a, const dynamic_value& b) noexcept {
    if (a.type() != b.type()) return false;
    switch (a.type()) {
        case dynamic_value::kind::null: return true;
        case dynamic_value::kind::boolean: return a.boolean() == b.boolean();
        case dynamic_value::kind::number: return a.number() == b.number();
        case dynamic_value::kind::string: return a.string() == b.string();
        case dynamic_value::kind::array: return a.array() == b.array() || *a.array() == *b.array();
        case dynamic_value::kind::object: {
            const dynamic_value::object_type& left = *a.object();
            const dynamic_value::object_type& right = *b.object();
            if (&left == &right) return true;
            if (left.size() != right.size()) return false;
            for (const auto& field : left) {
                const auto same = std::find_if(right.begin(), right.end(), [&](const auto& f) {
                    return f.first == field.first;
                });
                if (same == right.end() || !(same->second == field.second)) return false;
            }
            return true;
        }
    }
    return false;
}

int dynamic_value::depth() const noexcept {
    int deepest = 0;
    if (const array_type* elements = array()) {
        for (const dynamic_value& element : *elements) deepest = std::max(deepest, element.depth());
        return deepest + 1;
    }
    if (const object_type* fields = object()) {
        for (const auto& field : *fields) deepest = std::max(deepest, field.second.depth());
        return deepest + 1;
    }
    return 0;
}

std::string dynamic_value::to_json() const {
    std::string out;
    write_json(out, *this);
    return out;
}

dynamic_value dynamic_value::from_json(std::string_view text) {
    return json_parser(text).whole();
}

namespace detail {

struct value_sharing_scope::tables {
    std::unordered_map<const void*, std::uint32_t> written;  // an array or object -> its name
    std::unordered_map<std::uint32_t, dynamic_value> read;   // a name -> the value made for it
};

namespace {
thread_local value_sharing_scope::tables* active_sharing = nullptr;
// The bit of a value's kind byte that says a name of the array or object it shares follows.
constexpr std::uint8_t shared_bit = 0x80;
}  // namespace

value_sharing_scope::value_sharing_scope() {
    if (active_sharing != nullptr) return;
    own_ = std::make_unique<tables>();
    active_sharing = own_.get();
}

value_sharing_scope::~value_sharing_scope() {
    if (own_ != nullptr) active_sharing = nullptr;
}

}  // namespace detail

void dynamic_value::append_bytes(std::string& out) const {
    const void* shared = identity();
    const bool named = shared != nullptr && detail::active_sharing != nullptr &&
                       std::visit(
                           [](const auto& held) {
                               if constexpr (std::is_same_v<std::decay_t<decltype(held)>,
                                                            std::shared_ptr<array_type>> ||
                                             std::is_same_v<std::decay_t<decltype(held)>,
                                                            std::shared_ptr<object_type>>)
                                   return held.use_count() > 1;
                               return false;
                           },
                           value_);
    detail::put(out, static_cast<std::uint8_t>(static_cast<std::uint8_t>(type()) |
                                               (named ? detail::shared_bit : 0)));
    if (named) {
        auto& written = detail::active_sharing->written;
        const auto [at, fresh] =
            written.emplace(shared, static_cast<std::uint32_t>(written.size()));
        detail::put(out, at->second);
    }
    switch (type()) {
        case kind::null: break;
        case kind::boolean: detail::put(out, static_cast<std::uint8_t>(boolean())); break;
        case kind::number: detail::put(out, number()); break;
        case kind::string: detail::put_text(out, string()); break;
        case kind::array:
            detail::put(out, static_cast<std::uint32_t>(array()->size()));
            for (const dynamic_value& element : *array()) element.append_bytes(out);
            break;
        case kind::object:
            detail::put(out, static_cast<std::uint32_t>(object()->size()));
            for (const auto& [name, field] : *object()) {
                detail::put_text(out, name);
                field.append_bytes(out);
            }
            break;
    }
}

namespace {

dynamic_value read_value(detail::byte_reader& in, int depth);
dynamic_value read_value_of_kind(detail::byte_reader& in, int depth, std::uint8_t tag);

// An array or object whose bytes name it shared: the first value read under a name is kept, and
// every later one gives it back (its own bytes, the same content, read past).
dynamic_value read_shared(detail::byte_reader& in, int depth, std::uint8_t kind) {
    const auto name = in.get<std::uint32_t>("a shared value's name");
    dynamic_value value = read_value_of_kind(in, depth, kind);
    if (detail::active_sharing == nullptr) return value;
    return detail::active_sharing->read.emplace(name, std::move(value)).first->second;
}

dynamic_value read_value(detail::byte_reader& in, int depth) {
    if (depth > dynamic_value::max_depth) in.fail("a value", "nested too deep");
    const auto tag = in.get<std::uint8_t>("a value's kind");
    const auto kind = static_cast<std::uint8_t>(tag & ~detail::shared_bit);
    if ((tag & detail::shared_bit) != 0) {
        if (kind != static_cast<std::uint8_t>(dynamic_value::kind::array) &&
            kind != static_cast<std::uint8_t>(dynamic_value::kind::object))
            in.fail("a value's kind", "no shared kind " + std::to_string(kind));
        return read_shared(in, depth, kind);
    }
    return read_value_of_kind(in, depth, kind);
}

dynamic_value read_value_of_kind(detail::byte_reader& in, int depth, std::uint8_t tag) {
    switch (static_cast<dynamic_value::kind>(tag)) {
        case dynamic_value::kind::null: return {};
        case dynamic_value::kind::boolean: return in.get<std::uint8_t>("a boolean") != 0;
        case dynamic_value::kind::number: return in.get<double>("a number");
        case dynamic_value::kind::string: return std::string(in.get_text("a string"));
        case dynamic_value::kind::array: {
            dynamic_value::array_type elements(in.get_count(1, "an array's length"));
            for (dynamic_value& element : elements) element = read_value(in, depth + 1);
            return elements;
        }
        case dynamic_value::kind::object: {
            dynamic_value::object_type fields(in.get_count(5, "an object's size"));
            for (auto& [name, field] : fields) {
                name = std::string(in.get_text("a field's name"));
                field = read_value(in, depth + 1);
            }
            return fields;
        }
    }
    in.fail("a value's kind", "no kind " + std::to_string(tag));
}

}  // namespace

dynamic_value dynamic_value::from_bytes(std::string_view bytes) {
    detail::byte_reader in(bytes);
    dynamic_value value = read_value(in, 0);
    if (!in.done()) in.fail("a value", "bytes left after it");
    return value;
}

std::shared_ptr<const value_type> dynamic_value_type() {
    static const std::shared_ptr<const value_type> type = [] {
        auto made = std::const_pointer_cast<value_type>(make_value_type<dynamic_value>(
            "json", [](std::string_view text) { return dynamic_value::from_json(text); },
            [](const dynamic_value& value) { return value.to_json(); }));
        made->save = [](const void* value) {
            std::string bytes;
            static_cast<const dynamic_value*>(value)->append_bytes(bytes);
            return bytes;
        };
        made->restore = [](void* at, std::string_view saved) {
            *static_cast<dynamic_value*>(at) = dynamic_value::from_bytes(saved);
        };
        return std::shared_ptr<const value_type>(std::move(made));
    }();
    return type;
}

}  // namespace canopy
