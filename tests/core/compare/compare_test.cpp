#include "core/compare/compare.h"

#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "core/compare/report_format.h"
#include "core/exec/interpreter.h"
#include "core/io/rtg.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

// The original computes (x*y)+x; the variant the same with the product's operands swapped.
const char* kOriginal = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
m = mul(x, y)
out = add(m, x)
output out
)";
const char* kVariant = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
m2 = mul(y, x)
out = add(m2, x)
output out
)";

struct Fixture {
  Graph original = parse_rtg(kOriginal);
  Graph variant = parse_rtg(kVariant);
  std::vector<CompareGraph> graphs() const { return {{"original", &original}, {"v1", &variant}}; }
};

TEST(Compare, AgreeingBackendsPassEveryOracle) {
  Fixture f;
  RefBackend ref;
  CompareReport r = run_compare(f.graphs(), {&ref}, {.seed = 1, .runs = 2, .tolerances = {}});
  EXPECT_EQ(r.backends, std::vector<std::string>{"ref"});
  EXPECT_EQ(r.graphs, (std::vector<std::string>{"original", "v1"}));
  EXPECT_EQ(r.seeds, (std::vector<uint64_t>{1, 2}));
  ASSERT_EQ(r.cells.size(), 2u);
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Pass);
  EXPECT_EQ(r.cell(0, 1).verdict, Verdict::Pass);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.checks.at("reference"), 4u);
  EXPECT_EQ(r.checks.at("equivalence"), 2u);
  EXPECT_EQ(r.checks.count("optimization"), 0u);
}

TEST(Compare, AWrongKernelFiresEveryOracleThatSeesIt) {
  Fixture f;
  RefBackend ref;
  // fam:a is right, fam:b is wrong on the original only (its mul is miscompiled there).
  WrongBackend right("fam:a", {}), wrong("fam:b", {"out"});
  struct OnlyOriginal : Backend {
    WrongBackend& inner;
    RefBackend plain;
    explicit OnlyOriginal(WrongBackend& w) : inner(w) {}
    BackendInfo info() const override { return inner.info(); }
    RunResult run(const RunRequest& q) override {
      return q.graph->find_node("m") ? inner.run(q) : plain.run(q);
    }
  } wrong_on_original(wrong);
  CompareReport r = run_compare(f.graphs(), {&ref, &right, &wrong_on_original},
                                {.seed = 7, .runs = 1, .tolerances = {}});
  EXPECT_EQ(r.cell(2, 0).verdict, Verdict::Mismatch);
  EXPECT_EQ(r.cell(2, 1).verdict, Verdict::Pass);
  EXPECT_EQ(r.cell(1, 0).verdict, Verdict::Pass);
  std::map<std::string, int> fired;
  for (const Finding& finding : r.findings) {
    EXPECT_EQ(finding.verdict, Verdict::Mismatch);
    EXPECT_EQ(finding.backend_a, "fam:b");
    fired[std::string(oracle_name(finding.oracle))]++;
    ASSERT_EQ(finding.outputs.size(), 1u);
    EXPECT_EQ(finding.outputs[0].mismatched, 1);
    EXPECT_NEAR(finding.outputs[0].max_abs_error, 1.0, 1e-6);
    EXPECT_NEAR(finding.outputs[0].chebyshev, 1.0, 1e-6);
  }
  EXPECT_EQ(fired["reference"], 1);
  EXPECT_EQ(fired["equivalence"], 1);   // fam:b: v1 against the original
  EXPECT_EQ(fired["optimization"], 1);  // fam:b against fam:a on the original
  EXPECT_EQ(r.bug_count(), 3u);
  ASSERT_NE(r.bug(1), nullptr);
  EXPECT_EQ(r.bug(1)->oracle, Oracle::Reference);

  std::string text = compare_report_text(r);
  EXPECT_NE(text.find("fam:b    mismatch  pass"), std::string::npos) << text;
  EXPECT_NE(text.find("equivalence: 3 checks, 1 failed"), std::string::npos) << text;
  auto j = nlohmann::json::parse(compare_report_json(r));
  EXPECT_EQ(j["bugs"], 3);
  EXPECT_EQ(j["cells"][4]["verdict"], "mismatch");
  EXPECT_EQ(j["findings"][0]["outputs"][0]["mismatched"], 1);
}

TEST(Compare, FailedRunsAndUnsupportedCells) {
  Fixture f;
  FailingBackend crash("c", RunStatus::Crash), unsupported("u", RunStatus::Unsupported);
  CompareReport r = run_compare(f.graphs(), {&crash, &unsupported}, {});
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Crash);
  EXPECT_EQ(r.cell(1, 1).verdict, Verdict::Unsupported);
  for (const Finding& finding : r.findings) EXPECT_EQ(finding.backend_a, "c");
  EXPECT_NE(compare_report_text(r).find("note: u on original: unsupported: test failure"),
            std::string::npos);
}

TEST(Compare, UndefinedInputsAreFlaggedNotReported) {
  Graph g = parse_rtg(R"(graph g
input x : f32[4]
z = sub(x, x)
d = div(x, z)
e = tanh(d)
output e
)");
  WrongBackend wrong("w", {"e"});
  CompareReport r = run_compare({{"original", &g}}, {&wrong}, {});
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Undefined);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.bug_count(), 0u);
  EXPECT_NE(r.findings[0].undefined.find("node 'd' (div)"), std::string::npos);
}

// An undefined op taints only what it feeds: a wrong output beside it is still a bug, and the
// finding does not blame the unrelated division.
TEST(Compare, AnUndefinedOpElsewhereLeavesAnotherOutputsDifference) {
  Graph g = parse_rtg(R"(graph g
input x : f32[4]
z = sub(x, x)
d = div(x, z)
e = tanh(d)
f = neg(x)
output e, f
)");
  WrongBackend wrong("w", {"f"});
  CompareReport r = run_compare({{"original", &g}}, {&wrong}, {});
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Mismatch);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->undefined, "");
  WrongBackend both("w", {"e", "f"});
  EXPECT_EQ(run_compare({{"original", &g}}, {&both}, {}).cell(0, 0).verdict, Verdict::Undefined);
}

// --keep-undefined keeps the difference as a finding a person can look at and export.
TEST(Compare, KeepUndefinedKeepsTheVerdict) {
  Graph g = parse_rtg(R"(graph g
input x : f32[4]
z = sub(x, x)
d = div(x, z)
e = tanh(d)
output e
)");
  WrongBackend wrong("w", {"e"});
  CompareOptions keep_undefined;
  keep_undefined.keep_undefined = true;
  CompareReport r = run_compare({{"original", &g}}, {&wrong}, keep_undefined);
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Mismatch);
  EXPECT_EQ(r.bug_count(), 1u);
  EXPECT_NE(r.bug(1)->str().find("(undefined: original: node 'd' (div)"), std::string::npos)
      << r.bug(1)->str();
}

// A difference is run again before it is reported: a backend that answers differently the
// second time is nondeterministic, not a miscompilation; one that repeats itself is a mismatch.
TEST(Compare, ADifferenceThatDoesNotRepeatIsNondeterministic) {
  Fixture f;
  FlakyBackend flaky("flaky", "out");
  CompareReport r = run_compare({{"original", &f.original}}, {&flaky}, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Nondeterministic);
  EXPECT_EQ(r.bug_count(), 0u);
  EXPECT_NE(r.findings[0].message.find("a repeated run of flaky on original gave other values for "
                                       "output 'out'"),
            std::string::npos)
      << r.findings[0].message;
  EXPECT_EQ(flaky.runs(), 2u);

  WrongBackend wrong("w", {"out"});
  r = run_compare({{"original", &f.original}}, {&wrong}, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Mismatch);
}

// A backend wrong on every run by another amount reads what no input defines (uninitialised
// memory): against the exact reference that is a bug, whichever run is taken.
TEST(Compare, ADifferenceWrongOnEveryRunIsAMismatchThoughItChanges) {
  Fixture f;
  FlakyBackend garbage("garbage", "out", /*every_run=*/true);
  CompareReport r = run_compare({{"original", &f.original}}, {&garbage}, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Mismatch);
  EXPECT_EQ(r.bug_count(), 1u);
  EXPECT_NE(r.findings[0].message.find("a repeated run gave other values, as wrong"),
            std::string::npos)
      << r.findings[0].message;
}

// A backend that computes f16 ops in f64 and skips the roundings between them, rounding to f16
// only at the Cast to f64 (what ONNX Runtime does for f16 Exp): its result lies between the
// reference and the wide evaluation, so the difference is `precision`, not a bug, unless asked. A
// wrong kernel stays a mismatch.
TEST(Compare, SkippedRoundingsArePrecisionNotMismatch) {
  Graph g = parse_rtg(R"(graph g
input x : f16[64]
e = exp(x)
s = sin(e)
y = cast(s, to=f64)
output y
)");
  WideBackend wide("wide");
  CompareReport r = run_compare({{"original", &g}}, {&wide}, {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  EXPECT_EQ(r.bug_count(), 0u);
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Precision);

  CompareOptions count_precision;
  count_precision.count_precision = true;
  r = run_compare({{"original", &g}}, {&wide}, count_precision);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);

  WrongBackend wrong("w", {"y"});
  r = run_compare({{"original", &g}}, {&wrong}, {});
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// ONNX Runtime computes f16 math in f32. cos(0.02) is 0.9998 in f32 but rounds to 1.0 in f16, so
// a cast to u8 gives 0 where the reference gives 1, and k >= 1 is false where it is true: the
// skipped rounding became a jump behind a discontinuous op, and lands on what the evaluation in
// f32 gives. A wrong kernel is still a bug.
TEST(Compare, ASkippedRoundingBehindACastToAnIntegerIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f16[2]
const c : f16[2] = [0.02, 0.5]
const one : f16[2] = [1, 1]
s = add(x, c)
k = cos(s)
y = cast(k, to=u8)
b = greater_equal(k, one)
output y, b
)");
  InputPlan zeros;
  zeros.fixed.emplace("x", Tensor::from_doubles(DType::f16, {2}, {0, 0}));
  WideBackend f32("f32", DType::f32);
  CompareReport r = run_compare({{"original", &g}}, {&f32}, {}, zeros);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  WrongBackend wrong("w", {"y"});
  r = run_compare({{"original", &g}}, {&wrong}, {}, zeros);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// ONNX Runtime's sigmoid gives 0 for -52.24, whose sigmoid is 2.05e-23 (an error inside every
// absolute tolerance), and ceil then gives 0 where the reference gives 1, and the comparison
// with 0 (or a cast to bool, or an equal) false where it is true: the tolerated difference took
// the step. The
// band takes each step that a computed input lies within tolerance of either way. A step the
// compiler takes on an exact value stays a mismatch: ceil of a graph input, and ceil of a computed
// 3 (on the step).
TEST(Compare, AStepThatAToleratedDifferenceTakesIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[2]
const zero : f32[2] = [0, 0]
const w : f32[2] = [1e-22, 0.5]
s = sigmoid(x)
c = ceil(s)
b = greater(s, zero)
k = cast(s, to=bool)
q = equal(s, w)
d = add(x, x)
e = ceil(d)
f = ceil(x)
output c, b, k, q, e, f
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {2}, {-52.24, 1.5}));
  auto run = [&](const char* output, Tensor value) {
    ValuesBackend ort("ort", {{output, std::move(value)}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run("c", Tensor::from_doubles(DType::f32, {2}, {0, 1}));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run("b", Tensor::from_doubles(DType::boolean, {2}, {0, 1}));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  // A cast to bool steps at 0 alone: the band moves a value within tolerance onto it.
  r = run("k", Tensor::from_doubles(DType::boolean, {2}, {0, 1}));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run("k", Tensor::from_doubles(DType::boolean, {2}, {1, 0}));  // 1.5's sigmoid is far from 0
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
  // An equal steps where its operands meet: 2e-23 within tolerance of 1e-22 may meet it.
  r = run("q", Tensor::from_doubles(DType::boolean, {2}, {1, 0}));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run("q", Tensor::from_doubles(DType::boolean, {2}, {0, 1}));  // 0.82 is far from 0.5
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);

  r = run("c", Tensor::from_doubles(DType::f32, {2}, {1, 2}));  // far from its step
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
  r = run("e", Tensor::from_doubles(DType::f32, {2}, {-104, 4}));  // ceil(3) on the step
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
  plan.fixed["x"] = Tensor::from_doubles(DType::f32, {2}, {2e-23, 1.5});
  r = run("f", Tensor::from_doubles(DType::f32, {2}, {0, 2}));  // ceil of a graph input
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// ORT's f64 sigmoid gives 0 below -36.7, an absolute error of 1e-16 at most. floor(s) < s is
// then false where it is true; at x = -744.6 s is the least subnormal and floor(s) one ulp below
// it, on the step, yet the operands lie within tolerance: either answer is precision (seed 6913
// default #22). Far from each other (x = 0.5: 0 < 0.62) the comparison has one answer.
TEST(Compare, AComparisonOfOperandsWithinToleranceOfEachOtherGoesEitherWay) {
  Graph g = parse_rtg(R"(graph g
input x : f64[2]
s = sigmoid(x)
f = floor(s)
l = less(f, s)
output l
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f64, {2}, {-744.6024879343836, -83.447}));
  auto run = [&](std::vector<double> l) {
    ValuesBackend ort("ort", {{"l", Tensor::from_doubles(DType::boolean, {2}, l)}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run({0, 0});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  plan.fixed["x"] = Tensor::from_doubles(DType::f64, {2}, {-744.6024879343836, 0.5});
  r = run({0, 0});
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// ONNX Runtime's f32 asin is a few f32 ulps off; cast to f64 and squared, the difference (1e-6
// relative) passes f64's tolerance but is f32 rounding: a computed value cast up keeps its own
// dtype's tolerance. A graph input cast up is exact, so the same difference there is a mismatch,
// and so is a difference past f32's tolerance.
TEST(Compare, AValueCastUpKeepsItsOwnDtypesTolerance) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1]
a = asin(x)
c = cast(a, to=f64)
y = mul(c, c)
d = cast(x, to=f64)
z = mul(d, d)
output y, z
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1}, {0.6f}));
  double asin = std::asin(static_cast<double>(0.6f));
  double square = static_cast<double>(static_cast<float>(asin)) * static_cast<float>(asin);
  double input = static_cast<double>(0.6f) * static_cast<double>(0.6f);
  auto run = [&](const char* output, double value) {
    ValuesBackend ort("ort", {{output, Tensor::from_doubles(DType::f64, {1}, {value})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run("y", square * (1 + 1e-6));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  r = run("y", square + 0.1);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
  r = run("z", input * (1 + 1e-6));
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// A library's acos 2 f32 ulps from the correctly rounded value (ONNX Runtime's, third
// measurement's default #72): next to pi/2 two tans make it 2.914 against 2.897. The band moves
// approximated functions by a few ulps, so that is precision; a result off by more stays a bug.
TEST(Compare, AnApproximatedFunctionAFewUlpsOffIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1]
a = acos(x)
b = tan(a)
y = tan(b)
output y
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1}, {0.0112f}));
  auto chain = [](float acos_value) {
    float b = static_cast<float>(std::tan(static_cast<double>(acos_value)));
    return static_cast<double>(static_cast<float>(std::tan(static_cast<double>(b))));
  };
  float a = static_cast<float>(std::acos(static_cast<double>(0.0112f)));
  float two_ulps_up = std::nextafter(std::nextafter(a, 2.0f), 2.0f);
  double reference = chain(a), library = chain(two_ulps_up);
  ASSERT_GT(std::abs(library - reference), 0.01);  // far outside f32's tolerance
  auto run = [&](double value) {
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f32, {1}, {value})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(library);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(reference + 0.5);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// The mean of [-9e15, 9e15, -0.52, -32767, -65534, 65537] may be off by 3.6e8 in another
// order (ONNX Runtime's is 0.5, the exact one -5460.75): tan of it, and a remainder of that, are
// any value, as the moved mean crosses poles and periods (seed 7216 default #27). A mean of
// [1..6] is 3.5 in every order, and its remainder has one answer.
TEST(Compare, AMoveAcrossPolesAndPeriodsIsAnyValue) {
  Graph g = parse_rtg(R"(graph g
input x : f32[6]
const c : f32[] = -0.54868805
m = reduce_mean(x, axes=[0], keepdims=0)
t = tan(m)
r = mod(t, c, fmod=1)
s = sin(m)
output r, s
)");
  auto run = [&](std::vector<double> x, double r, double s) {
    InputPlan plan;
    plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {6}, x));
    ValuesBackend ort("ort", {{"r", Tensor::from_doubles(DType::f32, {}, {r})},
                              {"s", Tensor::from_doubles(DType::f32, {}, {s})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r =
      run({-9.007199e15, 9.007199e15, -0.5229272, -32767, -65534, 65537}, 0.5463025, std::sin(0.5));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run({1, 2, 3, 4, 5, 6}, 0.1, std::sin(3.5));
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// ONNX Runtime's atan of 3.4e6 is 1.5707961, one ulp above the correctly rounded 1.5707960 and
// 2.5 ulps from pi/2: tan of it is 5.1e6 where the reference's is 3.2e6 (seed 7115 oatest #9).
// Within a few ulps of tan's pole any value is the rounding's; away from it (8925) tan(atan(x))
// has one answer.
TEST(Compare, TanAFewUlpsFromItsPoleIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[2]
a = atan(x)
t = tan(a)
output t
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {2}, {3.407976e6, 8925}));
  auto run = [&](double t0, double t1) {
    ValuesBackend ort("ort", {{"t", Tensor::from_doubles(DType::f32, {2}, {t0, t1})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(5.1359175e6, 8927.534);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(3.1855608e6, 9500);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// An f16 product of 300 and 300 overflows to inf in the reference; a backend that keeps it in f32
// divides it back into range. The infinity is a skipped rounding, not a wrong kernel.
TEST(Compare, AnF16OverflowTheBackendSkipsIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f16[1]
m = mul(x, x)
y = div(m, x)
output y
)");
  InputPlan big;
  big.fixed.emplace("x", Tensor::from_doubles(DType::f16, {1}, {300}));
  WideBackend f32("f32", DType::f32);
  CompareReport r = run_compare({{"original", &g}}, {&f32}, {}, big);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
}

// ONNX Runtime computes f16 math in f32 and rounds only the output: tan(atan(65504)) is about
// 65.5k in f32, past f16's largest value, so it stores inf where the reference, rounding atan's
// result to f16 first, has about 2066. The wide value rounded as the output is stored explains it.
TEST(Compare, AWideValueThatOverflowsWhenStoredIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f16[1]
a = atan(x)
y = tan(a)
output y
)");
  InputPlan max;
  max.fixed.emplace("x", Tensor::from_doubles(DType::f16, {1}, {65504}));
  WideBackend f32("f32", DType::f32);
  CompareReport r = run_compare({{"original", &g}}, {&f32}, {}, max);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
}

// ONNX Runtime sums an f32 matmul in f32: 1e8 + 1 absorbs the 1, so [1e8, 1, -1e8, 1] . 1 is 1
// where the reference's f64 sum gives 2. Any order of the sum may lose eps(f32) x the sum of the
// terms' magnitudes (here 24), so 1 is precision; the second row's terms are small, and 11 for 10
// stays a mismatch.
TEST(Compare, AnF32SumThatCancelsIsPrecision) {
  // The same product as an einsum, whose contraction sums alike (seed 7115 oatest #6).
  for (const char* product : {"matmul(a, b)", "einsum(a, b, equation=\"ij,jk->ik\")"}) {
    Graph g = parse_rtg(fmt::format(R"(graph g
input a : f32[2,4]
input b : f32[4,1]
y = {}
output y
)",
                                    product));
    InputPlan plan;
    plan.fixed.emplace("a",
                       Tensor::from_doubles(DType::f32, {2, 4}, {1e8, 1, -1e8, 1, 1, 2, 3, 4}));
    plan.fixed.emplace("b", Tensor::from_doubles(DType::f32, {4, 1}, {1, 1, 1, 1}));
    ValuesBackend f32("f32", {{"y", Tensor::from_doubles(DType::f32, {2, 1}, {1, 10})}});
    CompareReport r = run_compare({{"original", &g}}, {&f32}, {}, plan);
    ASSERT_EQ(r.findings.size(), 1u) << product;
    EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

    ValuesBackend wrong("w", {{"y", Tensor::from_doubles(DType::f32, {2, 1}, {2, 11})}});
    r = run_compare({{"original", &g}}, {&wrong}, {}, plan);
    ASSERT_EQ(r.bug_count(), 1u) << product;
    EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
  }
}

// A product of a sum that cancels: v = x @ [0.3, -0.3] of x near 1e8 is off by up to 7 in f32
// (-2 where the exact value is -2.4), and v @ transpose(v) takes that off with either sign (4
// where the exact value is 5.76), which moving every value the same way does not bound (seed
// 7216 oatest #13). A result past what the moves carry (500) is a mismatch.
TEST(Compare, ASumOfMovedTermsCarriesTheirMovesEitherWay) {
  Graph g = parse_rtg(R"(graph g
input x : f32[3,2]
const c : f32[2,1] = [[0.3], [-0.3]]
v = matmul(x, c)
t = transpose(v, perm=[1,0])
y = matmul(v, t)
output y
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {3, 2},
                                               {1e8, 1e8 + 8, 1e8 + 16, 1e8 - 24, 3e7, 3e7 + 40}));
  auto run = [&](double y00) {
    ValuesBackend ort("ort",
                      {{"y", Tensor::from_doubles(DType::f32, {3, 3},
                                                  {y00, -24, 24, -24, 144, -144, 24, -144, 144})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(4);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(500);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// A mean of [DBL_MAX, -DBL_MAX, -0.476, 0.206, 0.896]: summed in order the two cancel (0.1252,
// the reference); ONNX Runtime's order lets DBL_MAX absorb the small terms (0.1791). The sum of
// magnitudes passes DBL_MAX, so any order's result is possible: precision. A mean of small values
// that is off stays a mismatch.
TEST(Compare, ASumWhoseOrderDecidesWhatIsAbsorbedIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f64[2,5]
y = reduce_mean(x, axes=[1], keepdims=0)
output y
)");
  const double max = std::numeric_limits<double>::max();
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f64, {2, 5},
                                               {max, -max, -0.476, 0.206, 0.896, 1, 2, 3, 4, 5}));
  ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f64, {2}, {0.1791, 3})}});
  CompareReport r = run_compare({{"original", &g}}, {&ort}, {}, plan);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  ValuesBackend wrong("w", {{"y", Tensor::from_doubles(DType::f64, {2}, {0.1252, 3.001})}});
  r = run_compare({{"original", &g}}, {&wrong}, {}, plan);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// ONNX does not say how an integer mean rounds; ONNX Runtime and onnx.reference divide the sum
// in f64. Above 2^53 that rounds the exact mean ...593.5 (the reference truncates: ...593) to the
// double ...594: precision. ONNX Runtime's i64 sum in doubles, off by far more (docs/bugs.md row
// 14), stays a mismatch, and so does any difference below 2^53.
TEST(Compare, AnIntegerMeanDividedInF64IsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : i64[2,2]
y = reduce_mean(x, axes=[1], keepdims=0)
output y
)");
  auto mean = [](int64_t big, int64_t small) {
    return Tensor::from_ints(DType::i64, {2}, {big, small});
  };
  InputPlan plan;
  plan.fixed.emplace(
      "x", Tensor::from_ints(DType::i64, {2, 2}, {11821949021847593, 11821949021847594, 3, 4}));
  ValuesBackend ort("ort", {{"y", mean(11821949021847594, 3)}});
  CompareReport r = run_compare({{"original", &g}}, {&ort}, {}, plan);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  for (Tensor wrong : {mean(11821949021847593 + 188, 3), mean(11821949021847593, 4)}) {
    ValuesBackend w("w", {{"y", wrong}});
    r = run_compare({{"original", &g}}, {&w}, {}, plan);
    ASSERT_EQ(r.bug_count(), 1u);
    EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
  }
}

// An integer sum is exact: 2^53 for 2^53 + 1 (ONNX Runtime summing int64 in double) is a
// mismatch, though the two are one double.
TEST(Compare, AnIntegerSumOffByOnePast2To53IsAMismatch) {
  Graph g = parse_rtg(R"(graph g
input x : i64[2]
y = reduce_sum(x, keepdims=1)
output y
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_ints(DType::i64, {2}, {9007199254740992, 1}));
  ValuesBackend ort("ort", {{"y", Tensor::from_ints(DType::i64, {1}, {9007199254740992})}});
  CompareReport r = run_compare({{"original", &g}}, {&ort}, {}, plan);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch);
}

// The equivalence and optimization oracles compare two backend runs; each side that lies in its
// graph's band makes the difference precision there too.
TEST(Compare, TheBandCoversTheEquivalenceAndOptimizationOracles) {
  Graph g = parse_rtg(R"(graph g
input x : f16[64]
e = exp(x)
s = sin(e)
y = cast(s, to=f64)
output y
)");
  Graph v = parse_rtg(R"(graph g
input x : f16[64]
e2 = exp(x)
s = sin(e2)
y = cast(s, to=f64)
output y
)");
  WideBackend o0("fam:O0", DType::f64, "nothing");  // runs as the reference does
  WideBackend o3("fam:O3", DType::f32);
  WideBackend fused("one", DType::f32, "e2");  // wide on the variant only
  CompareReport r = run_compare({{"original", &g}, {"v", &v}}, {&o0, &o3, &fused},
                                {.seed = 3, .runs = 1, .tolerances = {}});
  std::map<std::string, Verdict> by_oracle;
  for (const auto& f : r.findings)
    by_oracle[fmt::format("{} {}", oracle_name(f.oracle), f.backend_a)] = f.verdict;
  EXPECT_EQ(by_oracle.at("optimization fam:O3"), Verdict::Precision);
  EXPECT_EQ(by_oracle.at("equivalence one"), Verdict::Precision);
  EXPECT_EQ(r.bug_count(), 0u);

  CompareOptions counted{.seed = 3, .runs = 1, .tolerances = {}};
  counted.count_precision = true;
  r = run_compare({{"original", &g}, {"v", &v}}, {&o0, &o3, &fused}, counted);
  by_oracle.clear();
  for (const auto& f : r.findings)
    by_oracle[fmt::format("{} {}", oracle_name(f.oracle), f.backend_a)] = f.verdict;
  EXPECT_EQ(by_oracle.at("optimization fam:O3"), Verdict::Mismatch);
  EXPECT_EQ(by_oracle.at("equivalence one"), Verdict::Mismatch);
}

// ONNX Runtime 1.16.3 computes the f16 product x * c in f32 and casts it to f64 without the
// rounding to f16 that its explicit Cast owes (the class fixed by its PR #17953): it gives
// -0.13393306732177734, which no f16 holds, where the f16 product is -0.1339111328125. The band
// never crosses an explicit cast up from a narrower float, so that is a mismatch. An f16 one ulp
// off lies within f16's tolerance (precision), and a compiler that computes f16 math in f32 and
// rounds at the Cast agrees with the reference.
TEST(Compare, AnF16ProductCastToF64WithoutItsRoundingIsAMismatch) {
  Graph g = parse_rtg(R"(graph g
input x : f16[1]
const c : f16[1] = [0.541015625]
m = mul(x, c)
d = cast(m, to=f64)
output d
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f16, {1}, {-0.24755859375}));
  auto run = [&](double value) {
    ValuesBackend ort("ort@1.16.3:O3", {{"d", Tensor::from_doubles(DType::f64, {1}, {value})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(-0.13393306732177734);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Mismatch) << r.findings[0].str();
  ASSERT_EQ(r.findings[0].outputs.size(), 1u);
  EXPECT_EQ(r.findings[0].outputs[0].first_expected, -0.1339111328125);

  r = run(-0.1339111328125 - 0x1p-13);  // the next f16 down
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  WideBackend f32("f32", DType::f32);
  r = run_compare({{"original", &g}}, {&f32}, {}, plan);
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].str();
}

// The same product cast to f32 (docs/bugs.md row 27 on ONNX Runtime 1.31.1): the unrounded value
// lies 1.6e-4 from the f16 one, within f32's tolerance of 1e-3, yet no f16 holds it, so the
// rounding the Cast owes is lost: a mismatch, though every element passes the tolerance.
TEST(Compare, AnF16ProductCastToF32WithoutItsRoundingIsAMismatchWithinF32sTolerance) {
  Graph g = parse_rtg(R"(graph g
input x : f16[2]
const c : f16[2] = [0.541015625, 1]
m = mul(x, c)
d = cast(m, to=f32)
output d
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f16, {2}, {-0.24755859375, 0.5}));
  auto run = [&](double value) {
    ValuesBackend ort("ort:O3", {{"d", Tensor::from_doubles(DType::f32, {2}, {value, 0.5})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(static_cast<float>(-0.13393306732177734));
  ASSERT_EQ(r.bug_count(), 1u);
  const Finding& f = *r.bug(1);
  EXPECT_EQ(f.verdict, Verdict::Mismatch) << f.str();
  ASSERT_EQ(f.outputs.size(), 1u);
  EXPECT_EQ(f.outputs[0].mismatched, 1);
  EXPECT_EQ(f.outputs[0].first_mismatch, 0);
  EXPECT_EQ(f.outputs[0].first_expected, -0.1339111328125);
  EXPECT_NE(f.message.find("no f16 holds"), std::string::npos) << f.message;

  r = run(-0.1339111328125 - 0x1p-13);  // the next f16 down: an f16 rounded otherwise passes
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].str();
}

// ONNX Runtime has f16 kernels for ops that only move data and none for Sub, Selu or Cos: it
// computes the Sub in f32, rounds it to f16 for the Flatten (65504.5 -> 65504), and runs
// Selu -> Cos in f32 again, so selu(65504) = 68825.12 never overflows to the reference's f16 inf
// and cos gives 0.63 where the reference has NaN (seed 6610 oatest #9). The whole graph in f32
// gives cos(selu(65504.5)) = 0.95: only the island that ends at the Flatten explains it. A value
// no evaluation gives stays a mismatch.
TEST(Compare, AnF32IslandThatEndsWhereDataOnlyMovesIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f16[1]
input y : f16[1]
v1 = sub(x, y)
v2 = flatten(v1)
v3 = selu(v2)
v4 = cos(v3)
output v4
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f16, {1}, {65504}));
  plan.fixed.emplace("y", Tensor::from_doubles(DType::f16, {1}, {-0.5}));
  auto run = [&](double value) {
    ValuesBackend ort("ort:O0", {{"v4", Tensor::from_doubles(DType::f16, {1, 1}, {value})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  float selu = static_cast<float>(1.0507009873554804934193349852946) * 65504.0f;
  CompareReport r = run(std::cos(selu));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  r = run(-0.25);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::NanInfMismatch) << r.bug(1)->str();
}

// ONNX Runtime's global average of [-1.8e19, 1.8e19, -0.63, -2.1e9, -0.39] sums in another order
// than the reference: -2.1e9 is absorbed by -1.8e19 (an f32 ulp there is 2.2e12) and the mean
// comes out -0.078 where the exact one is -4.3e8; sinh then gives -0.0785 against -inf (seed
// 6812 oatest #3). The band's sums moved by their rounding (+-8.8e11) make sinh +-inf: an open
// interval that holds the finite value. A band of one infinity alone holds none.
TEST(Compare, AFiniteValueBetweenInfiniteEndsOfTheBandIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,1,5]
m = global_average_pool(x)
y = sinh(m)
output y
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 1, 5},
                                               {-1.8446744e19, 1.8446744e19, -0.62647617,
                                                -2.1474836e9, -0.39209896}));
  auto run = [&](double value) {
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f32, {1, 1, 1}, {value})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(-0.0785002);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();

  Graph one = parse_rtg(R"(graph g
input x : f32[1]
y = exp(x)
output y
)");
  InputPlan big;
  big.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1}, {1000}));
  ValuesBackend finite("ort", {{"y", Tensor::from_doubles(DType::f32, {1}, {3})}});
  r = run_compare({{"original", &one}}, {&finite}, {}, big);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::NanInfMismatch) << r.bug(1)->str();
}

// An op that is not monotone is not bounded by its values at the band's ends: the average of
// [0.84, -9.0e15, 9.0e15] is 0.28 exactly and 0 in f32 (ONNX Runtime and onnx.reference), and
// cosh gives 1.0 against the reference's 1.04, while cosh at either end of the moved sum (0.28 +-
// 7e8) is inf (seed 6812 default #12). The sum moved toward 0, onto it, gives the compiler's 1.
TEST(Compare, ASumThatCancelsToZeroInTheDtypeIsPrecisionBehindCosh) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,1,1,3]
m = average_pool(x, kernel_shape=[1,3])
y = cosh(m)
output y
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 1, 1, 3},
                                               {0.84077317, -9.0071993e15, 9.0071993e15}));
  auto run = [&](double value) {
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f32, {1, 1, 1, 1}, {value})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(1.0);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(0.5);  // below cosh's least value
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// Standardizing in f32 rounds where the exact computation does not: x - mean of the nearly equal
// plane [0.38414547, 0.3841812] keeps 3 digits, so a scale of 2^32 gives 88704 (ONNX Runtime)
// or 88681 (onnx.reference) for the exact 88607 (seed 6812 default #5); a GroupNormalization
// with scale and bias -FLT_MAX keeps only 1 + n of n * scale + b, and f32's n gives -3.95507e33
// for the exact -3.96522e33 (#24). Both lie in the band; a value far off does not.
TEST(Compare, StandardizingInTheDtypeIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,1,2]
input s : f32[1]
input b : f32[1]
y = instance_norm(x, s, b, epsilon=0.75)
input gx : f32[1,2]
input gs : f32[2]
z = group_norm(gx, gs, gs, num_groups=1)
output y, z
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 1, 2}, {0.38414547, 0.3841812}));
  plan.fixed.emplace("s", Tensor::from_doubles(DType::f32, {1}, {4.2949673e9}));
  plan.fixed.emplace("b", Tensor::from_doubles(DType::f32, {1}, {0}));
  plan.fixed.emplace("gx", Tensor::from_doubles(DType::f32, {1, 2}, {0.42254385, -0.8875337}));
  plan.fixed.emplace("gs", Tensor::from_doubles(DType::f32, {2}, {-1, -3.4028235e38}));
  auto run = [&](double y1, double z1) {
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f32, {1, 1, 2}, {-y1, y1})},
                              {"z", Tensor::from_doubles(DType::f32, {1, 2}, {-1.9999884, z1})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(88704, -3.9550699e33);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(95000, -3.9550699e33);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// A block's mean rounded in f32 is off by a few ulps of its terms, which x - mean keeps whole:
// next to the mean that is much of the result (an element 1e-6 from its group's mean was 1.3% off
// in ONNX Runtime and onnx.reference: seed 7418 default #43). Here d = 0.1 is the mean of
// [0.9, -0.7, 0.1, 0.1] within f32's rounding, scaled by 1e10: 1000 off is precision, 5000 off
// is not.
TEST(Compare, AnElementNextToItsBlocksRoundedMeanIsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,4]
input s : f32[4]
input b : f32[4]
y = group_norm(x, s, b, num_groups=1)
output y
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 4}, {0.9, -0.7, 0.1, 0.1}));
  plan.fixed.emplace("s", Tensor::from_doubles(DType::f32, {4}, {1, 1, 1, 1e10}));
  plan.fixed.emplace("b", Tensor::from_doubles(DType::f32, {4}, {0, 0, 0, 0}));
  Tensor exact = evaluate(g, plan.fixed).at("y");
  auto run = [&](double off) {
    Tensor y = exact;
    y.set(3, y.get(3) + off);
    ValuesBackend ort("ort", {{"y", y}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(1000);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(5000);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// A compiler sums a block's statistics in the dtype: over 4,096 f32 values its deviation may be
// off by eps * log2(4096) = 1.4e-6 of itself, and next to tan's pole that is far more than the
// tolerance (seed 6913 default #21: 65,536 values, 56 elements off). The band bounds it by the
// block's length; a standardized value 2e-5 off is past it.
TEST(Compare, ALongBlocksStatisticsRoundedInTheDtypeArePrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,1,4096]
input s : f32[1]
input b : f32[1]
y = instance_norm(x, s, b)
t = tan(y)
output t
)");
  std::vector<double> x(4096);
  for (size_t k = 0; k < x.size(); ++k) x[k] = k % 2 ? -1 : 1;
  double standardized = 1 / std::sqrt(1 + double{1e-5f});  // of 1, with epsilon 1e-5
  double near_pole = static_cast<float>(M_PI / 2 - 3e-5);
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 1, 4096}, x));
  plan.fixed.emplace("s", Tensor::from_doubles(DType::f32, {1}, {near_pole}));
  plan.fixed.emplace("b", Tensor::from_doubles(DType::f32, {1}, {0}));
  auto run = [&](double off) {
    std::vector<double> t(x.size());
    for (size_t k = 0; k < t.size(); ++k)
      t[k] = std::tan(static_cast<float>(x[k] * near_pole * standardized * (1 + off)));
    ValuesBackend ort("ort", {{"t", Tensor::from_doubles(DType::f32, {1, 1, 4096}, t)}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(1e-6);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(-2e-5);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// ONNX Runtime computes a linear resize's source coordinates in f32 as x * (L_in - 1) /
// (L_out - 1), the product rounded: for 61796 -> 30898 values up to 0.004 apart, and with input
// values alternating +-1 the result up to 0.015 off (seed 6812 default #7, seed 7216 #39). The
// band moves each result by the slope there times that rounding; a result off by 0.1 is past it.
TEST(Compare, AResizeWithItsCoordinatesInF32IsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,1,61796]
y = resize(x, coordinate_transformation_mode="align_corners", mode="linear", sizes=[1,1,30898])
output y
)");
  std::vector<double> x(61796);
  for (size_t k = 0; k < x.size(); ++k) x[k] = k % 2 ? -1 : 1;
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 1, 61796}, x));
  auto run = [&](double off) {
    std::vector<double> y(30898);
    for (size_t i = 0; i < y.size(); ++i) {
      float c = static_cast<float>(static_cast<float>(i) * 61795.0f) / 30897.0f;  // ORT's order
      size_t lo = static_cast<size_t>(c), hi = std::min<size_t>(lo + 1, x.size() - 1);
      double w = c - static_cast<float>(lo);
      y[i] = x[lo] + w * (x[hi] - x[lo]) + (i == 7 ? off : 0);
    }
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f32, {1, 1, 30898}, y)}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(0);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(0.1);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// Rounding to the nearest index, an f32 coordinate that close to the middle between two takes
// the other neighbour: 60852 -> 121704 in ONNX Runtime, TVM and OpenVINO (seed 7317 default
// #25). A value that is neither neighbour is a mismatch.
TEST(Compare, ANearestResizeWithItsCoordinatesInF32IsPrecision) {
  Graph g = parse_rtg(R"(graph g
input x : f32[1,1,60852]
y = resize(x, coordinate_transformation_mode="align_corners", sizes=[1,1,121704])
output y
)");
  std::vector<double> x(60852);
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<double>(k % 7) - 3;
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f32, {1, 1, 60852}, x));
  auto run = [&](double off) {
    std::vector<double> y(121704);
    for (size_t i = 0; i < y.size(); ++i) {
      float c = static_cast<float>(static_cast<float>(i) * 60851.0f) / 121703.0f;  // ORT's order
      double f = std::floor(c);
      size_t k = static_cast<size_t>(c - f == 0.5 ? f : std::round(c));  // round_prefer_floor
      y[i] = x[std::min(k, x.size() - 1)] + (i == 9 ? off : 0);
    }
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::f32, {1, 1, 121704}, y)}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  CompareReport r = run(0);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  r = run(0.5);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// A compiler computes a graph in one wider type, so one explains all the outputs of its run.
// With x = 256 (f16), x^2 overflows f16 already (the reference's inf) and x^16 overflows f32 but
// not f64. y = x^16 / x^8 > x^8 is true only in f32 (inf > 2^64; the reference compares a NaN,
// f64 2^64 with itself); z = x^16 == 2 x^16 is false only in f64 (inf == inf elsewhere). y true
// with z true is f32's run and y false with z false f64's: precision. y true with z false is no
// one type's: a mismatch, though each output alone lies in a band.
TEST(Compare, OneWiderTypeExplainsAllTheOutputsOfARun) {
  Graph g = parse_rtg(R"(graph g
input x : f16[1]
const two : f16[1] = [2]
m2 = mul(x, x)
m4 = mul(m2, m2)
m8 = mul(m4, m4)
m16 = mul(m8, m8)
q = div(m16, m8)
y = greater(q, m8)
d = mul(m16, two)
z = equal(m16, d)
output y, z
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_doubles(DType::f16, {1}, {256}));
  auto run = [&](bool y, bool z) {
    ValuesBackend ort("ort", {{"y", Tensor::from_doubles(DType::boolean, {1}, {y ? 1.0 : 0.0})},
                              {"z", Tensor::from_doubles(DType::boolean, {1}, {z ? 1.0 : 0.0})}});
    return run_compare({{"original", &g}}, {&ort}, {}, plan);
  };
  for (auto [y, z] : {std::pair{true, true}, std::pair{false, false}}) {
    CompareReport r = run(y, z);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].verdict, Verdict::Precision) << r.findings[0].str();
  }
  CompareReport r = run(true, false);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Mismatch) << r.bug(1)->str();
}

// An integer power with a negative exponent is defined nowhere (the reference's truncation is its
// own choice): a compiler that fails or crashes there is not counted. Elsewhere it is.
TEST(Compare, AFailureOnAnIntegerPowerWithANegativeExponentIsUndefined) {
  Graph g = parse_rtg(R"(graph g
input x : i32[2]
input k : i32[2]
y = pow(x, k)
output y
)");
  InputPlan negative;
  negative.fixed.emplace("x", Tensor::from_ints(DType::i32, {2}, {3, 2}));
  negative.fixed.emplace("k", Tensor::from_ints(DType::i32, {2}, {2, -1}));
  FailingBackend error("e", RunStatus::Error), crash("c", RunStatus::Crash);
  CompareReport r = run_compare({{"original", &g}}, {&error, &crash}, {}, negative);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Undefined) << r.findings[0].str();
  EXPECT_EQ(r.findings[1].verdict, Verdict::Undefined) << r.findings[1].str();
  EXPECT_EQ(r.bug_count(), 0u);

  InputPlan positive = negative;
  positive.fixed["k"] = Tensor::from_ints(DType::i32, {2}, {2, 1});
  r = run_compare({{"original", &g}}, {&error, &crash}, {}, positive);
  EXPECT_EQ(r.bug_count(), 2u);
}

// An i64 product that overflows wraps to INT64_MIN, and INT64_MIN / -1 has no i64 quotient:
// ONNX Runtime dies of SIGFPE there, and that crash is no bug, though the overflow before it
// leaves only values open (a crash after it alone still counts). INT64_MIN mod -1 is 0, defined: a
// crash there stays a finding (ONNX Runtime's Mod, docs/bugs.md row 4).
TEST(Compare, ACrashOnAnIntegerQuotientTheDtypeCannotHoldIsUndefined) {
  Graph g = parse_rtg(R"(graph g
input x : i64[2]
input d : i64[1]
p = reduce_prod(x, keepdims=1)
q = div(p, d)
output q
)");
  InputPlan plan;
  plan.fixed.emplace("x", Tensor::from_ints(DType::i64, {2}, {int64_t{1} << 62, 2}));
  plan.fixed.emplace("d", Tensor::from_ints(DType::i64, {1}, {-1}));
  FailingBackend crash("c", RunStatus::Crash);
  CompareReport r = run_compare({{"original", &g}}, {&crash}, {}, plan);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Undefined) << r.findings[0].str();
  EXPECT_NE(r.findings[0].undefined.find("then node 'q' (div)"), std::string::npos)
      << r.findings[0].undefined;
  // An error is not a crash: the model may fail for a reason of its own (ONNX Runtime's MaxPool
  // length in a case with such a division), so it still counts.
  FailingBackend error("e", RunStatus::Error);
  r = run_compare({{"original", &g}}, {&error}, {}, plan);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Error) << r.bug(1)->str();

  Graph mod = parse_rtg(R"(graph g
input x : i64[2]
input d : i64[1]
p = reduce_prod(x, keepdims=1)
q = mod(p, d)
output q
)");
  r = run_compare({{"original", &mod}}, {&crash}, {}, plan);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Crash) << r.bug(1)->str();

  // A product past the range that the reference wraps to another value: ONNX Runtime converts
  // it to INT64_MIN, so its division by -1 is open too. Divided by 3 it is not.
  plan.fixed["x"] = Tensor::from_ints(DType::i64, {2}, {int64_t{3} << 61, 3});
  r = run_compare({{"original", &g}}, {&crash}, {}, plan);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].verdict, Verdict::Undefined) << r.findings[0].str();
  plan.fixed["d"] = Tensor::from_ints(DType::i64, {1}, {3});
  r = run_compare({{"original", &g}}, {&crash}, {}, plan);
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::Crash) << r.bug(1)->str();
}

// A compiler that refuses a form it cannot run (a refusal in its family's declaration) is
// unsupported there, not a finding; another error from it still is.
TEST(Compare, ARefusalOfTheFamilyIsUnsupported) {
  Fixture f;
  FailingBackend refuses("ort:O3", RunStatus::Error,
                         "Status Message: Dilation not supported for AutoPadType::SAME_UPPER or "
                         "AutoPadType::SAME_LOWER.");
  CompareReport r = run_compare({{"original", &f.original}}, {&refuses}, {});
  EXPECT_EQ(r.bug_count(), 0u);
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Unsupported);
  EXPECT_NE(r.cell(0, 0).message.find("ort:O3 refuses Conv"), std::string::npos)
      << r.cell(0, 0).message;

  FailingBackend fails("ort:O3", RunStatus::Error, "Status Message: invalid expand shape");
  r = run_compare({{"original", &f.original}}, {&fails}, {});
  EXPECT_EQ(r.bug_count(), 1u);
  FailingBackend elsewhere("xla:jit", RunStatus::Error,
                           "Dilation not supported for AutoPadType::SAME_UPPER or "
                           "AutoPadType::SAME_LOWER");
  r = run_compare({{"original", &f.original}}, {&elsewhere}, {});
  EXPECT_EQ(r.bug_count(), 1u);
}

// ORT 1.16.3 refuses Slice of a 0-d tensor when it runs the model at O0 (its worker says
// "unsupported"), and its constant folding raises the same kernel message while loading at O3:
// the O3 error is that refusal, not a finding. An error of another release, or another text,
// still is.
TEST(Compare, AnErrorRepeatingAnotherModesRefusalIsThatRefusal) {
  Fixture f;
  FailingBackend o0("ort@1.16.3:O0", RunStatus::Unsupported,
                    "Non-zero status code returned while running Slice node. Name:'n5' Status "
                    "Message: Cannot slice scalars\n");
  FailingBackend o3("ort@1.16.3:O3", RunStatus::Error, "Cannot slice scalars");
  CompareReport r = run_compare({{"original", &f.original}}, {&o0, &o3}, {});
  EXPECT_EQ(r.bug_count(), 0u) << r.bug(1)->str();
  EXPECT_EQ(r.cell(0, 0).verdict, Verdict::Unsupported);
  EXPECT_EQ(r.cell(1, 0).verdict, Verdict::Unsupported);
  EXPECT_NE(r.cell(1, 0).message.find("ort@1.16.3:O3 refuses what ort@1.16.3:O0 refuses"),
            std::string::npos)
      << r.cell(1, 0).message;

  FailingBackend newer("ort:O3", RunStatus::Error, "Cannot slice scalars");
  r = run_compare({{"original", &f.original}}, {&o0, &newer}, {});
  EXPECT_EQ(r.cell(1, 0).verdict, Verdict::Error);
  FailingBackend other("ort@1.16.3:O3", RunStatus::Error, "invalid expand shape");
  r = run_compare({{"original", &f.original}}, {&o0, &other}, {});
  EXPECT_EQ(r.cell(1, 0).verdict, Verdict::Error);
}

// ORT 1.16.3 on pad(c, mode="edge", pads=[]) of a 0-d bool constant: O0 refuses it when it runs
// the Pad kernel (its worker says "unsupported"), and O3's constant folding raises the same
// kernel text while loading, after the prefix "Exception during initialization: " (the two
// messages as that release gives them). The O3 error is that refusal, whatever the prefix its
// release wraps it in; another family's prefix is not stripped.
TEST(Compare, ARefusalRepeatedAfterItsReleasesPrefixIsThatRefusal) {
  const std::string kernel =
      "/onnxruntime_src/onnxruntime/core/providers/cpu/tensor/pad.cc:325 "
      "onnxruntime::common::Status onnxruntime::PadImpl(onnxruntime::OpKernelContext*, const "
      "PadsVector&, const PadsVector&, const onnxruntime::Mode&, T) [with T = unsigned char; "
      "onnxruntime::PadsVector = absl::lts_20220623::InlinedVector<long int, 10, "
      "std::allocator<long int> >] data_rank > 0 was false. Input tensor has no dimensions\n";
  Fixture f;
  FailingBackend o0("ort@1.16.3:O0", RunStatus::Unsupported,
                    "Non-zero status code returned while running Pad node. Name:'p' Status "
                    "Message: " +
                        kernel);
  FailingBackend o3("ort@1.16.3:O3", RunStatus::Error,
                    "Exception during initialization: " + kernel);
  CompareReport r = run_compare({{"original", &f.original}}, {&o0, &o3}, {});
  EXPECT_EQ(r.bug_count(), 0u) << r.bug(1)->str();
  EXPECT_EQ(r.cell(1, 0).verdict, Verdict::Unsupported);
  EXPECT_NE(r.cell(1, 0).message.find("ort@1.16.3:O3 refuses what ort@1.16.3:O0 refuses: "
                                      "/onnxruntime_src/"),
            std::string::npos)
      << r.cell(1, 0).message;

  FailingBackend xla_o0("xla:nojit", RunStatus::Unsupported, "Status Message: " + kernel);
  FailingBackend xla_jit("xla:jit", RunStatus::Error, "Exception during initialization: " + kernel);
  r = run_compare({{"original", &f.original}}, {&xla_o0, &xla_jit}, {});
  EXPECT_EQ(r.cell(1, 0).verdict, Verdict::Error);
}

// The reference cannot evaluate a gather at an index outside the axis; the note says why.
TEST(Compare, AReferenceFailureOnUndefinedInputsNamesThem) {
  Graph g = parse_rtg(R"(graph g
input x : f32[3]
const i : i64[2] = [0, 7]
y = gather(x, i)
output y
)");
  RefBackend ref;
  CompareReport r = run_compare({{"original", &g}}, {&ref}, {});
  std::string notes;
  for (const auto& n : r.notes) notes += n + "\n";
  EXPECT_NE(notes.find("original (seed 1): undefined: node 'y' (gather) input 1 'i' needs [-3, 2] "
                       "values: [1] = 7"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("the reference failed"), std::string::npos) << notes;
}

TEST(Compare, GraphsMustShareInputs) {
  Fixture f;
  Graph other = parse_rtg("graph h\ninput x : f32[2,3]\ny = neg(x)\noutput y\n");
  RefBackend ref;
  EXPECT_THROW(run_compare({{"original", &f.original}, {"h", &other}}, {&ref}, {}), Error);
  EXPECT_THROW(run_compare(f.graphs(), {}, {}), Error);
}

}  // namespace
}  // namespace retort
