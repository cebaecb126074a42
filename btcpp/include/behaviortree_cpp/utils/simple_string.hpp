#pragma once

// SafeAny::SimpleString, BehaviorTree.CPP's 16-byte string: up to 15 characters live in the
// object itself, longer ones on the heap. Canopy's Any does not use it; it is here for the
// programs that do.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace SafeAny {

class SimpleString {
public:
    /// The longest string it holds: longer throws std::invalid_argument.
    static constexpr std::size_t MAX_SIZE = 100UL * 1024UL * 1024UL;

    SimpleString() { assign("", 0); }
    SimpleString(const char* text) : SimpleString(text, std::strlen(text)) {}          // NOLINT
    SimpleString(const std::string& text) : SimpleString(text.data(), text.size()) {}  // NOLINT
    SimpleString(std::string_view text) : SimpleString(text.data(), text.size()) {}    // NOLINT
    SimpleString(const char* text, std::size_t size) {
        if (size > MAX_SIZE) throw std::invalid_argument("SimpleString: the text is too long");
        assign(text, size);
    }
    SimpleString(const SimpleString& other) { assign(other.data(), other.size()); }
    SimpleString(SimpleString&& other) noexcept {
        std::memcpy(bytes_, other.bytes_, sizeof bytes_);
        other.assign("", 0);
    }
    SimpleString& operator=(const SimpleString& other) {
        if (this != &other) {
            release();
            assign(other.data(), other.size());
        }
        return *this;
    }
    SimpleString& operator=(SimpleString&& other) noexcept {
        if (this != &other) {
            release();
            std::memcpy(bytes_, other.bytes_, sizeof bytes_);
            other.assign("", 0);
        }
        return *this;
    }
    ~SimpleString() { release(); }

    [[nodiscard]] const char* data() const {
        if (isSOO()) return bytes_;
        const char* text = nullptr;
        std::memcpy(&text, bytes_, sizeof text);
        return text;
    }
    [[nodiscard]] std::size_t size() const {
        if (isSOO()) return kInline - static_cast<unsigned char>(bytes_[kInline]);
        std::uint32_t size = 0;
        std::memcpy(&size, bytes_ + sizeof(char*), sizeof size);
        return size;
    }
    [[nodiscard]] bool empty() const { return size() == 0; }
    /// Whether the text lives in the object (small-object optimisation).
    [[nodiscard]] bool isSOO() const {
        return static_cast<unsigned char>(bytes_[kInline]) != kHeap;
    }
    [[nodiscard]] std::string toStdString() const { return {data(), size()}; }
    [[nodiscard]] std::string_view toStdStringView() const { return {data(), size()}; }

    friend bool operator==(const SimpleString& a, const SimpleString& b) {
        return a.toStdStringView() == b.toStdStringView();
    }
    friend bool operator!=(const SimpleString& a, const SimpleString& b) { return !(a == b); }
    friend bool operator<(const SimpleString& a, const SimpleString& b) {
        return a.toStdStringView() < b.toStdStringView();
    }
    friend bool operator>(const SimpleString& a, const SimpleString& b) { return b < a; }
    friend bool operator<=(const SimpleString& a, const SimpleString& b) { return !(b < a); }
    friend bool operator>=(const SimpleString& a, const SimpleString& b) { return !(a < b); }

private:
    // Inline, the last byte holds 15 minus the size, so that a 15-character text's last byte
    // is its terminating zero. On the heap, the first bytes hold the pointer, the next four
    // the size (MAX_SIZE fits), and the last byte says so.
    static constexpr std::size_t kInline = 15;
    static constexpr unsigned char kHeap = 0x80;
    static_assert(sizeof(char*) + sizeof(std::uint32_t) < kInline + 1);
    static_assert(MAX_SIZE <= UINT32_MAX);

    void assign(const char* text, std::size_t size) {
        if (size <= kInline) {
            std::memcpy(bytes_, text, size);
            bytes_[size] = '\0';
            bytes_[kInline] = static_cast<char>(kInline - size);
        } else {
            char* copy = new char[size + 1];
            std::memcpy(copy, text, size);
            copy[size] = '\0';
            const auto stored_size = static_cast<std::uint32_t>(size);
            std::memcpy(bytes_, &copy, sizeof copy);
            std::memcpy(bytes_ + sizeof copy, &stored_size, sizeof stored_size);
            bytes_[kInline] = static_cast<char>(kHeap);
        }
    }
    void release() {
        if (!isSOO()) delete[] data();
    }

    alignas(8) char bytes_[kInline + 1];
};

}  // namespace SafeAny
