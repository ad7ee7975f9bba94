// One case of a fuzz campaign, by its strategy (core/campaign/strategy.h). POLYJUICE's loop:
// generate a graph -> e-graph -> saturate under the limits -> extract min, max, K random variants
// and the maximal graph after each iteration but the last. TENSURE's: draw an einsum -> permute
// its operands twice. OATest's: weave a pattern into a seed graph (generated, or an earlier woven
// graph that passed). HirFuzz's: at constraint level 1, a generated graph, the same with pieces
// collapsed into functions, and that with its call chain rewritten; at level 0 (probability p,
// moved by the findings: the dynamic relaxation) a graph that breaks constraints, run for crashes
// only. TorchProbe's: a generated graph whose Python program gets 1-3 program mutations on the
// backends that run one. Then compare on the backends -> one finding per distinct failure
// signature; failed runs (crash, error) are told apart by the similarity of their texts
// (core/findings/text_clusters.h).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/strategy.h"
#include "core/egraph/egraph.h"
#include "core/findings/findings_db.h"
#include "core/findings/text_clusters.h"
#include "core/rules/rule.h"
#include "core/rules/trace.h"

namespace retort {

struct NamedGraph {
  std::string name;
  Graph graph;
};

struct CaseOutcome {
  CaseRecord record;
  std::vector<FindingRecord> findings;  // one per distinct signature, count 1
};

class CaseRunner {
 public:
  // backends: parallel to options.backends; they must outlive the runner.
  CaseRunner(const CampaignOptions& options, std::vector<Backend*> backends);

  // Never throws for what a backend does (that is a finding); an Error of Retort's own after the
  // graph was generated is kept in record.error. Generation errors (bad options) are thrown.
  CaseOutcome run(int64_t campaign, uint64_t index);

  // Findings stored before (a resumed campaign's database): their signatures are not new, and
  // their texts are the known text classes.
  void know(const std::vector<FindingRecord>& findings);
  // HirFuzz's current probability of constraint level 0.
  double relax_p() const { return relax_p_; }

 private:
  Graph first_graph(Strategy strategy, uint64_t seed) const;
  Graph drawn_einsum(uint64_t seed) const;
  Graph woven_graph(uint64_t seed) const;
  void keep_seed(const Graph& g);
  std::vector<NamedGraph> function_graphs(uint64_t seed) const;
  void run_relaxed(const Graph& valid, CaseOutcome& out);
  void classify_text(FailureSignature& sig, const std::string& text);
  bool found_new(const CaseOutcome& out);
  void permute_einsum(std::vector<NamedGraph>& graphs, CaseRecord& rec) const;
  void saturate_and_extract(std::vector<NamedGraph>& graphs, EGraph& eg, RewriteTrace& trace,
                            CaseRecord& rec) const;
  std::vector<ProgramMutation> program_mutations(uint64_t seed) const;
  std::vector<ProgramMutation> storage_mutations(uint64_t seed) const;
  void compare_and_record(const std::vector<NamedGraph>& graphs, const EGraph* eg,
                          const RewriteTrace& trace, CaseOutcome& out,
                          const std::vector<ProgramMutation>& mutations = {});

  CampaignOptions options_;
  std::vector<Strategy> strategies_;  // options_.strategies, resolved once
  std::vector<Backend*> backends_;
  RuleSet rules_;
  // OATest's seed pool. Cases run in order, so a campaign run from its seed draws the same pool;
  // a finding keeps its whole graph, so reproducing one never needs the pool.
  std::vector<Graph> seed_pool_;
  double relax_p_;
  std::set<std::string> known_keys_;  // signatures found so far: what "a new bug" means
  TextClusters texts_;
};

// A TorchProbe finding keeps its program mutations where others keep their rewrite trace
// (FindingRecord::trace): {"program_mutations": [{"kind": K, "seed": S}, ...]}. Reading a trace
// without them gives none; Error when they are there but malformed.
std::string mutations_json(const std::vector<ProgramMutation>& mutations);
std::vector<ProgramMutation> mutations_from_json(const std::string& text);

// The rule sets named in options.rules (built-in names or .rules files), in order.
RuleSet campaign_rules(const std::vector<std::string>& names);

}  // namespace retort
