#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/diagnostic.hpp"

namespace canopy {

/// The kind of an exception Canopy throws. Each has a stable spelling (see `to_string`) that
/// programs and tests may match; new kinds are only ever added.
enum class error_code : std::uint8_t {
    invalid_argument,  ///< a call given what it cannot take: a negative dt, no tree, no handle
    registry,          ///< a registration refused (registry_error)
    load,              ///< a tree file that gives no valid tree (load_error)
    param,             ///< a parameter undeclared, bound where a literal is needed, of another
                       ///< type, or a value a node type refuses (param_error)
    blackboard,        ///< a blackboard key unknown, of another type, or a value too long
    host,              ///< an agent's host asked for as a type it is not (host_error)
    not_runnable,      ///< a tree whose node types lack behaviour, given to an agent
    trace,             ///< a trace file that cannot be read (trace_error)
    limit_exceeded,    ///< a size past a documented bound
    unsupported,       ///< something Canopy does not do, asked for (a palette in flat JSON)
    script,            ///< a script failed as it ran (docs/scripting.md): a value that does
                       ///< not convert, such as a real with a fraction stored in an integer key
    snapshot,          ///< a snapshot that cannot be saved or restored (agent::save, restore)
};

/// The stable spelling of a code, e.g. "invalid-argument".
std::string_view to_string(error_code code) noexcept;

/// Base of every exception Canopy throws: a message for people and a code for programs.
/// Copying never throws.
class error : public std::runtime_error {
public:
    error(error_code code, const std::string& message) : std::runtime_error(message), code_(code) {}

    error_code code() const noexcept { return code_; }

private:
    error_code code_;
};

/// A registry refused a registration (duplicate name or id, empty name, bad default).
class registry_error : public error {
public:
    explicit registry_error(const std::string& message) : error(error_code::registry, message) {}
};

/// A node's parameter was read as something it is not (undeclared, bound to a blackboard key
/// where a literal is needed, another type), or its value was refused by the node type's
/// creator. Thrown while a tree is built, it becomes an `invalid-param` diagnostic located at
/// the node's record.
class param_error : public error {
public:
    explicit param_error(const std::string& message) : error(error_code::param, message) {}
};

/// An agent's host is not of the type its tree's nodes ask for: given to an agent whose tree
/// has actions taking another host type, or read as another type with context::host<Host>().
class host_error : public error {
public:
    explicit host_error(const std::string& message) : error(error_code::host, message) {}
};

namespace detail {
// Out of line, so that Canopy's headers compile in a program built without exceptions
// (-fno-exceptions): the library, built with them, throws. See docs/engines.md.
[[noreturn]] void throw_registry_error(const std::string& message);
[[noreturn]] void throw_param_error(const std::string& message);
// Calls `f` and ignores any std::exception it throws.
void call_ignoring_errors(void (*f)());
}  // namespace detail

/// A tree file could not be loaded. Holds every problem found, not only the first;
/// `what()` renders them one per line. Copying never throws.
class load_error : public error {
public:
    explicit load_error(std::vector<diagnostic> diagnostics);

    const std::vector<diagnostic>& diagnostics() const noexcept { return *diagnostics_; }

private:
    std::shared_ptr<const std::vector<diagnostic>> diagnostics_;
};

}  // namespace canopy
