// Splitting a line into words the way a shell does: words separated by blanks, '...' and "..."
// quoting, backslash escapes. Commands use it for their arguments and backends for the command
// line of a worker (which is then run directly, never through a shell).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

// Splits a line into words. Single quotes keep everything literally; double quotes allow \" and
// \\; outside quotes a backslash escapes the next character. Throws Error on an unterminated
// quote (quoting the text from the quote on) or a trailing backslash.
std::vector<std::string> split_words(std::string_view line);

// The same split for a line that is still being typed (completion): an open quote or a trailing
// backslash is accepted. `ends_in_word` tells whether the cursor is inside the last word (true)
// or after a blank (false, a new word is starting).
struct PartialWords {
  std::vector<std::string> words;
  bool ends_in_word = false;
};
PartialWords split_partial_words(std::string_view line);

bool is_blank(char c);
// A letter, digit or '_': what a name in a message is made of.
bool is_word_char(char c);

// `text` with every whole-word occurrence of a key of `names` (no word character on either side)
// replaced by its value, in one pass from the left, the longest key first where several start at
// one place; replacements are not searched again.
std::string replace_whole_words(std::string_view text,
                                const std::map<std::string, std::string>& names);

std::string trim_blanks(std::string_view text);

// `text` broken at blanks into lines of at most `width` characters (a longer word stays whole).
std::vector<std::string> wrap_words(const std::string& text, size_t width);

// "a,b,,c" -> {"a", "b", "c"}: a comma-separated list (--backends, --ops, a pattern's fires).
std::vector<std::string> split_list(std::string_view text);

}  // namespace retort
