#pragma once
// Where the problems found in one file go: readers, the builder and the loader report each
// with its place, and the sink adds the file's path and puts them in file order.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "canopy/core/diagnostic.hpp"

namespace canopy::detail {

class diagnostic_sink {
public:
    /// Reports into `out`, naming the file `path`; both must outlive the sink.
    diagnostic_sink(const std::string& path, std::vector<diagnostic>& out)
        : path_(&path), out_(&out) {}

    /// A problem at `where` (line and column 0 where unknown), about a record if its id is
    /// known.
    void report(source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record_id = std::nullopt) {
        out_->push_back({*path_, where, record_id, code, std::move(message)});
    }
    /// Something likely wrong that does not stop the load (diagnostic_severity::warning).
    void warn(source_location where, diagnostic_code code, std::string message,
              std::optional<std::int64_t> record_id = std::nullopt) {
        out_->push_back(
            {*path_, where, record_id, code, std::move(message), diagnostic_severity::warning});
    }
    /// A problem of the whole file.
    void report_file(diagnostic_code code, std::string message) {
        report({}, code, std::move(message));
    }

    bool empty() const noexcept { return out_->empty(); }

    /// Puts diagnostics in file order (problems of the whole file first), keeping the order
    /// of those at one place.
    static void sort(std::vector<diagnostic>& diagnostics) {
        std::stable_sort(diagnostics.begin(), diagnostics.end(),
                         [](const diagnostic& a, const diagnostic& b) {
                             if (a.where.line != b.where.line) return a.where.line < b.where.line;
                             return a.where.column < b.where.column;
                         });
    }

private:
    const std::string* path_;
    std::vector<diagnostic>* out_;
};

}  // namespace canopy::detail
