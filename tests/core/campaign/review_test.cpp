// The end of a campaign: second opinions from the other backends, reduction, and findings with
// one root merged. The backends are the reference under the families' names, and the reference
// deliberately wrong on one value (tests/core/compare/wrong_backend.h).
#include "core/campaign/review.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/backend/backend_set.h"
#include "core/backend/ref_backend.h"
#include "core/backend/worker_backend.h"
#include "core/base/error.h"
#include "core/campaign/known_bugs.h"
#include "core/io/rtg.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class ReviewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("retort_review_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A reference finding of ort:O3 on `graph` (whose output is y), as a campaign records it.
  static FindingRecord finding(const std::string& graph, const std::string& op,
                               const std::string& dtype, int64_t campaign) {
    FindingRecord f;
    f.signature = {"ort", "reference", "mismatch", op, dtype, "", ""};
    f.backend_a = "ort:O3";
    f.graph_a = f.graph_b = "original";
    f.backend_b = "ref";
    f.backends = "ref,ort:O3";
    f.original = graph;
    f.variants = "{}";
    f.verdicts = "[]";
    f.first_seen = f.last_seen = utc_now();
    f.campaign = campaign;
    f.inputs_seed = 5;
    return f;
  }

  Backend& lookup(const std::string& name) {
    auto it = backends_.find(name);
    if (it == backends_.end()) fail("no backend '{}'", name);
    return *it->second;
  }

  fs::path dir_;
  RefBackend ref_, onnx_ref_, xla_;
  WrongBackend ort_{"ort:O3", {"y"}}, wrong_reference_{"onnx-ref:default", {"y"}};
  std::map<std::string, Backend*> backends_{
      {"ref", &ref_}, {"ort:O3", &ort_}, {"onnx-ref:default", &onnx_ref_}, {"xla:jit", &xla_}};
};

// A backend that fails to run any graph holding a node of one op, with a message that names no
// node (ORT's Expand failing shape inference after its Split merge), and runs the others right.
class FailsWithOpBackend : public NamedRefBackend {
 public:
  FailsWithOpBackend(std::string name, std::string op)
      : NamedRefBackend(std::move(name)), op_(std::move(op)) {}
  RunResult run(const RunRequest& request) override {
    for (const Node& n : request.graph->nodes)
      if (n.op == op_) {
        RunResult r;
        r.status = RunStatus::Error;
        r.message = "invalid graph";
        return r;
      }
    return ref_.run(request);
  }

 private:
  std::string op_;
};

const char* const kChain =
    "graph c\ninput x : f32[2,3]\na = neg(x)\nb = abs(a)\ny = exp(b)\noutput y\n";

TEST_F(ReviewTest, TheOtherBackendsSayWhoAgrees) {
  FindingRecord f = finding(kChain, "exp", "f32", 1);
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  Agreement a = second_opinion(f, {}, {"ref", "ort:O3", "onnx-ref:default", "xla:jit", "tvm:O3"},
                               by_name, 30);
  EXPECT_EQ(a.differ, std::vector<std::string>{"ort:O3"});
  EXPECT_EQ(a.agree, (std::vector<std::string>{"ref", "onnx-ref:default", "xla:jit"}));
  EXPECT_EQ(a.silent, std::vector<std::string>{"tvm:O3"});  // not installed here
  EXPECT_FALSE(a.disputed);
  EXPECT_EQ(a.str(),
            "ort:O3 differs from ref, onnx-ref:default and xla:jit, which agree; tvm:O3 silent");
  auto back = Agreement::from_json(a.to_json());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->str(), a.str());
  EXPECT_FALSE(Agreement::from_json("[1, 2]"));
}

TEST_F(ReviewTest, ASecondReferenceThatDiffersDisputesTheFinding) {
  backends_["onnx-ref:default"] = &wrong_reference_;
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  Agreement a = second_opinion(finding(kChain, "exp", "f32", 1), {}, {"ort:O3", "onnx-ref:default"},
                               by_name, 30);
  EXPECT_TRUE(a.disputed);
  EXPECT_EQ(a.str(), "reference disputed: ort:O3 and onnx-ref:default differ from ref");
}

// A second reference that differs where the other compilers side with the reference is the odd
// one out (onnx.reference's own MaxPool shape beside ORT's MaxPool bug, third measurement's
// oatest #3); where they side with it or are too few, the finding stays disputed.
TEST_F(ReviewTest, CompilersSidingWithTheReferenceOutvoteASecondReference) {
  backends_["onnx-ref:default"] = &wrong_reference_;
  NamedRefBackend inductor{"inductor:default"}, openvino{"openvino:default"};
  WrongBackend tvm{"tvm:O3", {"y"}}, iree{"iree:O3", {"y"}};
  backends_["inductor:default"] = &inductor;
  backends_["openvino:default"] = &openvino;
  backends_["tvm:O3"] = &tvm;
  backends_["iree:O3"] = &iree;
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  FindingRecord f = finding(kChain, "exp", "f32", 1);
  Agreement a = second_opinion(
      f, {}, {"onnx-ref:default", "inductor:default", "xla:jit", "openvino:default", "tvm:O3"},
      by_name, 30);
  EXPECT_FALSE(a.disputed) << a.str();
  a = second_opinion(
      f, {}, {"onnx-ref:default", "inductor:default", "xla:jit", "tvm:O3", "iree:O3"}, by_name, 30);
  EXPECT_TRUE(a.disputed) << a.str();  // two agree, two differ
  a = second_opinion(f, {}, {"onnx-ref:default", "xla:jit"}, by_name, 30);
  EXPECT_TRUE(a.disputed) << a.str();  // one compiler is too few to outvote a reference
}

// onnx.reference differing from the reference on another output than the accused one's (its
// GlobalMaxPool shape bug beside a real ORT bug), or failing to run the model at all, says
// nothing of the finding's values: no dispute.
TEST_F(ReviewTest, OnlyASecondReferenceThatDiffersOnTheFindingsOutputDisputesIt) {
  const char* two =
      "graph c\ninput x : f32[2,3]\na = neg(x)\ny = exp(a)\nz = abs(a)\noutput y, z\n";
  WrongBackend wrong_on_z{"onnx-ref:default", {"z"}};
  FailingBackend cannot_run{"onnx-ref:default", RunStatus::Error, "index can't be negative"};
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  backends_["onnx-ref:default"] = &wrong_on_z;
  Agreement a =
      second_opinion(finding(two, "exp", "f32", 1), {}, {"onnx-ref:default"}, by_name, 30);
  EXPECT_FALSE(a.disputed) << a.str();
  backends_["onnx-ref:default"] = &cannot_run;
  a = second_opinion(finding(two, "exp", "f32", 1), {}, {"onnx-ref:default"}, by_name, 30);
  EXPECT_FALSE(a.disputed) << a.str();
  WrongBackend wrong_on_y{"onnx-ref:default", {"y"}};
  backends_["onnx-ref:default"] = &wrong_on_y;
  a = second_opinion(finding(two, "exp", "f32", 1), {}, {"onnx-ref:default"}, by_name, 30);
  EXPECT_TRUE(a.disputed) << a.str();
}

// The root is the failing op: the first whose values go wrong with all upstream of it exact,
// not the ops upstream of the signature's (oatest #4's ReduceSum of a CumSum read "ort: cumsum").
TEST_F(ReviewTest, TheRootIsTheFailingOp) {
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  auto root = [&](const FindingRecord& f, const std::string& graph) {
    return reduced_root(f, ReduceCase{.a = parse_rtg(graph), .b = {}, .pairs = {}}, {}, by_name);
  };
  FindingRecord at_exp = finding(kChain, "exp", "f32", 1);
  WrongOpBackend wrong_exp{"ort:O3", {{"exp", 1.0}}};
  backends_["ort:O3"] = &wrong_exp;
  EXPECT_EQ(root(at_exp, kChain), "ort: exp");
  WrongOpBackend wrong_neg{"ort:O3", {{"neg", 1.0}}};
  backends_["ort:O3"] = &wrong_neg;
  EXPECT_EQ(root(at_exp, kChain), "ort: neg");
  // A wrong MaxPool under a failure at the Split after it; an output the failure does not read
  // (a softmax the reducer kept beside it) is no part of the root.
  WrongOpBackend wrong_pool{"ort:O3", {{"max_pool", 1.0}}};
  backends_["ort:O3"] = &wrong_pool;
  const char* beside =
      "graph r\ninput x : f32[1,1,5,5]\ninput z : f32[2,3]\n"
      "p = max_pool(x, kernel_shape=[2,2])\ns0, s1 = split(p, axis=2, parts=2)\n"
      "q = softmax(z)\noutput s0\noutput q\n";
  EXPECT_EQ(root(finding(beside, "split", "f32", 1), beside), "ort: max_pool");
}

// docs/bugs.md row 2 on the real ONNX Runtime, seen at an Abs after the Concat that reads the
// merged Splits (the label a campaign gives it when no intermediate value differs): its root is
// the Split, not "concat split".
TEST(ReviewRoot, TheSplitMergeRootIsTheSplit) {
  const char* graph =
      "graph g\ninput x : f32[6]\na0, a1 = split(x, axis=0, parts=2)\n"
      "b0, b1, b2 = split(x, axis=0, parts=3)\nc = concat(a0, b0, axis=0)\ny = abs(c)\n"
      "output y\n";
  FindingRecord f;
  f.signature = {"ort", "reference", "shape/dtype mismatch", "abs", "f32", "", ""};
  f.backend_a = "ort:O3";
  f.backend_b = "ref";
  f.graph_a = f.graph_b = "original";
  f.inputs_seed = 1;
  BackendSet set;
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return set.get(n); };
  EXPECT_EQ(reduced_root(f, ReduceCase{.a = parse_rtg(graph), .b = {}, .pairs = {}}, {}, by_name),
            "ort: split");
}

// A deadline that leaves time for the cheap known-bug check only still labels every finding a
// known bug explains, however slow the review of a more frequent new finding would be (its
// second opinion from a worker that hangs): the check runs over all findings first.
TEST_F(ReviewTest, TheKnownBugCheckCoversEveryFindingBeforeTheSlowPhases) {
  WrongOpBackend wrong{"ort:O3", {{"neg", 1.0}, {"sin", 1.0}}};
  backends_["ort:O3"] = &wrong;
  WorkerBackend hang({.name = "hang:default",
                      .argv = {RETORT_FAULT_WORKER, "--fault", "hang"},
                      .timeout_s = 600,
                      .options = {}});
  backends_["hang:default"] = &hang;
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  CampaignOptions o;
  o.input_ranges = false;
  int64_t c = db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", 1, 0, 1});
  // A root of the user's: ORT's wrong neg.
  FindingRecord neg =
      finding("graph n\ninput x : f32[2,3]\ny = neg(x)\noutput y\n", "neg", "f32", c);
  db.add_user_root(user_root_from(neg, "", ""));
  FindingRecord fresh =
      finding("graph s\ninput x : f32[2,3]\ny = sin(x)\noutput y\n", "sin", "f32", c);
  fresh.count = 10;
  db.record_case({c, 0, 0, 1, 1, 0, 0, 0, 0, 1, ""}, {fresh});
  db.record_case({c, 1, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {finding(kChain, "exp", "f32", c)});
  db.record_case(
      {c, 2, 0, 3, 1, 0, 0, 0, 0, 1, ""},
      {finding("graph t\ninput x : f32[2,3]\na = neg(x)\nb = abs(a)\ny = tanh(b)\noutput y\n",
               "tanh", "f32", c)});
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  ReviewOptions review;
  review.extra = {"hang:default"};
  review.reduce = false;
  review.seconds = 3;
  std::vector<std::string> phases;
  review.starting = [&](const std::string& phase, size_t k, size_t n) {
    phases.push_back(fmt::format("{} {}/{}", phase, k, n));
  };
  ReviewStats stats = review_campaign(db, c, o, by_name, review);
  EXPECT_EQ(stats.known, 2u);
  EXPECT_EQ(stats.left, 1u);  // the new one, for --resume
  std::map<std::string, std::string> labels;
  for (const FindingRecord& f : db.findings()) labels[f.signature.op] = f.known;
  EXPECT_EQ(labels["exp"], "user 1");
  EXPECT_EQ(labels["tanh"], "user 1");
  EXPECT_EQ(labels["sin"], "");
  EXPECT_TRUE(db.reviews().empty());
  EXPECT_EQ(phases, (std::vector<std::string>{"known bugs 1/3", "known bugs 2/3", "known bugs 3/3",
                                              "second opinion 1/1"}));
}

// ORT's wrong neg, seen under two signatures (at exp and at tanh, downstream): the more frequent
// is reduced to a root with neg; the other fails no more once its neg values come from the
// reference, so it takes that root without a reduction, and they merge. A finding that does not
// fail again (sign hides the wrong neg) passes every cut: it takes no root. Nor does an error that
// names no op (ORT's Expand failing after its Split merge is no duplicate of a root "expand"):
// it has no failing op to look upstream of, so it is reduced.
TEST_F(ReviewTest, ADuplicateOfAKnownRootMergesWithoutAReduction) {
  WrongOpBackend wrong_neg{"ort:O3", {{"neg", 1.0}}};
  backends_["ort:O3"] = &wrong_neg;
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  CampaignOptions o;
  o.input_ranges = false;
  int64_t c = db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", 1, 0, 1});
  // Each first seen in a case of its own (a campaign's case runner sets case_index).
  auto with_count = [&](const std::string& graph, const std::string& op, int64_t count,
                        uint64_t in_case) {
    FindingRecord f = finding(graph, op, "f32", c);
    f.count = count;
    f.case_index = in_case;
    return f;
  };
  db.record_case({c, 0, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {with_count(kChain, "exp", 3, 0)});
  db.record_case({c, 1, 0, 3, 1, 0, 0, 0, 0, 1, ""},
                 {with_count("graph t\ninput x : f32[2,3]\na = neg(x)\nb = abs(a)\ny = tanh(b)\n"
                             "output y\n",
                             "tanh", 2, 1)});
  db.record_case({c, 2, 0, 3, 1, 0, 0, 0, 0, 1, ""},
                 {with_count("graph s\ninput x : f32[2,3]\na = neg(x)\nb = abs(a)\ny = sign(b)\n"
                             "output y\n",
                             "sign", 1, 2)});
  FindingRecord error = with_count(
      "graph e\ninput x : f32[2,3]\na = neg(x)\ny = softsign(a)\noutput y\n", "", 1, 3);
  error.signature.verdict = "error";
  error.signature.dtype = "";  // no node named, no dtype
  error.backend_a = "fails:O3";
  error.signature.family = "fails";
  error.backends = "ref,fails:O3";
  db.record_case({c, 3, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {error});
  // Another that does not fail again, first seen in the exp finding's case: one case, one root.
  FindingRecord same_case = with_count(
      "graph s2\ninput x : f32[2,3]\na = neg(x)\nb = abs(a)\ny = sign(b)\noutput y\n", "sign",
      1, 0);
  same_case.signature.dtype = "f16";  // a signature of its own
  db.record_case({c, 4, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {same_case});
  FailsWithOpBackend fails{"fails:O3", "softsign"};
  backends_["fails:O3"] = &fails;
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  ReviewOptions review;
  review.opinion = false;
  // The error's family has a root that is the failing node's op: cutting it hides the error.
  FindingReview known;
  known.root = "fails: softsign";
  db.set_review(FailureSignature{"fails", "reference", "mismatch", "exp", "f64", "", ""}.key(),
                known);
  ReviewStats stats = review_campaign(db, c, o, by_name, review);
  EXPECT_EQ(stats.reviewed, 5u);
  EXPECT_EQ(stats.reduced, 2u);
  EXPECT_EQ(stats.merged, 2u);
  EXPECT_FALSE(db.reviews()[error.signature.key()].reduced.empty());
  std::map<std::string, FindingRecord> by_op;
  for (const auto& f : db.findings()) by_op[f.signature.op] = f;
  std::map<std::string, FindingReview> reviews = db.reviews();
  const FindingReview& reduced = reviews[by_op["exp"].signature.key()];
  const FindingReview& duplicate = reviews[by_op["tanh"].signature.key()];
  EXPECT_NE(reduced.root.find("neg"), std::string::npos) << reduced.reduced;
  EXPECT_EQ(duplicate.root, reduced.root);
  EXPECT_TRUE(duplicate.reduced.empty());
  EXPECT_EQ(duplicate.merged_into, by_op["exp"].id);
  EXPECT_EQ(reviews[by_op["sign"].signature.key()].root, "");
  EXPECT_EQ(reviews[by_op["sign"].signature.key()].merged_into, 0);  // a case of its own
  EXPECT_EQ(reviews[same_case.signature.key()].root, "");
  EXPECT_EQ(reviews[same_case.signature.key()].merged_into, by_op["exp"].id);
}

// Two findings (f32 and f64) that both reduce to one exp: one root, merged into the older.
TEST_F(ReviewTest, FindingsWithOneReducedRootMerge) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  CampaignOptions o;
  o.input_ranges = false;
  int64_t c = db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", 1, 0, 1});
  const char* f64 = "graph d\ninput x : f64[3]\na = abs(x)\ny = exp(a)\noutput y\n";
  db.record_case({c, 0, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {finding(kChain, "exp", "f32", c)});
  db.record_case({c, 1, 0, 2, 1, 0, 0, 0, 0, 1, ""}, {finding(f64, "exp", "f64", c)});
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  ReviewOptions review;
  review.extra = {"onnx-ref:default"};
  ReviewStats stats = review_campaign(db, c, o, by_name, review);
  EXPECT_EQ(stats.reviewed, 2u);
  EXPECT_EQ(stats.reduced, 2u);
  EXPECT_EQ(stats.disputed, 0u);
  EXPECT_EQ(stats.merged, 1u);
  std::map<std::string, FindingReview> reviews = db.reviews();
  ASSERT_EQ(reviews.size(), 2u);
  std::map<std::string, FindingRecord> by_dtype;
  for (const auto& f : db.findings()) by_dtype[f.signature.dtype] = f;
  const FindingReview& older = reviews[by_dtype["f32"].signature.key()];
  const FindingReview& newer = reviews[by_dtype["f64"].signature.key()];
  EXPECT_EQ(older.root, "ort: exp") << older.reduced;
  EXPECT_EQ(newer.root, "ort: exp") << newer.reduced;
  EXPECT_EQ(older.merged_into, 0);
  EXPECT_EQ(newer.merged_into, by_dtype["f32"].id);
  EXPECT_EQ(parse_rtg(older.reduced).op_count(), 1u);
  auto a = Agreement::from_json(older.agreement);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->str(), "ort:O3 differs from ref and onnx-ref:default, which agree");
  // Reviewed findings are not reviewed again.
  EXPECT_EQ(review_campaign(db, c, o, by_name, {}).reviewed, 0u);
}

// --review-time is a deadline: a second opinion from a worker that hangs is stopped then (the
// worker killed), the finding it cut short is left for `fuzz --resume`, and the backend's limits
// end with the review.
TEST_F(ReviewTest, TheReviewTimeIsADeadlineWhateverTheWorkersDo) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  CampaignOptions o;
  o.input_ranges = false;
  int64_t c = db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", 1, 0, 1});
  db.record_case({c, 0, 0, 3, 1, 0, 0, 0, 0, 1, ""}, {finding(kChain, "exp", "f32", c)});
  WorkerBackend hang({.name = "hang:default",
                      .argv = {RETORT_FAULT_WORKER, "--fault", "hang"},
                      .timeout_s = 600,
                      .options = {}});
  backends_["hang:default"] = &hang;
  BackendLookup by_name = [&](const std::string& n) -> Backend& { return lookup(n); };
  ReviewOptions review;
  review.extra = {"hang:default"};
  review.reduce = false;
  review.seconds = 2;
  auto start = std::chrono::steady_clock::now();
  ReviewStats stats = review_campaign(db, c, o, by_name, review);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, review.seconds + 10);
  EXPECT_EQ(stats.reviewed, 0u);
  EXPECT_EQ(stats.left, 1u);
  EXPECT_TRUE(db.reviews().empty());
  EXPECT_EQ(hang.worker_pid(), -1);
  EXPECT_FALSE(hang.case_trouble().cut);
}

}  // namespace
}  // namespace retort
