#pragma once

// wildcards_match: the patterns substitution rules and Tree::getNodesByPath take.

#include <string_view>

/// Whether `text` matches `pattern`, where '*' stands for any run of characters (none
/// included) and '?' for any one character.
bool wildcards_match(std::string_view text, std::string_view pattern);
