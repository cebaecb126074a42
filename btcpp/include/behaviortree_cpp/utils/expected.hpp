#pragma once

// nonstd::expected as BehaviorTree.CPP's node code uses it (BT::Expected<T>, BT::Result):
// a value or an error message, tested with `if(result)`, read with value(), `*` and error(),
// and made failed with nonstd::make_unexpected(message).

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace nonstd {

template <typename E>
class unexpected_type {
public:
    explicit unexpected_type(E error) : error_(std::move(error)) {}
    const E& value() const& noexcept { return error_; }
    E&& value() && noexcept { return std::move(error_); }

private:
    E error_;
};

template <typename E>
unexpected_type<std::decay_t<E>> make_unexpected(E&& error) {
    return unexpected_type<std::decay_t<E>>(std::forward<E>(error));
}
inline unexpected_type<std::string> make_unexpected(const char* error) {
    return unexpected_type<std::string>(error);
}

/// What value() throws on an expected that holds an error.
class bad_expected_access : public std::logic_error {
public:
    explicit bad_expected_access(const std::string& error) : std::logic_error(error) {}
};

template <typename T, typename E>
class expected {
public:
    using value_type = T;
    using error_type = E;

    template <typename U = T, typename = std::enable_if_t<std::is_default_constructible_v<U>>>
    expected() : held_(std::in_place_index<0>) {}
    template <typename U = T,
              typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                          !std::is_same_v<std::decay_t<U>, expected>>>
    expected(U&& value) : held_(std::in_place_index<0>, std::forward<U>(value)) {}  // NOLINT
    template <typename G>
    expected(unexpected_type<G> error)  // NOLINT(google-explicit-constructor)
        : held_(std::in_place_index<1>, E(std::move(error).value())) {}

    bool has_value() const noexcept { return held_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T& value() & {
        check();
        return std::get<0>(held_);
    }
    const T& value() const& {
        check();
        return std::get<0>(held_);
    }
    T&& value() && {
        check();
        return std::get<0>(std::move(held_));
    }
    template <typename U>
    T value_or(U&& fallback) const& {
        return has_value() ? std::get<0>(held_) : static_cast<T>(std::forward<U>(fallback));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const E& error() const& { return std::get<1>(held_); }
    E& error() & { return std::get<1>(held_); }

    /// Holds a value equal to `value`.
    template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, expected>>>
    friend bool operator==(const expected& held, const U& value) {
        return held.has_value() && std::get<0>(held.held_) == value;
    }
    template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, expected>>>
    friend bool operator==(const U& value, const expected& held) {
        return held == value;
    }
    template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, expected>>>
    friend bool operator!=(const expected& held, const U& value) {
        return !(held == value);
    }
    template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, expected>>>
    friend bool operator!=(const U& value, const expected& held) {
        return !(held == value);
    }
    /// Both hold equal values, or equal errors.
    friend bool operator==(const expected& a, const expected& b) { return a.held_ == b.held_; }
    friend bool operator!=(const expected& a, const expected& b) { return !(a == b); }

private:
    void check() const {
        if (!has_value()) {
            if constexpr (std::is_convertible_v<E, std::string>) {
                throw bad_expected_access(std::get<1>(held_));
            } else {
                throw bad_expected_access("expected holds an error");
            }
        }
    }

    std::variant<T, E> held_;
};

}  // namespace nonstd
