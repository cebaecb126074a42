#pragma once
// What each harness checks of one input, as functions that return the broken promise they
// find (empty when none), so that the harnesses and the regression tests
// (tests/fuzz_regression_test.cpp, over tests/data/fuzz/) run the same checks.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "canopy/formats/format.hpp"

namespace canopy::fuzz {

/// The reader alone; a document it reads cleanly is written, read again and written again,
/// and the two writes must be the same text. A text it refuses must say why.
std::string check_read(std::string_view text, file_format format);

/// The whole load with the built-in and demo types, strict then lenient; a tree that loads is
/// written in the format (where the format can say it all), loaded again and must print the
/// same. A refused load must say why.
std::string check_load(std::string_view text, file_format format);

/// Conversion to each format (canopy::convert_file, lenient, the input in memory): whatever
/// loads either converts to text that, read back, gives every tree of the input with the same
/// meaning (canopy::meaning_text), or is refused saying why; nothing is written to disk.
std::string check_convert(std::string_view text, file_format format);

/// Load-then-tick: the input is the tree's text, then, after its last NUL byte, the bytes that
/// decide its leaves' results and time steps (without a NUL, the text decides them too). A
/// tree that loads with tick_registry() is ticked `ticks` times and reset under a
/// tick_checker.
std::string check_tick(const std::uint8_t* data, std::size_t size, file_format format,
                       int ticks = 300);

}  // namespace canopy::fuzz
