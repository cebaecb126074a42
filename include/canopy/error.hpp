#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "canopy/diagnostic.hpp"

namespace canopy {

/// Base of every exception Canopy throws.
class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A registry refused a registration (duplicate name or id, empty name, bad default).
class registry_error : public error {
public:
    using error::error;
};

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
