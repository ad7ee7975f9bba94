#include "core/findings/text_clusters.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/base/rng.h"
#include "core/base/words.h"

namespace retort {

namespace {

// Terms of a text: each masked word and each pair of adjacent ones, counted.
std::map<std::string, double> terms_of(std::string_view text) {
  std::vector<std::string> words = failure_words(text);
  std::map<std::string, double> terms;
  for (size_t i = 0; i < words.size(); ++i) {
    terms[words[i]] += 1;
    if (i + 1 < words.size()) terms[words[i] + " " + words[i + 1]] += 1;
  }
  return terms;
}

double cosine(const std::map<std::string, double>& a, const std::map<std::string, double>& b) {
  double dot = 0, na = 0, nb = 0;
  for (const auto& [t, x] : a) {
    na += x * x;
    auto it = b.find(t);
    if (it != b.end()) dot += x * it->second;
  }
  for (const auto& [t, y] : b) nb += y * y;
  if (na == 0 && nb == 0) return 1;
  if (na == 0 || nb == 0) return 0;
  return dot / std::sqrt(na * nb);
}

}  // namespace

std::vector<std::string> failure_words(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\'' || c == '"' || c == '`') {  // a quoted name or path: its content varies
      size_t end = text.find(c, i + 1);
      if (end == std::string_view::npos || end - i > 200) {
        ++i;
        continue;
      }
      words.push_back("<q>");
      i = end + 1;
      continue;
    }
    if (!is_word_char(c)) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && is_word_char(text[i])) ++i;
    std::string w(text.substr(start, i - start));
    for (char& ch : w) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    bool digits = std::any_of(w.begin(), w.end(),
                              [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    if (w.size() > 2 && w[0] == '0' && w[1] == 'x')
      words.push_back("<hex>");
    else if (std::isdigit(static_cast<unsigned char>(w[0])))
      words.push_back("<n>");
    else if (digits)  // a generated name (n8, v9_c, call_f0_2): which node, not which bug
      words.push_back("<id>");
    else
      words.push_back(std::move(w));
  }
  return words;
}

double text_similarity(std::string_view a, std::string_view b) {
  return cosine(terms_of(a), terms_of(b));
}

std::string TextClusters::classify(const std::string& group, std::string_view text) {
  std::map<std::string, double> terms = terms_of(text);
  std::vector<Member>& members = groups_[group];
  for (const Member& m : members)
    if (cosine(m.terms, terms) >= kSameTextSimilarity) return m.name;
  std::string joined;
  for (const auto& w : failure_words(text)) joined += w + " ";
  std::string name = fmt::format("{:06x}", stable_hash(joined) & 0xffffff);
  members.push_back({name, std::move(terms)});
  return name;
}

void TextClusters::add(const std::string& group, const std::string& name, std::string_view text) {
  groups_[group].push_back({name, terms_of(text)});
}

}  // namespace retort
