#pragma once
// Reading a stream (a pipe, a device, standard input) that has no size to check first: the
// bytes read so far may already decide that the file is refused, so that reading on would
// change nothing but the time and memory spent (/dev/zero read as JSON for a gigabyte).

#include <string_view>

#include "canopy/formats/format.hpp"

namespace canopy::detail {

/// The syntax a stream's bytes are read in: a tree format's, or none known (a program's own
/// file, a snapshot's bytes), which is read to its end.
enum class text_syntax { any, json, xml };

inline text_syntax syntax_of(file_format format) {
    return format == file_format::flat_json || format == file_format::behavior3 ? text_syntax::json
                                                                                : text_syntax::xml;
}

/// Whether every text that starts with `prefix` is refused by the reader of a format of that
/// syntax, with the problem inside `prefix`: then reading stops there and the reader, given
/// `prefix`, reports that problem where it stands. True for bytes that are not UTF-8, for XML
/// a NUL byte before the first element, for JSON a syntax error well before the end of
/// `prefix` (not one that more bytes could mend); never for text_syntax::any.
bool prefix_is_refused(std::string_view prefix, text_syntax syntax);

}  // namespace canopy::detail
