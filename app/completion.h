// Tab completion from the command registry: what may come next at the cursor, by the completion
// kind of the argument being typed. Independent of readline so it can be tested.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/command.h"
#include "core/session/session.h"

namespace retort {

struct CompletionResult {
  std::vector<std::string> candidates;  // full words that start with the typed prefix, sorted
  bool file_path = false;               // complete from the file system instead
};

// Completes `word`, the text just before the cursor that the console treats as one word;
// `before` is the line up to that word, which tells which argument is being typed.
CompletionResult complete_word(const CommandRegistry& commands, const Session& session,
                               std::string_view before, std::string_view word);

}  // namespace retort
