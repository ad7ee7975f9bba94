// OATest (seeds/004): one of the built-in optimization patterns, taken from compilers' own tests,
// woven at a random point into a seed graph: generated, or an earlier woven graph that revealed
// nothing (the seed pool). The woven graph alone is compared, across the backends and their
// optimization levels.
#include <memory>

#include "core/base/rng.h"
#include "core/campaign/case_salt.h"
#include "core/campaign/strategy.h"
#include "core/gen/graph_gen.h"
#include "core/gen/opt_pattern.h"
#include "core/gen/weave.h"

namespace retort {

namespace {

// How many woven graphs the pool keeps, and how often a case draws from it rather than
// generating a fresh seed graph.
constexpr size_t kPoolSize = 64;
constexpr double kPoolShare = 0.5;

class OatestRun : public StrategyRun {
 public:
  // Plain shapes: the weave's bridges go through element counts (a reshape to [n] reads 0 as
  // "keep the extent"), which the empty shape class's values lack.
  explicit OatestRun(const CampaignOptions& o) : o_(o), gen_(o.gen) { gen_.shape_classes = 0; }

  CasePrograms draw(uint64_t seed) override {
    Rng rng(mix_seed(seed, kWeaveSalt));
    Graph base =
        !pool_.empty() && rng.coin(kPoolShare) ? pick_from(rng, pool_) : generate_graph(gen_, seed);
    const OptPattern& pattern = pick_from(rng, builtin_opt_patterns());
    Graph woven = weave_pattern(base, pattern, rng);
    woven.name = "oatest_" + pattern.name;
    CasePrograms p;
    p.graphs.push_back({"original", std::move(woven)});
    return p;
  }

  // A woven graph that revealed nothing becomes context for later cases (the newest kPoolSize,
  // and none that grew past twice the generator's largest graph).
  void learn(const CasePrograms& p, const std::vector<FindingRecord>& findings, bool) override {
    const Graph& g = p.graphs.front().graph;
    if (!findings.empty() || g.op_count() > 2 * static_cast<size_t>(o_.gen.max_nodes)) return;
    if (pool_.size() == kPoolSize) pool_.erase(pool_.begin());
    pool_.push_back(g);
  }

 private:
  CampaignOptions o_;
  GenOptions gen_;  // o_.gen in plain shapes
  // A finding keeps its whole graph, so reproducing one never needs the pool.
  std::vector<Graph> pool_;
};

}  // namespace

StrategyDef oatest_strategy() {
  return {.name = "oatest",
          .summary =
              "an optimization pattern from a compiler's tests woven into a seed graph, "
              "compared across the backends' optimization levels (OATest)",
          .backends = {},
          .options = {},
          .start = [](const CampaignOptions& o) { return std::make_unique<OatestRun>(o); }};
}

}  // namespace retort
