#include "core/compare/signature.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "core/backend/backend_set.h"
#include "core/backend/worker_backend.h"
#include "core/compare/inspect.h"
#include "core/compare/report_format.h"
#include "core/io/rtg.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

// mul is the first node computed from the inputs, so a wrong mul kernel shows first at m; the
// output itself comes from add.
const char* kChain = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
m = mul(x, y)
n = neg(m)
out = add(n, x)
output out
)";
// -2x written without a mul, and with one: a graph and an equivalent variant.
const char* kNoMul = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
d = add(x, x)
out = neg(d)
output out
)";
const char* kDoubled = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
const two : f32[2,3] = fill(2)
m = mul(x, two)
out = neg(m)
output out
)";

TEST(FailureSignature, KeyIsOneCanonicalLineThatParsesBack) {
  FailureSignature s{"ort", "reference", "mismatch", "mul", "f32", "", ""};
  EXPECT_EQ(s.key(), "ort|reference|mismatch|mul|f32|");
  EXPECT_EQ(FailureSignature::parse(s.key()), s);
  FailureSignature odd{"a|b", "reference", "shape/dtype mismatch", "we\\ird", "", "add-comm", ""};
  EXPECT_EQ(odd.key(), "a\\|b|reference|shape/dtype mismatch|we\\\\ird||add-comm");
  EXPECT_EQ(FailureSignature::parse(odd.key()), odd);
  EXPECT_NE(odd.key(), s.key());
  EXPECT_FALSE(FailureSignature::parse("ort|reference"));
  EXPECT_FALSE(FailureSignature::parse("a|b|c|d|e|f|g|h"));
  EXPECT_FALSE(FailureSignature::parse("a|b|c|d|e|f|"));  // a text class is never empty
  EXPECT_FALSE(FailureSignature::parse("a|b|c|d|e|f\\"));
  // A failed run's text class (HirFuzz's dedup) is a seventh field, only when there is one.
  FailureSignature crash{"tvm", "reference", "crash", "", "", "", "3fa2c1"};
  EXPECT_EQ(crash.key(), "tvm|reference|crash||||3fa2c1");
  EXPECT_EQ(FailureSignature::parse(crash.key()), crash);
  EXPECT_EQ(crash.str(), "tvm reference crash #3fa2c1");
  EXPECT_EQ(s.str(), "ort reference mismatch at mul (f32)");
  EXPECT_EQ((FailureSignature{"tvm", "reference", "crash", "", "", "", ""}.str()),
            "tvm reference crash");
}

TEST(FailureSignature, FamilyIsTheNameBeforeColonOrAt) {
  EXPECT_EQ(signature_family("ort:O3"), "ort");
  EXPECT_EQ(signature_family("tvm@0.14:O2"), "tvm");
  EXPECT_EQ(signature_family("ref"), "ref");
}

TEST(FailureSignature, MessagesNamingANode) {
  Graph g = parse_rtg(kChain);
  const Node* n =
      node_named_in("Non-zero status code returned while running Neg node. Name:'n'", g);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->op, "neg");
  n = node_named_in("node \"m\": kernel failed", g);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->op, "mul");
  EXPECT_EQ(node_named_in("node 'zz' is unknown", g), nullptr);
  EXPECT_EQ(node_named_in("the worker was killed by signal 9", g), nullptr);
}

TEST(FailureSignature, ReferenceFindingNamesTheFirstWrongKernelNotTheOutput) {
  Graph g = parse_rtg(kChain);
  RefBackend ref;
  WrongBackend wrong("bad:O1", {"m", "n", "out"});
  CompareReport r =
      run_compare({{"original", &g}}, {&ref, &wrong}, {.seed = 3, .runs = 2, .tolerances = {}});
  ASSERT_EQ(r.bug_count(), 2u);
  SignatureFinder finder(r, {&ref, &wrong});
  for (const Finding& f : r.findings) {
    FailureSignature s = finder.of(f);
    EXPECT_EQ(s, (FailureSignature{"bad", "reference", "mismatch", "mul", "f32", "", ""}))
        << s.key();
  }
}

// Two wrong kernels in one case: neg's value is off (a mismatch of y), exp's is NaN (a nan-inf
// mismatch of z, the finding's verdict). Verdict and op come from the same output: nan-inf at
// exp, although neg diverges first (default campaign #88: a MaxPool shape mismatch named after
// an int64 sum).
TEST(FailureSignature, VerdictAndOpComeFromTheSameOutput) {
  Graph g =
      parse_rtg("graph g\ninput x : f32[2,3]\na = neg(x)\ny = abs(a)\nz = exp(x)\noutput y, z\n");
  RefBackend ref;
  WrongOpBackend wrong("bad:O1", {{"neg", 1.0}, {"exp", std::nan("")}});
  CompareReport r =
      run_compare({{"original", &g}}, {&ref, &wrong}, {.seed = 3, .runs = 1, .tolerances = {}});
  ASSERT_EQ(r.bug_count(), 1u);
  EXPECT_EQ(r.bug(1)->verdict, Verdict::NanInfMismatch);
  SignatureFinder finder(r, {&ref, &wrong});
  EXPECT_EQ(finder.of(*r.bug(1)),
            (FailureSignature{"bad", "reference", "nan-inf mismatch", "exp", "f32", "", ""}));
  // Its text too: the output the verdict comes from first (issue 41: #27's verdict came from
  // one output and its text from another).
  std::string text = r.bug(1)->str();
  EXPECT_NE(text.find("nan-inf mismatch: z: "), std::string::npos) << text;
  EXPECT_EQ(verdict_outputs_a(*r.bug(1)), std::set<std::string>{"z"});
}

// ONNX Runtime 1.30.0 at O3 merges two Splits of one input into 2 and into 3 parts
// (docs/bugs.md row 2) unless their pieces are outputs, so the first-divergence search, which
// returns every intermediate value, sees none. The label a campaign records feeds the nodes
// upstream first from the reference and names the split, as the review's root does; not the
// abs that makes the output (default campaign #53 was "reduce_prod").
TEST(FailureSignature, TheSplitMergeIsLabelledTheSplitAtRecordTime) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  Graph g = parse_rtg(
      "graph g\ninput x : f32[6]\na0, a1 = split(x, axis=0, parts=2)\n"
      "b0, b1, b2 = split(x, axis=0, parts=3)\nc = concat(a0, b0, axis=0)\ny = abs(c)\n"
      "output y\n");
  BackendSet set;
  RefBackend ref;
  Backend& ort = set.get("ort:O3");
  CompareReport r =
      run_compare({{"original", &g}}, {&ref, &ort}, {.seed = 3, .runs = 1, .tolerances = {}});
  ASSERT_EQ(r.bug_count(), 1u);
  FailureSignature s = SignatureFinder(r, {&ref, &ort}).of(*r.bug(1));
  EXPECT_EQ(s,
            (FailureSignature{"ort", "reference", "shape/dtype mismatch", "split", "f32", "", ""}))
      << s.key();
}

TEST(FailureSignature, OptimizationFindingBlamesTheWrongSideEvenWhenItIsTheBaseline) {
  Graph g = parse_rtg(kChain);
  RefBackend ref;
  // fam:a is the family's baseline and the wrong one; fam:b is right.
  WrongBackend a("fam:a", {"n", "out"}), b("fam:b", {});
  CompareReport r =
      run_compare({{"original", &g}}, {&ref, &a, &b}, {.seed = 1, .runs = 1, .tolerances = {}});
  SignatureFinder finder(r, {&ref, &a, &b});
  bool saw_optimization = false;
  for (const Finding& f : r.findings) {
    if (f.oracle != Oracle::Optimization) continue;
    saw_optimization = true;
    EXPECT_EQ(f.backend_a, "fam:b");
    EXPECT_EQ(finder.of(f).op, "neg");
  }
  EXPECT_TRUE(saw_optimization);
}

// A real worker process: the fault worker adds 1 to every mul's output. The original has no
// mul, so only the variant fails, in the equivalence and the reference oracle alike.
TEST(FailureSignature, EquivalenceFindingOnTheFaultWorker) {
  Graph original = parse_rtg(kNoMul), variant = parse_rtg(kDoubled);
  RefBackend ref;
  WorkerBackend bad({.name = "bad",
                     .argv = {RETORT_FAULT_WORKER, "--fault", "perturb", "--perturb-op", "mul"},
                     .timeout_s = 30,
                     .options = {}});
  CompareReport r = run_compare({{"original", &original}, {"v1", &variant}}, {&ref, &bad},
                                {.seed = 1, .runs = 1, .tolerances = {}});
  SignatureFinder finder(r, {&ref, &bad});
  std::set<std::string> oracles;
  for (const Finding& f : r.findings) {
    ASSERT_EQ(f.graph_a, "v1") << f.str();
    FailureSignature s = finder.of(f);
    oracles.insert(s.oracle);
    EXPECT_EQ(s.family, "bad");
    EXPECT_EQ(s.op, "mul") << f.str();
    EXPECT_EQ(s.dtype, "f32");
  }
  EXPECT_EQ(oracles, (std::set<std::string>{"equivalence", "reference"}));
}

TEST(FailureSignature, FailedRunsHaveAnOpOnlyWhenTheMessageNamesANode) {
  Graph g = parse_rtg(kChain);
  RefBackend ref;
  struct NamingFailure : Backend {
    std::string text;
    BackendInfo info() const override {
      BackendInfo i;
      i.name = "w";
      return i;
    }
    RunResult run(const RunRequest&) override {
      RunResult r;
      r.status = RunStatus::Error;
      r.message = text;
      return r;
    }
  } failing;
  failing.text = "node 'n': bad kernel";
  CompareReport r =
      run_compare({{"original", &g}}, {&ref, &failing}, {.seed = 1, .runs = 1, .tolerances = {}});
  ASSERT_EQ(r.bug_count(), 1u);
  SignatureFinder finder(r, {&ref, &failing});
  EXPECT_EQ(finder.of(r.findings[0]),
            (FailureSignature{"w", "reference", "error", "neg", "f32", "", ""}));

  failing.text = "the worker was killed by signal 9";
  r = run_compare({{"original", &g}}, {&ref, &failing}, {.seed = 1, .runs = 1, .tolerances = {}});
  SignatureFinder again(r, {&ref, &failing});
  EXPECT_EQ(again.of(r.findings[0]), (FailureSignature{"w", "reference", "error", "", "", "", ""}));
}

// One wrong kernel seen on two graphs over four seeds: eight reference findings and the
// equivalence ones are two failures, which the text prints as two numbered lines with counts.
TEST(FailureSignature, ReportGroupsOneFailureAcrossSeedsAndGraphs) {
  Graph g = parse_rtg(kChain), copy = parse_rtg(kChain);
  RefBackend ref;
  WrongBackend wrong("bad", {"m", "n", "out"});
  CompareReport r = run_compare({{"original", &g}, {"v1", &copy}}, {&ref, &wrong},
                                {.seed = 1, .runs = 4, .tolerances = {}});
  ASSERT_EQ(r.bug_count(), 8u);  // equivalence agrees: both graphs are equally wrong
  sign_findings(r, {&ref, &wrong});
  std::vector<FindingGroup> groups = group_findings(r);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].members.size(), 8u);
  EXPECT_EQ(r.findings[0].signature, "bad|reference|mismatch|mul|f32|");
  std::string text = compare_report_text(r);
  EXPECT_NE(text.find("#1 [reference] bad on original vs ref (seed 1)"), std::string::npos);
  EXPECT_NE(text.find("   and 7 more like it (bad reference mismatch at mul (f32)): graphs "
                      "original, v1; seeds 1-4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("8 findings (1 distinct; `compare --all` lists each) over 4 runs"),
            std::string::npos);
  EXPECT_EQ(text.find("#2 "), std::string::npos);
  std::string all = compare_report_text(r, true);
  EXPECT_NE(all.find("#8 [reference] bad on v1 vs ref (seed 4)"), std::string::npos) << all;
  EXPECT_EQ(all.find("more like it"), std::string::npos);

  // A finding without a signature stays alone.
  r.findings[3].signature.clear();
  EXPECT_EQ(group_findings(r).size(), 2u);
}

}  // namespace
}  // namespace retort
