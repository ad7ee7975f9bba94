#include "core/base/words.h"

#include <cctype>
#include <sstream>

#include "core/base/error.h"

namespace retort {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string replace_whole_words(std::string_view text,
                                const std::map<std::string, std::string>& names) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const std::pair<const std::string, std::string>* best = nullptr;
    if (i == 0 || !is_word_char(text[i - 1])) {
      for (const auto& entry : names) {
        const std::string& key = entry.first;
        if (key.empty() || text.compare(i, key.size(), key) != 0) continue;
        size_t end = i + key.size();
        if (end < text.size() && is_word_char(text[end])) continue;
        if (!best || key.size() > best->first.size()) best = &entry;
      }
    }
    if (best) {
      out += best->second;
      i += best->first.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string trim_blanks(std::string_view text) {
  size_t start = 0, end = text.size();
  while (start < end && is_blank(text[start])) ++start;
  while (end > start && is_blank(text[end - 1])) --end;
  return std::string(text.substr(start, end - start));
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

namespace {

struct SplitState {
  std::vector<std::string> words;
  std::string current;
  bool in_word = false;
  char quote = 0;          // the open quote character, 0 outside quotes
  size_t quote_start = 0;  // index of the open quote in the line
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
        s.quote_start = i;
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
  if (s.quote) {
    // The text from the open quote on: the line may be a part of what the user typed.
    std::string_view from = line.substr(s.quote_start);
    bool cut = from.size() > 24;
    fail("unterminated {} quote at {}{}", s.quote == '"' ? "double" : "single", from.substr(0, 24),
         cut ? "..." : "");
  }
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

std::vector<std::string> wrap_words(const std::string& text, size_t width) {
  std::vector<std::string> lines{""};
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (!lines.back().empty() && lines.back().size() + 1 + w.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + w;
  }
  return lines;
}

}  // namespace retort
