#pragma once
// Shared by the load benchmarks: the lower bound for any reader built on nlohmann's parser.

#include <nlohmann/json.hpp>

namespace canopy::bench {

/// Accepts every event and keeps nothing: what nlohmann's parser costs by itself. Not derived
/// from json_sax, so the calls need no virtual dispatch.
struct null_sax {
    using json = nlohmann::json;
    bool null() { return true; }
    bool boolean(bool /*value*/) { return true; }
    bool number_integer(json::number_integer_t /*value*/) { return true; }
    bool number_unsigned(json::number_unsigned_t /*value*/) { return true; }
    bool number_float(json::number_float_t /*value*/, const json::string_t& /*text*/) {
        return true;
    }
    bool string(json::string_t& /*value*/) { return true; }
    bool binary(json::binary_t& /*value*/) { return true; }
    bool start_object(std::size_t /*elements*/) { return true; }
    bool key(json::string_t& /*value*/) { return true; }
    bool end_object() { return true; }
    bool start_array(std::size_t /*elements*/) { return true; }
    bool end_array() { return true; }
    bool parse_error(std::size_t /*at*/, const std::string& /*token*/,
                     const json::exception& /*e*/) {
        return false;
    }
};

}  // namespace canopy::bench
