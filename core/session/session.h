// The state of one workbench session: the current graph, the named variant graphs, the seed and
// the journal of commands. Commands in app/ read and change it; views/ draw it. It holds no
// terminal state, so every front end (console, REPL, scripts, tests) drives the same object.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend_set.h"
#include "core/campaign/campaign.h"
#include "core/compare/compare.h"
#include "core/compare/tolerance.h"
#include "core/egraph/convert.h"
#include "core/egraph/explanation.h"
#include "core/egraph/extract.h"
#include "core/graph/graph.h"
#include "core/rules/runner.h"
#include "core/session/journal.h"
#include "core/session/rule_book.h"
#include "core/session/topics.h"

namespace retort {

inline constexpr uint64_t kDefaultSeed = 1;

struct Variant {
  Graph graph;
  size_t ops = 0, depth = 0;
  // Extracted variants of the current e-graph (building a new e-graph turns the old ones into
  // plain graphs): the trace steps their e-nodes depend on, their outputs' terms, the e-nodes
  // chosen, and how and when (the trace length then) they were extracted, so that a saved
  // session can extract them again.
  std::vector<uint32_t> steps;
  std::vector<EClassId> output_terms;
  std::optional<Selection> selection;
  std::optional<ExtractOptions> extraction;
  size_t trace_length = 0;
};

// The e-graph built by `egraph` from a copy of the graph, and the rewrites applied to it.
struct EGraphWork {
  Graph start;
  GraphMeta meta;
  EGraph eg;
  RewriteTrace trace;
};

// The rewrites a variant depends on, for tables: "#3,#20,#49" (rewrite_label.h), "-" when none,
// and the first max_shown followed by "… (N in all)" when there are more.
std::string variant_steps_str(const Variant& v, size_t max_shown = 8);

// What undo and redo restore. The e-graph itself is not copied (EGraph is move-only and large):
// it is rebuilt from the start graph and the trace, which replays deterministically.
struct EGraphCheckpoint {
  std::string label;  // the command that followed it, for "undid ..."
  std::optional<Graph> start;
  RewriteTrace trace;
  std::map<std::string, Variant> variants;
  std::vector<ProgramMutation> program;  // TorchProbe's mutations then
};

// The values of the last `eval`: every value of the graph it ran, by value name.
struct EvalRecord {
  std::string graph;  // the variant's name, or empty for the current graph
  std::map<std::string, Tensor> values;
};

// A campaign this session runs (`fuzz`), as far as it got: published after every case.
struct CampaignStatus {
  int64_t campaign = 0;  // its row in the database
  std::string database;  // the findings database's path
  std::string budget;    // "300 cases", "10 min"
  CampaignStats stats;
  bool running = false;
  std::string review;  // "reviewing 2/5" while the review at the end runs, else empty
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
  void set_graph(Graph g) {
    graph_ = std::move(g);
    topics_.bump(Topic::Graph);
  }
  // Makes g the current graph of a fresh graph state: no e-graph, variants, undo history or
  // comparison from the previous graph (their inputs need not match g's). Seed, rules,
  // tolerances and backends stay. `load` uses it; an empty g clears the graph (`new`).
  void start_graph(std::optional<Graph> g);

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
  // Removes a variant; throws Error listing the variants when the name is unknown.
  void drop_variant(const std::string& name);

  // --- e-graph work (session_egraph.cpp) --------------------------------------------------------
  // Every command that changes the e-graph or the variants (egraph, apply, step, saturate,
  // extract) is one undo step; on an Error it leaves the session as it was.
  // A changeable rule book may change what matches: the e-graph topic moves.
  RuleBook& rules() {
    topics_.bump(Topic::EGraph);
    return rules_;
  }
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
  // Rebuilds the e-graph from a start graph and a trace that may come from another process
  // (a session file), extracting `variants` (name, options, trace length) at the trace lengths
  // they were made at. Clears the undo history. Throws Error when the trace does not replay.
  struct Extracted {
    std::string name;
    ExtractOptions options;
    size_t trace_length = 0;
  };
  void replay_egraph(const Graph& start, const RewriteTrace& trace,
                     const std::vector<Extracted>& variants);
  // Per output of an extracted variant: the proof that its term equals the original's.
  std::vector<Explanation> explain_variant(const std::string& name) const;

  // TorchProbe (seeds/002): the mutations the current graph's generated Python program gets;
  // `compare` passes them to every run (backends that run ONNX ignore them). A change is one
  // undo step, as a rewrite is.
  const std::vector<ProgramMutation>& program_mutations() const { return program_; }
  void set_program_mutations(std::vector<ProgramMutation> mutations, const std::string& label);
  // The program a backend last showed (`program show`), and which backend, for the program pane.
  const std::string& program_text() const { return program_text_; }
  const std::string& program_backend() const { return program_backend_; }
  void set_program_text(std::string backend, std::string text) {
    program_backend_ = std::move(backend);
    program_text_ = std::move(text);
    topics_.bump(Topic::Program);
  }

  // Return the label of the command undone or redone; throw Error when there is nothing to do.
  std::string undo();
  std::string redo();
  size_t undo_depth() const { return undo_.size(); }

  // --- comparing (core/compare) ---------------------------------------------------------------
  // The tolerances `compare` and `inspect` use unless told otherwise (the `tolerance` command).
  ToleranceTable& tolerances() { return tolerances_; }
  const ToleranceTable& tolerances() const { return tolerances_; }
  // The last `compare` results, for the results pane, `inspect` and `export repro`.
  const CompareReport* compare_report() const {
    return compare_report_ ? &*compare_report_ : nullptr;
  }
  void set_compare_report(CompareReport report) {
    compare_report_ = std::move(report);
    topics_.bump(Topic::Results);
  }
  // How `eval`, `compare`, `inspect`, `bisect`, `reduce` and `equiv` draw inputs, and the
  // inputs fixed by hand (the `input` and `inputs` commands).
  InputPlan& input_plan() { return input_plan_; }
  const InputPlan& input_plan() const { return input_plan_; }
  void set_last_eval(EvalRecord record) {
    last_eval_ = std::move(record);
    topics_.bump(Topic::Values);
  }
  const std::optional<EvalRecord>& last_eval() const { return last_eval_; }

  // Set (from a signal handler) to stop a running saturation; cleared when one starts.
  std::atomic<bool>& cancel_flag() { return cancel_; }
  // The e-graph's e-node count while rules run (for a progress display on another thread).
  const std::atomic<size_t>& progress_nodes() const { return progress_nodes_; }

  // The built-in and attached backends (`backend list`, `compare`).
  BackendSet& backends() { return backends_; }
  const BackendSet& backends() const { return backends_; }

  // --- what changed ----------------------------------------------------------------------------
  // A version per part of the session, bumped by every change to it (core/session/topics.h).
  const TopicClock& topics() const { return topics_; }
  // The campaign's progress, published by `fuzz` from the thread that runs it and read by
  // front ends from theirs.
  void publish_campaign(CampaignStatus status);
  std::optional<CampaignStatus> campaign_status() const;
  // The variant set or extracted last, empty when none was since the graph started: what a
  // front end shows after a command made one.
  const std::string& newest_variant() const { return newest_variant_; }

  // Records a command that ran; `restorable` is false for commands that only write files or
  // read the session (their effects are not part of the session's state). False when a journal
  // file is attached and the command could not be written to it (journal_file()->error() says
  // why): the caller warns, since a crash would lose the command.
  bool record(std::string command, bool ok, bool restorable = true);
  const std::vector<JournalEntry>& journal() const { return journal_; }
  // Every recorded command is also appended (and synced) to this file, so that a killed
  // session can be restored; the file is closed as finished when the Session ends cleanly.
  void attach_journal(std::unique_ptr<JournalFile> file) { journal_file_ = std::move(file); }
  JournalFile* journal_file() { return journal_file_.get(); }

  // Takes the state of `other` (graph, seed, rules, e-graph, variants, attached backends; not
  // the journal): how
  // `open` replaces the session only after the file loaded without error.
  void adopt(Session&& other);

 private:
  std::optional<Graph> graph_;
  uint64_t seed_;
  std::map<std::string, Variant> variants_;
  std::vector<JournalEntry> journal_;
  std::unique_ptr<JournalFile> journal_file_;
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
  std::vector<ProgramMutation> program_;
  std::string program_text_, program_backend_;
  std::atomic<bool> cancel_{false};
  ToleranceTable tolerances_;
  InputPlan input_plan_;
  std::optional<CompareReport> compare_report_;
  std::atomic<size_t> progress_nodes_{0};
  BackendSet backends_;
  TopicClock topics_;
  std::string newest_variant_;
  mutable std::mutex campaign_mutex_;
  std::optional<CampaignStatus> campaign_;
};

}  // namespace retort
