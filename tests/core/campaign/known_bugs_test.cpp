// The known-bug library: its declarations against samples/bugs, where each bug shows, and the
// check a campaign runs when it records a finding, on a real ONNX Runtime worker (skipped without
// the Node packages of scripts/backends, scripts/setup.sh).
#include "core/campaign/known_bugs.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "core/compare/compare.h"
#include "core/io/rtg.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

const KnownBug& bug(const std::string& label) {
  for (const KnownBug& b : shipped_known_bugs())
    if (b.label == label) return b;
  fail("no known bug '{}'", label);
}

// Every reduced graph of samples/bugs is declared once, its verdict is its `# shows:` line's,
// and its trigger pattern matches a node of its own graph.
TEST(KnownBugs, TheLibraryDeclaresEverySampleAndEachTriggerMatchesItsGraph) {
  std::set<std::string> samples, declared;
  for (const auto& entry : fs::directory_iterator(fs::path(RETORT_SOURCE_DIR) / "samples/bugs"))
    if (entry.path().extension() == ".rtg") samples.insert(entry.path().stem().string());
  for (const KnownBug& b : shipped_known_bugs()) {
    EXPECT_TRUE(declared.insert(b.graph_name).second) << b.graph_name << " declared twice";
    std::ifstream in(fs::path(RETORT_SOURCE_DIR) / "samples/bugs" / (b.graph_name + ".rtg"));
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("# shows: "), std::string::npos);
    EXPECT_NE(text.str().find(" " + b.verdict + "\n"), std::string::npos) << b.label;
    Graph g = parse_rtg(b.graph, b.graph_name);
    EXPECT_TRUE(std::any_of(g.nodes.begin(), g.nodes.end(),
                            [&](const Node& n) { return b.trigger.matches(g, n); }))
        << b.label << ": " << b.trigger.str();
  }
  EXPECT_EQ(declared, samples);
  EXPECT_EQ(bug("row 1").verdict, "shape/dtype mismatch");
  EXPECT_FALSE(bug("row 1").stale);
  EXPECT_TRUE(bug("row 63").stale);  // leaves its output unwritten
  EXPECT_EQ(bug("row 1").trigger.str(),
            "max_pool auto_pad in SAME_UPPER|SAME_LOWER, dilations > 1");
}

TEST(KnownBugs, EachShowsOnTheReleasesAndLevelsItNames) {
  std::string release = default_version(get_family("ort"));
  EXPECT_TRUE(bug("row 1").applies_to("ort:O0"));
  EXPECT_TRUE(bug("row 1").applies_to("ort:O3"));
  EXPECT_FALSE(bug("row 1").applies_to("ort@1.16.3:O0"));
  EXPECT_FALSE(bug("row 2").applies_to("ort:O0"));  // the Split merge is an optimization
  EXPECT_TRUE(bug("row 2").applies_to("ort:O1"));
  EXPECT_FALSE(bug("row 8").applies_to("ort:O3"));
  EXPECT_TRUE(bug("row 16").applies_to("ort@1.16.3:O3"));
  EXPECT_TRUE(bug("row 16").applies_to("ort@1.30.0:O3"));
  EXPECT_EQ(release, "1.31.1");  // the default release, which the library's live ORT rows name
  // Row 7 (the f16 -> f16 Cast that failed to load) is fixed in 1.31.1: only 1.30.0 shows it.
  EXPECT_TRUE(bug("row 7").applies_to("ort@1.30.0:O0"));
  EXPECT_FALSE(bug("row 7").applies_to("ort:O0"));
  // A campaign on ref and ort:O0 draws the triggers of ORT's every-level and O0 bugs, not those
  // of its optimizations or of TVM.
  std::vector<NodePattern> o0 = known_triggers(shipped_known_bugs(), {"ref", "ort:O0"});
  std::set<std::string> ops;
  for (const NodePattern& p : o0) ops.insert(p.ops.begin(), p.ops.end());
  EXPECT_TRUE(ops.count("max_pool"));
  EXPECT_TRUE(ops.count("softplus"));  // row 12, at O0
  EXPECT_FALSE(ops.count("split"));    // row 2, O1-O3
  EXPECT_FALSE(ops.count("sign"));     // row 10, TVM
  EXPECT_TRUE(known_triggers(shipped_known_bugs(), {"ref"}).empty());
}

// A trigger may name no op: row 17 (OpenVINO's CPU plugin runs every i64 op in 32 bits) is any
// op of an i64 first operand, on OpenVINO only. An op-less pattern with no condition would match
// every node, and is refused.
TEST(KnownBugs, ADtypeWideTriggerMatchesEveryOpOfItsDtype) {
  const KnownBug& row17 = bug("row 17");
  EXPECT_EQ(row17.trigger.str(), "any op of i64");
  EXPECT_EQ(row17.trigger.to_json().dump(), R"({"dtypes":["i64"]})");
  Graph g = parse_rtg(R"(graph g
input a : i64[2]
input x : f32[2]
s = add(a, a)
m = mul(s, a)
r = reduce_sum(m, keepdims=1)
c = concat(r, a, axis=0)
y = add(x, x)
output c, y
)");
  std::set<std::string> matched;
  for (const Node& n : g.nodes)
    if (row17.trigger.matches(g, n)) matched.insert(n.name);
  EXPECT_EQ(matched, (std::set<std::string>{"s", "m", "r", "c"}));
  EXPECT_TRUE(row17.applies_to("openvino:f32"));
  EXPECT_FALSE(row17.applies_to("ort:O0"));
  std::vector<NodePattern> drawn = known_triggers(shipped_known_bugs(), {"openvino:f32"});
  EXPECT_TRUE(
      std::any_of(drawn.begin(), drawn.end(), [](const NodePattern& p) { return p.ops.empty(); }));
  EXPECT_THROW(NodePattern::from_json(nlohmann::json::parse("{}"), "test"), Error);
  EXPECT_THROW(NodePattern::from_json(nlohmann::json::parse(R"({"twin": true})"), "test"), Error);
  EXPECT_THROW(NodePattern::from_json(nlohmann::json::parse("[1]"), "test"), Error);
}

// A backend that runs another and then adds 1 to element 0 of the listed outputs: a second bug
// downstream of the first, on a real compiler.
class AlsoWrong : public Backend {
 public:
  AlsoWrong(Backend& inner, std::set<std::string> wrong) : inner_(inner), wrong_(wrong) {}
  BackendInfo info() const override { return inner_.info(); }
  RunResult run(const RunRequest& request) override {
    RunResult r = inner_.run(request);
    for (auto& [name, t] : r.outputs)
      if (wrong_.count(name) && t.numel() > 0) t.set(0, t.get(0) + 1.0);
    return r;
  }

 private:
  Backend& inner_;
  std::set<std::string> wrong_;
};

// A backend that runs another and gives other wrong values in its first `times` runs, then the
// right ones: an output buffer's stale contents, which a fresh worker does not hold.
class StaleFirst : public Backend {
 public:
  StaleFirst(Backend& inner, int times) : inner_(inner), times_(times) {}
  BackendInfo info() const override { return inner_.info(); }
  RunResult run(const RunRequest& request) override {
    RunResult r = inner_.run(request);
    if (runs_++ < times_)
      for (auto& [name, t] : r.outputs)
        if (t.numel() > 0) t.set(0, t.get(0) + 1.0 + runs_);
    return r;
  }

 private:
  Backend& inner_;
  int times_, runs_ = 0;
};

class KnownBugCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
      GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  }

  // The finding a campaign records for the first failure of `text` on `backend` (named
  // `name`): its signature found as the case runner finds it.
  static FindingRecord recorded(const std::string& text, Backend& backend,
                                const std::string& name) {
    return recorded(text, {{name, &backend}}, Oracle::Reference);
  }
  // The same for the first failure of `oracle` among several backends, named as the map's keys
  // in the map's order.
  // `variants` (name -> .rtg text) are compared beside the original.
  static FindingRecord recorded(const std::string& text,
                                const std::vector<std::pair<std::string, Backend*>>& named,
                                Oracle oracle,
                                const std::map<std::string, std::string>& variants = {}) {
    Graph g = parse_rtg(text, "case.rtg");
    std::vector<Graph> others;
    for (const auto& [name, variant] : variants) others.push_back(parse_rtg(variant, name));
    std::vector<CompareGraph> graphs{{"original", &g}};
    size_t k = 0;
    for (const auto& entry : variants) graphs.push_back({entry.first, &others[k++]});
    std::vector<Backend*> backends;
    std::string names = "ref";
    for (const auto& [name, backend] : named) {
      backends.push_back(backend);
      names += "," + name;
    }
    CompareReport report =
        run_compare(graphs, backends, CompareOptions{.seed = 3, .runs = 1, .tolerances = {}});
    auto name_of = [&](const std::string& info_name) {
      for (size_t i = 0; i < backends.size(); ++i)
        if (report.backends[i] == info_name) return named[i].first;
      return info_name;
    };
    for (const Finding& found : report.findings) {
      if (!is_bug(found.verdict) || found.oracle != oracle) continue;
      SignatureFinder finder(report, backends);
      FindingRecord f;
      f.id = 7;
      f.signature = finder.of(found);
      f.backend_a = name_of(found.backend_a);
      f.graph_a = found.graph_a;
      f.backend_b = found.backend_b == "ref" ? "ref" : name_of(found.backend_b);
      f.graph_b = found.graph_b;
      f.backends = names;
      f.original = text;
      f.variants = nlohmann::json(variants).dump();
      f.verdicts = "[]";
      f.inputs_seed = found.seed;
      return f;
    }
    fail("no {} failure of case.rtg", oracle_name(oracle));
  }

  KnownBugCheck check(std::map<std::string, Backend*> backends) {
    backends["ref"] = &ref_;
    return KnownBugCheck(shipped_known_bugs(), [backends](const std::string& n) -> Backend& {
      auto it = backends.find(n);
      if (it == backends.end()) fail("no backend '{}'", n);
      return *it->second;
    });
  }

  BackendSet set_;
  RefBackend ref_;
};

// ORT's MaxPool bug (row 1) under a downstream op: a finding of a larger graph than the
// library's, whose failing slice holds the dilated SAME window.
const char* const kMaxPoolCase =
    "graph case\n"
    "input x : f32[1,1,8]\n"
    "a = relu(x)\n"
    "p = max_pool(a, kernel_shape=[3], dilations=[2], auto_pad=\"SAME_UPPER\")\n"
    "y = neg(p)\n"
    "output y\n";

TEST_F(KnownBugCheckTest, AFindingOfTheMaxPoolSampleIsKnownRow1) {
  Backend& ort = set_.get("ort:O0");
  FindingRecord f = recorded(kMaxPoolCase, ort, "ort:O0");
  EXPECT_EQ(f.signature.verdict, "shape/dtype mismatch");
  KnownBugCheck known = check({{"ort:O0", &ort}});
  EXPECT_EQ(known.explain(f, {}), "row 1");

  // Recorded so, the database keeps the label.
  fs::path dir = fs::temp_directory_path() / ("retort_known_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    FindingsDb db = FindingsDb::open((dir / "k.db").string());
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    f.campaign = c;
    f.first_seen = f.last_seen = utc_now();
    f.known = known.explain(f, {});
    db.record_case({c, 0, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {f});
    EXPECT_EQ(db.findings().at(0).known, "row 1");
  }
  fs::remove_all(dir);
}

// Row 27 merges a Cast of f16 to f64 into the f32 -> f16 Cast that ends an op without an f16
// kernel: fed its value, the Cast is exact, so the finding is labelled at the op (softsign; seed
// 7014 default #11), and the trigger is the Cast that reads it. A finding whose difference the
// Cast reading it does not make (a wrong softsign) stays new.
TEST_F(KnownBugCheckTest, ARow27FindingLabelledAtTheOpTheCastReadsIsKnown) {
  Backend& ort = set_.get("ort:O0");
  const std::string text =
      "graph g\ninput x : f16[4]\ny = softsign(x)\nd = cast(y, to=f64)\noutput d\n";
  FindingRecord f = recorded(text, ort, "ort:O0");
  EXPECT_EQ(f.signature.op, "softsign");
  KnownBugCheck known = check({{"ort:O0", &ort}});
  EXPECT_EQ(known.explain(f, {}), "row 27");

  AlsoWrong wrong(ort, {"d"});
  FindingRecord other = recorded(text, wrong, "ort:O0");
  EXPECT_EQ(check({{"ort:O0", &wrong}}).explain(other, {}), "");
}

// ONNX Runtime keeps the f16 op's f32 island through ops that only move or negate its values
// into the Cast to f64 (seed 7519 #20: Log, Transposes, a Concat and a Neg): the Cast is no
// direct reader of the failing op, but nothing between them computes, so feeding it is row 27.
TEST_F(KnownBugCheckTest, ARow27FindingThroughTransposeAndNegIsKnown) {
  Backend& ort = set_.get("ort:O0");
  const std::string text =
      "graph g\ninput x : f16[2,3]\ny = softsign(x)\nt = transpose(y, perm=[1,0])\n"
      "n = neg(t)\nd = cast(n, to=f64)\noutput d\n";
  FindingRecord f = recorded(text, ort, "ort:O0");
  EXPECT_EQ(f.signature.op, "softsign");
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(f, {}), "row 27");

  // Past an op that computes (an Add), the Cast is no longer tried: that op could be the bug.
  FindingRecord added = recorded(
      "graph g\ninput x : f16[2,3]\ny = softsign(x)\na = add(y, y)\n"
      "d = cast(a, to=f64)\noutput d\n",
      ort, "ort:O0");
  EXPECT_EQ(added.signature.op, "softsign");
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(added, {}), "");
}

// Two rows of one mechanism may both explain a finding: ONNX Runtime runs an f16 Tanh in f32
// (row 12's trigger) and the Cast to f32 after it takes the unrounded value (row 27). The row
// whose trigger is the failing op is named (seed 7822 #17).
TEST_F(KnownBugCheckTest, TheRowAtTheFailingOpIsNamedFirst) {
  Backend& ort = set_.get("ort:O0");
  FindingRecord f = recorded(
      "graph g\ninput x : f16[5]\nt = tanh(x)\nd = cast(t, to=f32)\noutput d\n", ort, "ort:O0");
  EXPECT_EQ(f.signature.op, "cast");
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(f, {}), "row 27");
}

// An equivalence finding's wrong run may be of the graph it was compared to: ONNX Runtime merged
// the two Splits of one input (row 2) in the variant, not in the graph under test (seed 7620
// #12). The trigger is looked for, and fed, in both graphs.
TEST_F(KnownBugCheckTest, ARow2SplitMergeInTheComparedVariantIsKnown) {
  Backend& ort = set_.get("ort:O3");
  // A variant is checked against the original: here the original holds the twins.
  FindingRecord f = recorded(
      "graph g\ninput x : f32[6]\na0, a1 = split(x, parts=2)\nb0, b1, b2 = split(x, parts=3)\n"
      "y = concat(a0, b0, axis=0)\noutput y\n",
      {{"ort:O3", &ort}}, Oracle::Equivalence,
      {{"sliced",
        "graph g\ninput x : f32[6]\na0, a1 = split(x, parts=2)\n"
        "t = slice(x, axes=[0], ends=[2], starts=[0])\ny = concat(a0, t, axis=0)\noutput y\n"}});
  EXPECT_EQ(f.signature.verdict, "shape/dtype mismatch");
  EXPECT_EQ(f.graph_a, "sliced");  // the graph under test, which ORT gets right
  EXPECT_EQ(check({{"ort:O3", &ort}}).explain(f, {}), "row 2");
}

// Row 2's merged Splits give a Sin of huge values the wrong shape (seed 7923 #5). Fed the
// Splits' values, the shape is right; the Sin's values are still undefined there, which makes no
// difference of values meaningless but cannot make a wrong shape.
TEST_F(KnownBugCheckTest, AWrongShapeOfUndefinedValuesIsKnown) {
  Backend& ort = set_.get("ort:O3");
  FindingRecord f = recorded(
      "graph g\ninput x : f32[6,1,6,1]\ninput w : f32[1,1,3,2]\nconst k : f32[] = 1000000.0\n"
      "v1, v2, v3 = split(x)\nv5 = conv_transpose(v2, w, kernel_shape=[3,2])\n"
      "m = mul(v5, k)\nv7 = sin(m)\nv15, v17 = split(x)\noutput v7, v15\n",
      ort, "ort:O3");
  EXPECT_EQ(f.signature.verdict, "shape/dtype mismatch");
  EXPECT_EQ(f.signature.op, "sin");
  EXPECT_EQ(check({{"ort:O3", &ort}}).explain(f, {}), "row 2");
}

// A Conv of zero channels whose output held stale values (row 63: ORT leaves it unwritten):
// wrong twice, each time otherwise, and right in a fresh run, so no feed can show it; row 63's
// trigger at the failing op explains it (seed 7923 #12). A wrong value that does not show again
// where no stale bug's trigger is stays new.
TEST_F(KnownBugCheckTest, AStaleValueThatDoesNotShowAgainIsAStaleRow) {
  Backend& ort = set_.get("ort:O0");
  StaleFirst stale(ort, 2);
  FindingRecord f = recorded(
      "graph g\ninput x : f32[1,0,4,4]\ninput w : f32[3,0,3,3]\ny = conv(x, w)\noutput y\n", stale,
      "ort:O0");
  EXPECT_EQ(f.signature.op, "conv");
  EXPECT_EQ(check({{"ort:O0", &stale}}).explain(f, {}), "row 63");

  StaleFirst other(ort, 2);
  FindingRecord relu =
      recorded("graph g\ninput x : f32[1,2,4,4]\ny = relu(x)\noutput y\n", other, "ort:O0");
  EXPECT_EQ(check({{"ort:O0", &other}}).explain(relu, {}), "");
}

// ONNX Runtime's memory plan reuses the buffer of a MaxPool whose shape row 1 gets wrong for the
// ReduceMax beside it, which then fails ("Shape mismatch attempting to re-use buffer"; seed 7317
// oatest #12): the MaxPool is in no slice of the ReduceMax, but no value of it reaches the
// MaxPool, and feeding the MaxPool makes the error go.
TEST_F(KnownBugCheckTest, ARow1MaxPoolBesideTheFailingOpIsKnown) {
  Backend& ort = set_.get("ort:O0");
  FindingRecord f = recorded(
      "graph g\ninput x : f16[1,1,1,1]\n"
      "p = max_pool(x, auto_pad=\"SAME_LOWER\", dilations=[2,2], kernel_shape=[2,2])\n"
      "e = erf(p)\nr = reduce_max(x, axes=[0])\noutput e, r\n",
      ort, "ort:O0");
  EXPECT_EQ(f.signature.verdict, "error");
  EXPECT_EQ(f.signature.op, "reduce_max");
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(f, {}), "row 1");
}

// A second bug downstream of the dilated SAME window: with the window's values fed from the
// reference the output is still wrong, so the finding is a new root, not row 1.
TEST_F(KnownBugCheckTest, AFailureTheKnownTriggerDoesNotMakeStaysNew) {
  Backend& ort = set_.get("ort:O0");
  AlsoWrong wrong(ort, {"y"});
  const char* valid_pool =
      "graph case\n"
      "input x : f32[1,1,8]\n"
      "p = max_pool(x, kernel_shape=[3], dilations=[2], auto_pad=\"SAME_UPPER\")\n"
      "s = reduce_sum(p, axes=[2], keepdims=0)\n"
      "y = exp(s)\n"
      "output y\n";
  FindingRecord f = recorded(valid_pool, wrong, "ort:O0");
  KnownBugCheck known = check({{"ort:O0", &wrong}});
  EXPECT_EQ(known.explain(f, {}), "");

  // No trigger in the failing slice at all: nothing runs, nothing is known.
  WrongOpBackend wrong_exp("ort:O0", {{"exp", 1.0}});
  FindingRecord plain = recorded(
      "graph plain\ninput x : f32[4]\na = abs(x)\ny = exp(a)\noutput y\n", wrong_exp, "ort:O0");
  EXPECT_EQ(plain.signature.op, "exp");
  EXPECT_EQ(check({{"ort:O0", &wrong_exp}}).explain(plain, {}), "");
}

// An op elsewhere in the graph that the inputs make undefined (an integer power with a negative
// exponent) leaves the MaxPool's failure what it is: still row 1 (it once made the finding new).
TEST_F(KnownBugCheckTest, AnUndefinedOpBesideTheTriggerLeavesTheFindingKnown) {
  Backend& ort = set_.get("ort:O0");
  std::string text = std::string(kMaxPoolCase).substr(0, std::string(kMaxPoolCase).find("output"));
  text +=
      "const b : i64[] = 7\n"
      "const e : i64[] = -8\n"
      "w = pow(b, e)\n"
      "output y, w\n";
  FindingRecord f = recorded(text, ort, "ort:O0");
  EXPECT_EQ(f.signature.op, "max_pool");
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(f, {}), "row 1");
}

// A crash names no op: an integer sum elsewhere that wraps (undefined, but it kills nothing) does
// not keep the Mod of INT_MIN by -1 from being row 4.
TEST_F(KnownBugCheckTest, AWrappingSumBesideACrashLeavesItKnown) {
  Backend& ort = set_.get("ort:O0");
  FindingRecord f = recorded(
      "graph case\ninput x : i32[1]\nconst lowest : i32[1] = -2147483648\n"
      "const minus_one : i32[1] = -1\nconst big : i32[2] = [2147483647, 10]\n"
      "a = min(x, lowest)\ny = mod(a, minus_one)\ns = reduce_sum(big)\noutput y, s\n",
      ort, "ort:O0");
  EXPECT_EQ(f.signature.verdict, "crash");
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(f, {}), "row 4");
}

// Two known roots in one graph (ORT's pooling and LayerNormalization both refuse empty inputs,
// rows 35 and 36): feeding either alone leaves the other's error, feeding both makes the run
// pass, so the finding is known, named by the root at its failing op (seed 6509 #20).
TEST_F(KnownBugCheckTest, TwoKnownRootsInOneGraphExplainItTogether) {
  Backend& ort = set_.get("ort:O0");
  FindingRecord f = recorded(
      "graph case\ninput x : f32[3,0,6,1]\ninput e : f32[2,0]\ninput s : f32[0]\n"
      "p = max_pool(x, auto_pad=\"VALID\", kernel_shape=[2,1])\nl = layer_norm(e, s, "
      "axis=1)\noutput p, l\n",
      ort, "ort:O0");
  EXPECT_EQ(f.signature.verdict, "error");
  ASSERT_TRUE(f.signature.op == "max_pool" || f.signature.op == "layer_norm") << f.signature.op;
  EXPECT_EQ(check({{"ort:O0", &ort}}).explain(f, {}),
            f.signature.op == "max_pool" ? "row 35" : "row 36");
}

// Row 12 is wrong at O0 only (O3 agrees with the reference): the optimization oracle's finding
// names ort:O3, whose baseline ort:O0 is the side that shows the bug.
TEST_F(KnownBugCheckTest, ABugOfTheOptimizationBaselineIsKnown) {
  Backend& o0 = set_.get("ort:O0");
  Backend& o3 = set_.get("ort:O3");
  FindingRecord f = recorded(
      "graph case\ninput x : f16[4,4]\ny = softplus(x)\nz = identity(y)\no = less(z, y)\n"
      "n = not(o)\nw = cast(z, to=f32)\noutput n, w\n",
      {{"ort:O0", &o0}, {"ort:O3", &o3}}, Oracle::Optimization);
  EXPECT_EQ(f.backend_a, "ort:O3");
  EXPECT_EQ(f.signature.verdict, "mismatch");
  EXPECT_EQ(check({{"ort:O0", &o0}, {"ort:O3", &o3}}).explain(f, {}), "row 12");
}

// `findings known add N`: the finding's graph becomes a root of the database's own, whose
// trigger is the node its signature names; the check then labels a finding of it.
TEST_F(KnownBugCheckTest, AUserRootExplainsTheFindingsOfItsTrigger) {
  WrongOpBackend wrong_exp("ort:O3", {{"exp", 1.0}});
  FindingRecord f = recorded("graph plain\ninput x : f32[4]\na = abs(x)\ny = exp(a)\noutput y\n",
                             wrong_exp, "ort:O3");
  UserRoot root = user_root_from(f, "", default_version(get_family("ort")));
  root.id = 4;
  KnownBug user = user_known_bug(root);
  EXPECT_EQ(user.label, "user 4");
  EXPECT_EQ(user.trigger.str(), "exp of f32");
  EXPECT_TRUE(user.applies_to("ort:O3"));
  EXPECT_FALSE(user.applies_to("ort:O0"));
  KnownBugCheck known({user}, [&](const std::string& n) -> Backend& {
    if (n == "ref") return ref_;
    return wrong_exp;
  });
  FindingRecord later = recorded(
      "graph later\ninput x : f32[2,3]\nb = neg(x)\nc = sigmoid(b)\ny = exp(c)\noutput y\n",
      wrong_exp, "ort:O3");
  EXPECT_EQ(known.explain(later, {}), "user 4");
  f.signature.op.clear();
  EXPECT_THROW(user_root_from(f, "", ""), Error);  // no node to make a trigger from
}

}  // namespace
}  // namespace retort
