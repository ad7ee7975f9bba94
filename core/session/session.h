// The state of one workbench session: the current graph, the named variant graphs, the seed and
// the journal of commands. Commands in app/ read and change it; views/ draw it. It holds no
// terminal state, so every front end (console, REPL, scripts, tests) drives the same object.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace retort {

inline constexpr uint64_t kDefaultSeed = 1;

struct JournalEntry {
  std::string command;  // the line as it was run
  bool ok = true;       // false when it ended in an error
};

class Session {
 public:
  explicit Session(uint64_t seed = kDefaultSeed) : seed_(seed) {}

  bool has_graph() const { return graph_.has_value(); }
  // The current graph; throws Error telling how to get one when there is none.
  const Graph& graph() const;
  void set_graph(Graph g) { graph_ = std::move(g); }

  uint64_t seed() const { return seed_; }
  void set_seed(uint64_t seed) { seed_ = seed; }

  // Named variant graphs (extracted, reduced, generated...). Names are unique; setting an
  // existing name replaces it.
  void set_variant(const std::string& name, Graph g);
  const Graph* find_variant(const std::string& name) const;
  // Throws Error listing the variants when the name is unknown.
  const Graph& variant(const std::string& name) const;
  std::vector<std::string> variant_names() const;  // sorted

  void record(std::string command, bool ok) { journal_.push_back({std::move(command), ok}); }
  const std::vector<JournalEntry>& journal() const { return journal_; }

 private:
  std::optional<Graph> graph_;
  uint64_t seed_;
  std::map<std::string, Graph> variants_;
  std::vector<JournalEntry> journal_;
};

}  // namespace retort
