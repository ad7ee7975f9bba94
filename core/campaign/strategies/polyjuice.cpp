// POLYJUICE (seeds/000): a generated graph -> e-graph -> saturated with the campaign's rules under
// the limits -> extracted as min, max, K random variants and the maximal graph after each
// iteration but the last (a state between the original and max can fail alone,
// pytorch#190765).
#include <memory>

#include <fmt/format.h>

#include "core/base/option_number.h"
#include "core/base/rng.h"
#include "core/campaign/case_salt.h"
#include "core/campaign/strategy.h"
#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "core/gen/graph_gen.h"
#include "core/rules/runner.h"

namespace retort {

namespace {

class PolyjuiceRun : public StrategyRun {
 public:
  explicit PolyjuiceRun(const CampaignOptions& o) : o_(o), rules_(campaign_rules(o.rules)) {}

  CasePrograms draw(uint64_t seed) override {
    CasePrograms p;
    p.graphs.push_back({"original", generate_graph(o_.gen, seed)});
    return p;
  }

  // Saturate under the limits, then extract.
  void vary(CasePrograms& p, CaseRecord& rec) override {
    std::vector<NamedGraph>& graphs = p.graphs;
    p.egraph = std::make_unique<EGraph>();
    EGraph& eg = *p.egraph;
    auto t = CaseClock::now();
    GraphMeta meta = add_graph(eg, graphs[0].graph);
    eg.rebuild();
    RunnerOptions ro;
    ro.iter_limit = 1;  // one iteration per run(), so the states between iterations can be seen
    ro.node_limit = o_.node_limit;
    ro.time_limit_seconds = o_.saturate_seconds;
    ro.seed = mix_seed(rec.seed, kRewriteSalt);
    ro.carry = &carry_;
    Runner runner(eg, rules_, ro);
    ExtractOptions max_options;
    max_options.mode = ExtractMode::Max;
    max_options.collect_steps = false;
    double extract_ms = 0;
    for (size_t it = 1; it <= o_.iter_limit; ++it) {
      RunReport r = runner.run(p.trace);
      bool more = r.stop == StopReason::IterationLimit && it < o_.iter_limit;
      if (!more) break;
      if (o_.intermediate) {
        auto te = CaseClock::now();
        graphs.push_back({fmt::format("max_it{}", it), extract(eg, meta, max_options).graph});
        extract_ms += ms_since(te);
      }
    }
    if (!eg.clean()) eg.rebuild();
    rec.saturate_ms = ms_since(t) - extract_ms;

    t = CaseClock::now();
    ExtractOptions eo;
    eo.collect_steps = false;
    eo.mode = ExtractMode::Min;
    graphs.push_back({"min", extract(eg, meta, eo).graph});
    graphs.push_back({"max", extract(eg, meta, max_options).graph});
    Rng rng(mix_seed(rec.seed, kRandomSalt));
    eo.mode = ExtractMode::Random;
    for (size_t k = 1; k <= o_.random_variants; ++k) {
      eo.seed = rng.next_u64();
      graphs.push_back({fmt::format("random_{}", k), extract(eg, meta, eo).graph});
    }
    rec.extract_ms = extract_ms + ms_since(t);
  }

 private:
  CampaignOptions o_;
  RuleSet rules_;
  RunnerCarry carry_;  // over rules_, from case to case
};

}  // namespace

StrategyDef polyjuice_strategy() {
  return {.name = "polyjuice",
          .summary =
              "a generated graph, saturated with the rules; min, max, random and intermediate "
              "variants (POLYJUICE)",
          .backends = {},
          .options = {{"--iters", "N", "saturation iterations per case (default 2)",
                       [](CampaignOptions& o, std::string_view v) {
                         o.iter_limit = parse_u64(v, "--iters");
                       }},
                      {"--enodes", "N", "e-node limit per case (default 100)",
                       [](CampaignOptions& o, std::string_view v) {
                         o.node_limit = parse_u64(v, "--enodes");
                       }},
                      {"--random", "K", "random variants per case (default 2)",
                       [](CampaignOptions& o, std::string_view v) {
                         o.random_variants = parse_u64(v, "--random");
                       }},
                      {"--no-intermediate", "", "skip the maximal graph after each iteration",
                       [](CampaignOptions& o, std::string_view) { o.intermediate = false; }}},
          .start = [](const CampaignOptions& o) { return std::make_unique<PolyjuiceRun>(o); }};
}

}  // namespace retort
