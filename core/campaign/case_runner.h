// One case of a fuzz campaign, by its strategy (core/campaign/strategy.h). POLYJUICE's loop:
// generate a graph -> e-graph -> saturate under the limits -> extract min, max, K random variants
// and the maximal graph after each iteration but the last. TENSURE's: draw an einsum -> permute
// its operands twice. OATest's: weave a pattern into a seed graph (generated, or an earlier woven
// graph that passed). Then compare on the backends -> one finding per distinct failure signature.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/strategy.h"
#include "core/egraph/egraph.h"
#include "core/findings/findings_db.h"
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

 private:
  Graph first_graph(Strategy strategy, uint64_t seed) const;
  Graph drawn_einsum(uint64_t seed) const;
  Graph woven_graph(uint64_t seed) const;
  void keep_seed(const Graph& g);
  void permute_einsum(std::vector<NamedGraph>& graphs, CaseRecord& rec) const;
  void saturate_and_extract(std::vector<NamedGraph>& graphs, EGraph& eg, RewriteTrace& trace,
                            CaseRecord& rec) const;
  void compare_and_record(const std::vector<NamedGraph>& graphs, const EGraph* eg,
                          const RewriteTrace& trace, CaseOutcome& out);

  CampaignOptions options_;
  std::vector<Strategy> strategies_;  // options_.strategies, resolved once
  std::vector<Backend*> backends_;
  RuleSet rules_;
  // OATest's seed pool. Cases run in order, so a campaign run from its seed draws the same pool;
  // a finding keeps its whole graph, so reproducing one never needs the pool.
  std::vector<Graph> seed_pool_;
};

// The rule sets named in options.rules (built-in names or .rules files), in order.
RuleSet campaign_rules(const std::vector<std::string>& names);

}  // namespace retort
