// TorchProbe (seeds/002): a generated graph whose Python program gets 1-3 program mutations, of
// kinds drawn with repeats, each with its own seed; they compose in order. Only the backends
// that run a generated program (torch, xla) apply them; the graph itself is not changed.
#include <memory>

#include "core/base/rng.h"
#include "core/campaign/case_salt.h"
#include "core/campaign/strategy.h"
#include "core/gen/graph_gen.h"

namespace retort {

namespace {

class TorchprobeRun : public StrategyRun {
 public:
  explicit TorchprobeRun(const CampaignOptions& o) : o_(o) {}

  CasePrograms draw(uint64_t seed) override {
    CasePrograms p;
    p.graphs.push_back({"original", generate_graph(o_.gen, seed)});
    Rng rng(mix_seed(seed, kProgramSalt));
    p.mutations.resize(static_cast<size_t>(rng.uniform_int(1, 3)));
    for (ProgramMutation& m : p.mutations) {
      m.kind = std::string(pick_from(rng, kProgramMutationKinds));
      m.seed = rng.next_u64() >> 1;  // JSON carries it as a signed 64-bit number too
    }
    return p;
  }

 private:
  CampaignOptions o_;
};

}  // namespace

StrategyDef torchprobe_strategy() {
  return {.name = "torchprobe",
          .summary =
              "a generated graph whose Python program (torch and xla backends) gets 1-3 of "
              "TorchProbe's mutations: resolve, mutate-recover, functionalize, tcb "
              "(TorchProbe)",
          // ONNX Runtime runs no Python program to mutate.
          .backends = {"ref", "torch:eager", "inductor"},
          .options = {},
          .start = [](const CampaignOptions& o) { return std::make_unique<TorchprobeRun>(o); }};
}

}  // namespace retort
