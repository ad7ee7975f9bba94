// The state of one workbench session: the current graph, the named variant graphs, the seed and
// the journal of commands. Commands in app/ read and change it; views/ draw it. It holds no
// terminal state, so every front end (console, REPL, scripts, tests) drives the same object.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend_set.h"
#include "core/egraph/convert.h"
#include "core/egraph/explanation.h"
#include "core/egraph/extract.h"
#include "core/graph/graph.h"
#include "core/rules/runner.h"
#include "core/session/rule_book.h"

namespace retort {

inline constexpr uint64_t kDefaultSeed = 1;

struct JournalEntry {
  std::string command;  // the line as it was run
  bool ok = true;       // false when it ended in an error
};

struct Variant {
  Graph graph;
  size_t ops = 0, depth = 0;
  std::vector<uint32_t> steps;         // trace steps its e-nodes depend on (extracted variants)
  std::vector<EClassId> output_terms;  // its outputs' terms in the e-graph (extracted variants)
  std::optional<Selection> selection;  // the e-nodes it was extracted from (extracted variants)
};

// The e-graph built by `egraph` from a copy of the graph, and the rewrites applied to it.
struct EGraphWork {
  Graph start;
  GraphMeta meta;
  EGraph eg;
  RewriteTrace trace;
};

// What undo and redo restore. The e-graph itself is not copied (EGraph is move-only and large):
// it is rebuilt from the start graph and the trace, which replays deterministically.
struct EGraphCheckpoint {
  std::string label;  // the command that followed it, for "undid ..."
  std::optional<Graph> start;
  RewriteTrace trace;
  std::map<std::string, Variant> variants;
};

// The values of the last `eval`: every value of the graph it ran, by value name.
struct EvalRecord {
  std::string graph;  // the variant's name, or empty for the current graph
  std::map<std::string, Tensor> values;
};

// One `variants` table row of the original, to compare variants against.
struct GraphSize {
  size_t ops = 0, depth = 0;
};

class Session {
 public:
  // Starts with the built-in polyjuice rule set loaded and enabled.
  explicit Session(uint64_t seed = kDefaultSeed);

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
  const std::map<std::string, Variant>& variants() const { return variants_; }
  // Throws Error listing the variants when the name is unknown.
  const Variant& variant_info(const std::string& name) const;

  // --- e-graph work (session_egraph.cpp) --------------------------------------------------------
  // Every command that changes the e-graph or the variants (egraph, apply, step, saturate,
  // extract) is one undo step; on an Error it leaves the session as it was.
  RuleBook& rules() { return rules_; }
  const RuleBook& rules() const { return rules_; }
  bool has_egraph() const { return work_ != nullptr; }
  // Throws Error telling to run `egraph` when there is none.
  const EGraphWork& egraph() const;
  GraphSize original_size() const;

  // Builds the e-graph from the current graph (a fresh trace).
  const EGraphWork& build_egraph();
  // The matches of an enabled or disabled rule on the e-graph.
  std::vector<Match> find_matches(const Rule& rule) const;
  // Applies match `number` (1-based, as find_matches lists them) of the rule.
  ApplyResult apply(const std::string& rule, size_t number, const std::string& label);
  // Runs the enabled rules; the Rng seed comes from the session seed and the trace, so the same
  // commands give the same e-graph. options.seed and options.cancel are set here.
  RunReport run_rules(RunnerOptions options, const std::string& label);
  // Extracts a variant; an empty name picks the mode's default (min, max, cost, random_K).
  const std::string& extract_variant(const ExtractOptions& options, std::string name,
                                     const std::string& label);
  // Per output of an extracted variant: the proof that its term equals the original's.
  std::vector<Explanation> explain_variant(const std::string& name) const;

  // Return the label of the command undone or redone; throw Error when there is nothing to do.
  std::string undo();
  std::string redo();
  size_t undo_depth() const { return undo_.size(); }

  void set_last_eval(EvalRecord record) { last_eval_ = std::move(record); }
  const std::optional<EvalRecord>& last_eval() const { return last_eval_; }

  // Set (from a signal handler) to stop a running saturation; cleared when one starts.
  std::atomic<bool>& cancel_flag() { return cancel_; }
  // The e-graph's e-node count while rules run (for a progress display on another thread).
  const std::atomic<size_t>& progress_nodes() const { return progress_nodes_; }

  // The built-in and attached backends (`backend list`, `compare`).
  BackendSet& backends() { return backends_; }
  const BackendSet& backends() const { return backends_; }

  void record(std::string command, bool ok) { journal_.push_back({std::move(command), ok}); }
  const std::vector<JournalEntry>& journal() const { return journal_; }

 private:
  std::optional<Graph> graph_;
  uint64_t seed_;
  std::map<std::string, Variant> variants_;
  std::vector<JournalEntry> journal_;
  std::optional<EvalRecord> last_eval_;

  EGraphWork& work();
  EGraphCheckpoint checkpoint(const std::string& label) const;
  void restore(const EGraphCheckpoint& c);
  // Runs `change` as one undo step: on an Error the state is restored and the Error rethrown.
  template <typename F>
  decltype(auto) undoable(const std::string& label, F&& change);
  uint64_t rewrite_seed() const;

  RuleBook rules_;
  std::unique_ptr<EGraphWork> work_;
  std::vector<EGraphCheckpoint> undo_, redo_;
  std::atomic<bool> cancel_{false};
  std::atomic<size_t> progress_nodes_{0};
  BackendSet backends_;
};

}  // namespace retort
