// HirFuzz's deduplication of failed runs by their text (seeds/001 section 3.1.3): a crash or an
// error whose text (message, and stack trace when the worker printed one) is at least 90%
// similar to a known one is the same bug; otherwise it is a new one. HirFuzz measures the
// similarity with spaCy's sentence vectors; Retort compares the texts as bags of words and word
// pairs after masking what changes between runs of one bug (numbers, addresses, quoted and
// generated names, paths), so the measure is exact, fast and needs no model.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

inline constexpr double kSameTextSimilarity = 0.9;  // HirFuzz's threshold

// The words of a failure text with the run-specific parts masked: "node 'n7' at 0x7f3a: shape
// [2,3]" -> {"node", "<q>", "at", "<hex>", "shape", "<n>", "<n>"}; a word with letters and digits
// is a generated name: "Node (n8)" -> {"node", "<id>"}. Lower case.
std::vector<std::string> failure_words(std::string_view text);

// Cosine similarity of two texts' words and adjacent word pairs, 0..1 (1: the same after masking).
double text_similarity(std::string_view a, std::string_view b);

// The text classes seen so far, per group (the rest of a signature: family, oracle, verdict...).
class TextClusters {
 public:
  // The class of `text` in `group`: the first known class whose first text is at least
  // kSameTextSimilarity similar, else a new class named by a hash of the masked words.
  std::string classify(const std::string& group, std::string_view text);
  // Makes a class known under a given name (one stored in a findings database).
  void add(const std::string& group, const std::string& name, std::string_view text);

 private:
  struct Member {
    std::string name;
    std::map<std::string, double> terms;
  };
  std::map<std::string, std::vector<Member>> groups_;
};

}  // namespace retort
