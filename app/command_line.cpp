#include "app/command_line.h"

#include <algorithm>

#include "core/base/error.h"

namespace retort {

std::vector<std::string> split_commands(std::string_view text) {
  std::vector<std::string> commands;
  std::string current;
  char quote = 0;
  auto flush = [&] {
    if (current.find_first_not_of(" \t\r\n") != std::string::npos) commands.push_back(current);
    current.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!quote && c == ';') {
      flush();
      continue;
    }
    current += c;
    bool escapes = c == '\\' && quote != '\'' && i + 1 < text.size();
    if (escapes)
      current += text[++i];
    else if (quote && c == quote)
      quote = 0;
    else if (!quote && (c == '\'' || c == '"'))
      quote = c;
  }
  flush();
  return commands;
}

HeadAndRest split_head(std::string_view line) {
  std::string trimmed = trim_blanks(line);
  size_t end = 0;
  while (end < trimmed.size() && !is_blank(trimmed[end])) ++end;
  return {trimmed.substr(0, end), trim_blanks(std::string_view(trimmed).substr(end))};
}

}  // namespace retort
