#pragma once
// Reading a stream (a pipe, a device, standard input) that has no size to check first: the
// bytes read so far may already decide that the file is refused, so that reading on would
// change nothing but the time and memory spent (/dev/zero read as JSON for a gigabyte).

#include <string_view>

namespace canopy::detail {

/// Whether every text that starts with `prefix` is refused by the reader of a format of that
/// syntax (JSON, else XML), with the problem inside `prefix`: then reading stops there and
/// the reader, given `prefix`, reports that problem where it stands. True for bytes that are
/// not UTF-8, for XML a NUL byte before the first element, for JSON a syntax error well before
/// the end of `prefix` (not one that more bytes could mend).
bool prefix_is_refused(std::string_view prefix, bool json_syntax);

}  // namespace canopy::detail
