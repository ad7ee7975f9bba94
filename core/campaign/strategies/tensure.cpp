// TENSURE (seeds/003): an einsum drawn by Algorithm 3 in one of the campaign's numeric dtypes,
// and its commutativity mutation twice (two variants with the operands in other orders); in half
// the cases its operands stored sparse by the backends whose programs can (JAX BCOO), while the
// reference computes the dense result.
#include <memory>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/campaign/case_salt.h"
#include "core/campaign/strategy.h"
#include "core/gen/einsum_gen.h"

namespace retort {

namespace {

// The share of cases whose einsum operands are stored sparse where a backend can.
constexpr double kSparseShare = 0.5;

class TensureRun : public StrategyRun {
 public:
  explicit TensureRun(const CampaignOptions& o) : o_(o) {}

  CasePrograms draw(uint64_t seed) override {
    Rng rng(mix_seed(seed, kEinsumSalt));
    std::vector<DType> numeric;
    // ONNX's Einsum takes no bf16 before opset 22 (the export opset is 17).
    for (DType d : o_.gen.dtypes)
      if (d != DType::boolean && d != DType::bf16) numeric.push_back(d);
    if (numeric.empty()) fail("the tensure strategy needs a numeric dtype (--dtypes)");
    EinsumGenOptions eo;
    eo.dtype =
        numeric[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(numeric.size()) - 1))];
    CasePrograms p;
    p.graphs.push_back({"original", einsum_graph(generate_einsum(eo, rng), eo.dtype)});
    return p;
  }

  void vary(CasePrograms& p, CaseRecord& rec) override {
    auto t = CaseClock::now();
    Rng rng(mix_seed(rec.seed, kRandomSalt));
    for (int k = 1; k <= 2; ++k)
      p.graphs.push_back(
          {fmt::format("permuted_{}", k), permute_einsum_operands(p.graphs[0].graph, rng)});
    rec.extract_ms = ms_since(t);
    Rng storage(mix_seed(rec.seed, kStorageSalt));
    if (storage.coin(kSparseShare))
      p.mutations = {{std::string(kStorageMutationKinds[0]), storage.next_u64() >> 1}};
  }

 private:
  CampaignOptions o_;
};

}  // namespace

StrategyDef tensure_strategy() {
  return {.name = "tensure",
          .summary =
              "an einsum drawn by Algorithm 3, and two operand permutations of it; in half "
              "the cases its operands stored sparse on the xla backends (TENSURE)",
          // Sparse storage needs JAX's BCOO: the xla backends.
          .backends = {"ref", "ort:O0", "ort:O3", "xla:nojit", "xla"},
          .options = {},
          .start = [](const CampaignOptions& o) { return std::make_unique<TensureRun>(o); }};
}

}  // namespace retort
