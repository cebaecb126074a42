// Placeholder until the reader lands.
#include "readers.hpp"

namespace canopy::detail {

read_result read_behavior3(std::string_view, const std::string& path) {
    read_result result;
    result.complete = false;
    result.diagnostics.push_back(
        {path, {}, std::nullopt, diagnostic_code::unknown_format, "not yet"});
    return result;
}

bool claims_behavior3(std::string_view) {
    return false;
}

}  // namespace canopy::detail
