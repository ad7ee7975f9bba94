#include "app/words.h"

#include "core/base/error.h"

namespace retort {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

struct SplitState {
  std::vector<std::string> words;
  std::string current;
  bool in_word = false;
  char quote = 0;  // the open quote character, 0 outside quotes
  bool dangling_escape = false;
};

SplitState split(std::string_view line) {
  SplitState s;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (s.quote == '\'') {
      if (c == '\'')
        s.quote = 0;
      else
        s.current += c;
    } else if (s.quote == '"') {
      if (c == '"') {
        s.quote = 0;
      } else if (c == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
        s.current += line[++i];
      } else {
        s.current += c;
      }
    } else if (is_blank(c)) {
      if (s.in_word) s.words.push_back(std::move(s.current));
      s.current.clear();
      s.in_word = false;
    } else {
      s.in_word = true;
      if (c == '\'' || c == '"') {
        s.quote = c;
      } else if (c == '\\') {
        if (i + 1 < line.size())
          s.current += line[++i];
        else
          s.dangling_escape = true;
      } else {
        s.current += c;
      }
    }
  }
  return s;
}

}  // namespace

std::vector<std::string> split_words(std::string_view line) {
  SplitState s = split(line);
  if (s.quote) fail("unterminated {} quote", s.quote == '"' ? "double" : "single");
  if (s.dangling_escape) fail("a backslash at the end of the line escapes nothing");
  if (s.in_word) s.words.push_back(std::move(s.current));
  return s.words;
}

PartialWords split_partial_words(std::string_view line) {
  SplitState s = split(line);
  PartialWords out;
  out.ends_in_word = s.in_word;
  out.words = std::move(s.words);
  if (s.in_word) out.words.push_back(std::move(s.current));
  return out;
}

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

std::string trim_blanks(std::string_view text) {
  size_t start = 0, end = text.size();
  while (start < end && is_blank(text[start])) ++start;
  while (end > start && is_blank(text[end - 1])) --end;
  return std::string(text.substr(start, end - start));
}

HeadAndRest split_head(std::string_view line) {
  std::string trimmed = trim_blanks(line);
  size_t end = 0;
  while (end < trimmed.size() && !is_blank(trimmed[end])) ++end;
  return {trimmed.substr(0, end), trim_blanks(std::string_view(trimmed).substr(end))};
}

}  // namespace retort
