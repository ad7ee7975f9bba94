#include "core/compare/release_bisect.h"

#include <cmath>

#include <gtest/gtest.h>

#include "core/backend/worker_backend.h"
#include "core/exec/inputs.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

// The fault worker's abs is off by one in element 0; max(abs(x), 100) hides that while |x| stays
// below 99, as the default plan's draws in [-1, 1) do, and shows it where `inputs --range full`
// draws a larger x[0].
const char* kMaskedAbs = R"(graph g
input x : f32[4]
const c : f32[4] = [100.0, 100.0, 100.0, 100.0]
y = abs(x)
out = max(y, c)
output out
)";

// Issue 42: `backend bisect` said "does not reproduce" on the very release a mismatch was found
// on after `inputs --range full`: the check ran again with the default plan. The finding is
// checked again with the plan it was found with.
TEST(ReleaseBisect, AFindingReproducesWithTheInputPlanItWasFoundWith) {
  Graph g = parse_rtg(kMaskedAbs);
  InputPlan full;
  full.range = InputRange::Full;
  uint64_t seed = 1;
  while (seed < 64 && std::abs(generate_inputs(g, seed, nullptr, full).at("x").get(0)) < 100)
    ++seed;
  ASSERT_LT(seed, 64u) << "no seed draws |x[0]| >= 100 over the full range";

  WorkerBackend bad{{.name = "bad",
                     .argv = {RETORT_FAULT_WORKER, "--fault", "perturb", "--perturb-op", "abs"},
                     .timeout_s = 30,
                     .options = {}}};
  ToleranceTable exact;
  exact.set(DType::f32, {0, 0, 0});
  CompareReport report =
      run_compare({{"original", &g}}, {&bad}, {.seed = seed, .runs = 1, .tolerances = exact}, full);
  ASSERT_EQ(report.bug_count(), 1u) << report.bug_count();
  std::string cell;
  EXPECT_TRUE(finding_reproduces(report, *report.bug(1), bad, nullptr, &cell)) << cell;
  EXPECT_EQ(cell.rfind("mismatch", 0), 0u) << cell;

  // The same finding under the default plan does not show: the plan is what reproduces it.
  CompareReport standard = report;
  standard.inputs = {};
  EXPECT_FALSE(finding_reproduces(standard, *standard.bug(1), bad, nullptr, &cell)) << cell;
  EXPECT_EQ(cell, "pass");
}

}  // namespace
}  // namespace retort
