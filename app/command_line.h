// Splitting command lines: into commands at ';', into a head word and its raw rest. Words are
// split by core/base/words.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/words.h"

namespace retort {

// Splits `retort -c` text into commands at ';' outside quotes; blank commands are dropped.
std::vector<std::string> split_commands(std::string_view text);

// The first word of a line and the raw text after it (for commands such as `def` whose argument
// is source text, not words). Both are trimmed of blanks.
struct HeadAndRest {
  std::string head;
  std::string rest;
};
HeadAndRest split_head(std::string_view line);

}  // namespace retort
