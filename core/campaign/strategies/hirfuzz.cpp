// HirFuzz (seeds/001), by constraint level. At level 1: a generated graph, the same with 1-3
// pieces collapsed into functions called once or more, and that with 1-3 rewrites of its call
// chain; all three compute the same, and the backends' optimization levels add the "optimized"
// side of the paper's oracle. At level 0: the generated graph with 1-3 constraints broken, run on
// every compiler (the reference cannot run it) for crashes only; rejecting it with an error is
// the right answer. A case takes level 0 with probability p, which moves by alpha towards the
// level that last found a new bug (the dynamic relaxation).
#include <algorithm>
#include <memory>

#include "core/base/option_number.h"
#include "core/base/rng.h"
#include "core/campaign/case_salt.h"
#include "core/campaign/strategy.h"
#include "core/gen/functions_gen.h"
#include "core/gen/graph_gen.h"

namespace retort {

namespace {

class HirfuzzRun : public StrategyRun {
 public:
  explicit HirfuzzRun(const CampaignOptions& o) : o_(o), p_(o.relax_p) {}

  CasePrograms draw(uint64_t seed) override {
    level0_ = Rng(mix_seed(seed, kLevelSalt)).coin(p_);
    CasePrograms p;
    Graph original = generate_graph(o_.gen, seed);
    if (level0_) {
      p.graphs.push_back({"original", std::move(original)});
      return p;
    }
    Rng rng(mix_seed(seed, kFunctionSalt));
    original.name = "hirfuzz";
    Graph functions =
        with_functions(original, rng, static_cast<int>(rng.uniform_int(1, 3)), /*rewrites=*/0);
    Graph rewritten = with_functions(functions, rng, 0, static_cast<int>(rng.uniform_int(1, 3)));
    p.graphs = {{"original", std::move(original)},
                {"functions", std::move(functions)},
                {"rewritten", std::move(rewritten)}};
    return p;
  }

  void vary(CasePrograms& p, CaseRecord& rec) override {
    if (!level0_) return;
    Rng rng(mix_seed(rec.seed, kRelaxSalt));
    int violations = static_cast<int>(rng.uniform_int(1, 3));
    p.relaxed = draw_relaxed(p.graphs.front().graph, rng, violations);
  }

  // Towards the level that found a new bug.
  void learn(const CasePrograms& p, const std::vector<FindingRecord>&, bool fresh) override {
    if (fresh) p_ = std::clamp(p_ + (p.relaxed ? 1 : -1) * o_.relax_alpha, 0.0, 1.0);
  }

  std::optional<double> gauge(std::string_view name) const override {
    if (name == "relax_p") return p_;
    return std::nullopt;
  }

 private:
  CampaignOptions o_;
  double p_;             // the probability of constraint level 0
  bool level0_ = false;  // the level of the case being drawn
};

}  // namespace

StrategyDef hirfuzz_strategy() {
  return {.name = "hirfuzz",
          .summary =
              "a generated graph with pieces collapsed into functions and calls, and a rewrite "
              "of its call chain; or, at constraint level 0, a graph that breaks constraints, "
              "run for crashes (HirFuzz)",
          .backends = {},
          .options = {{"--relax", "P",
                       "hirfuzz: the starting probability of constraint level 0 (default 0.6)",
                       [](CampaignOptions& o, std::string_view v) {
                         o.relax_p = parse_fraction(v, "--relax");
                       }},
                      {"--relax-step", "A",
                       "hirfuzz: how far a new bug moves that probability (default 0.01)",
                       [](CampaignOptions& o, std::string_view v) {
                         o.relax_alpha = parse_fraction(v, "--relax-step");
                       }}},
          .start = [](const CampaignOptions& o) { return std::make_unique<HirfuzzRun>(o); }};
}

}  // namespace retort
