// Splitting command lines the way a shell does: words separated by blanks, '...' and "..."
// quoting, backslash escapes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retort {

// Splits a line into words. Single quotes keep everything literally; double quotes allow \" and
// \\; outside quotes a backslash escapes the next character. Throws Error on an unterminated
// quote or a trailing backslash.
std::vector<std::string> split_words(std::string_view line);

// The same split for a line that is still being typed (completion): an open quote or a trailing
// backslash is accepted. `ends_in_word` tells whether the cursor is inside the last word (true)
// or after a blank (false, a new word is starting).
struct PartialWords {
  std::vector<std::string> words;
  bool ends_in_word = false;
};
PartialWords split_partial_words(std::string_view line);

// Splits `retort -c` text into commands at ';' outside quotes; blank commands are dropped.
std::vector<std::string> split_commands(std::string_view text);

// The first word of a line and the raw text after it (for commands such as `def` whose argument
// is source text, not words). Both are trimmed of blanks.
struct HeadAndRest {
  std::string head;
  std::string rest;
};
HeadAndRest split_head(std::string_view line);

std::string trim_blanks(std::string_view text);

}  // namespace retort
