// Cases by strategy: TENSURE's cases are an einsum and two operand permutations, OATest's a woven
// graph, compared on the backends; strategies take turns by case index and survive storage.
#include "core/campaign/case_runner.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "core/compare/output_match.h"
#include "core/findings/finding_trace.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

TEST(CaseRunner, TensureCasesAreEinsumsAndTheirPermutations) {
  CampaignOptions o;
  o.strategies = {"polyjuice", "tensure"};
  o.backends = {"ref"};
  RefBackend ref;
  CaseRunner runner(o, {&ref});
  CaseOutcome polyjuice = runner.run(1, 0), tensure = runner.run(1, 1);
  EXPECT_TRUE(polyjuice.record.error.empty()) << polyjuice.record.error;
  EXPECT_TRUE(tensure.record.error.empty()) << tensure.record.error;
  EXPECT_EQ(tensure.record.nodes, 1u);
  // The einsum and two permutations, or one when two operands have only one other order.
  EXPECT_GE(tensure.record.graphs, 2u);
  EXPECT_LE(tensure.record.graphs, 3u);
  EXPECT_TRUE(tensure.findings.empty());
  EXPECT_EQ(CampaignOptions::from_json(o.to_json()).strategies, o.strategies);
  nlohmann::json old = o.to_json();
  old.erase("strategies");
  EXPECT_EQ(CampaignOptions::from_json(old).strategies, std::vector<std::string>{"polyjuice"});
  old["strategies"] = {"nope"};
  EXPECT_THROW(CampaignOptions::from_json(old), Error);
}

// A backend that gets einsum wrong is caught on the permuted einsums too, as one finding per
// signature.
TEST(CaseRunner, TensureFindsAWrongEinsum) {
  CampaignOptions o;
  o.strategies = {"tensure"};
  o.backends = {"ref", "bad"};
  RefBackend ref;
  WrongBackend bad("bad", {"A"});
  CaseRunner runner(o, {&ref, &bad});
  CaseOutcome c = runner.run(1, 3);
  ASSERT_TRUE(c.record.error.empty()) << c.record.error;
  ASSERT_FALSE(c.findings.empty());
  EXPECT_NE(c.findings[0].original.find("einsum("), std::string::npos) << c.findings[0].original;
  EXPECT_NE(c.findings[0].variants.find("permuted_1"), std::string::npos);
}

// OATest's cases are one woven graph each (a pattern in a generated or pooled seed), compared
// across the backends; a campaign run again from its seed weaves the same graphs.
TEST(CaseRunner, OatestCasesAreWovenGraphs) {
  CampaignOptions o;
  o.strategies = {"oatest"};
  o.backends = {"ref"};
  RefBackend ref;
  CaseRunner first(o, {&ref}), again(o, {&ref});
  for (uint64_t i = 0; i < 12; ++i) {
    CaseOutcome a = first.run(1, i), b = again.run(1, i);
    ASSERT_TRUE(a.record.error.empty()) << a.record.error;
    EXPECT_EQ(a.record.graphs, 1u);
    // A generated seed has 10 nodes; a pattern adds at least one.
    EXPECT_GT(a.record.nodes, 10u);
    EXPECT_EQ(a.record.nodes, b.record.nodes);
    EXPECT_TRUE(a.findings.empty());
  }
}

// A compiler that crashes on every run; the message names a different address each time, as a
// stack trace would.
class CrashingBackend : public Backend {
 public:
  BackendInfo info() const override { return {"boom", "worker", "1", {}, "ready", ""}; }
  RunResult run(const RunRequest&) override {
    RunResult r;
    r.status = RunStatus::Crash;
    r.message = fmt::format("worker killed by signal 11 (SIGSEGV) at 0x{:x}", 0x7f00 + runs_++);
    return r;
  }

 private:
  int runs_ = 0;
};

// HirFuzz's level 0: a graph that breaks constraints goes to the compilers only, and a crash is
// a robustness finding; crashes whose texts differ only in what changes between runs are one.
TEST(CaseRunner, HirfuzzLevelZeroRunsBrokenGraphsForCrashes) {
  CampaignOptions o;
  o.strategies = {"hirfuzz"};
  o.backends = {"ref", "boom"};
  o.relax_p = 1;
  RefBackend ref;
  CrashingBackend boom;
  CaseRunner runner(o, {&ref, &boom});
  CaseOutcome a = runner.run(1, 0), b = runner.run(1, 1);
  ASSERT_TRUE(a.record.error.empty()) << a.record.error;
  ASSERT_EQ(a.findings.size(), 1u);
  const FindingRecord& f = a.findings[0];
  EXPECT_EQ(f.signature.oracle, "robustness");
  EXPECT_EQ(f.signature.verdict, "crash");
  EXPECT_FALSE(f.signature.text.empty());
  EXPECT_EQ(f.graph_a, "relaxed");
  EXPECT_NE(f.diverging.find("breaks constraints"), std::string::npos) << f.diverging;
  EXPECT_NE(f.variants.find("relaxed"), std::string::npos);
  ASSERT_EQ(b.findings.size(), 1u);
  EXPECT_EQ(b.findings[0].signature, f.signature);
  EXPECT_DOUBLE_EQ(runner.relax_p(), 1.0);  // p stays within [0, 1]
}

// HirFuzz's level 1 compares the graph, its functions and its rewritten call chain; a finding
// moves p by alpha towards the level that found it, only when it is new.
TEST(CaseRunner, HirfuzzLevelOneComparesFunctionGraphsAndRelaxationFollowsNewBugs) {
  CampaignOptions o;
  o.strategies = {"hirfuzz"};
  o.backends = {"ref"};
  o.relax_p = 0;
  RefBackend ref;
  CaseRunner clean(o, {&ref});
  size_t three = 0;
  for (uint64_t i = 0; i < 10; ++i) {
    CaseOutcome c = clean.run(1, i);
    ASSERT_TRUE(c.record.error.empty()) << c.record.error;
    EXPECT_TRUE(c.findings.empty());
    three += c.record.graphs == 3;
  }
  EXPECT_GE(three, 8u);

  o.backends = {"ref", "boom"};
  o.relax_p = 0.5;
  o.relax_alpha = 0.1;
  CrashingBackend boom;
  CaseRunner runner(o, {&ref, &boom});
  CaseOutcome first = runner.run(1, 0);
  ASSERT_FALSE(first.findings.empty());
  bool level0 = first.findings[0].graph_a == "relaxed";
  EXPECT_DOUBLE_EQ(runner.relax_p(), level0 ? 0.6 : 0.4);
  // A campaign that knows the finding already does not count it as new.
  CaseRunner resumed(o, {&ref, &boom});
  resumed.know(first.findings);
  resumed.run(1, 0);
  EXPECT_DOUBLE_EQ(resumed.relax_p(), 0.5);
}

// A torch backend as the runner sees it: it records the program mutations each run asks for,
// and gets every output's first element wrong.
class MutatedBackend : public Backend {
 public:
  BackendInfo info() const override { return {"torchish", "worker", "1", {}, "ready", ""}; }
  RunResult run(const RunRequest& request) override {
    asked.push_back(request.mutations);
    RunResult r = ref_.run(request);
    for (auto& [name, t] : r.outputs) t.set(0, t.get(0) + 1.0);
    return r;
  }
  std::vector<std::vector<ProgramMutation>> asked;

 private:
  RefBackend ref_;
};

// TorchProbe's cases run the generated graph with 1-3 program mutations, drawn from the case
// seed; a finding keeps them, so opening it mutates the program the same way.
TEST(CaseRunner, TorchprobeCasesAskForProgramMutationsAndKeepThem) {
  CampaignOptions o;
  o.strategies = {"torchprobe"};
  o.backends = {"ref", "torchish"};
  o.gen.dtypes = {DType::f32};
  o.forms = {};  // TorchProbe's own mutations only; the forms come after them (below)
  RefBackend ref;
  MutatedBackend first, again;
  CaseRunner a(o, {&ref, &first}), b(o, {&ref, &again});
  CaseOutcome c = a.run(1, 4);
  b.run(1, 4);
  ASSERT_TRUE(c.record.error.empty()) << c.record.error;
  ASSERT_FALSE(first.asked.empty());
  const std::vector<ProgramMutation>& m = first.asked.front();
  EXPECT_GE(m.size(), 1u);
  EXPECT_LE(m.size(), 3u);
  for (const ProgramMutation& x : m)
    EXPECT_NE(std::find(std::begin(kProgramMutationKinds), std::end(kProgramMutationKinds), x.kind),
              std::end(kProgramMutationKinds));
  EXPECT_EQ(again.asked.front(), m);  // the same case asks for the same mutations
  // Finding the failure's first diverging op inspects the same mutated program.
  EXPECT_GT(first.asked.size(), 1u);
  for (const std::vector<ProgramMutation>& asked : first.asked) EXPECT_EQ(asked, m);
  ASSERT_FALSE(c.findings.empty());
  EXPECT_EQ(c.findings[0].trace.mutations, m);
  EXPECT_EQ(FindingTrace::from_json(c.findings[0].trace.to_json(), "f").mutations, m);

  // With the program forms on (issue 40), the case asks for the same mutations, then its forms.
  o.forms = {"dynamic"};
  MutatedBackend formed;
  CaseRunner f(o, {&ref, &formed});
  f.run(1, 4);
  ASSERT_FALSE(formed.asked.empty());
  const std::vector<ProgramMutation>& with = formed.asked.front();
  ASSERT_GE(with.size(), m.size());
  EXPECT_TRUE(std::equal(m.begin(), m.end(), with.begin()));
  for (size_t k = m.size(); k < with.size(); ++k) EXPECT_EQ(with[k].kind, "dynamic");
}

// TENSURE's storage formats: about half the cases ask the backends to store the einsum's
// operands sparse (each backend gets it if its family applies it), the same case the same way.
TEST(CaseRunner, TensureCasesAskForSparseOperandsInHalfTheCases) {
  CampaignOptions o;
  o.strategies = {"tensure"};
  o.backends = {"ref", "torchish"};
  o.forms = {};
  RefBackend ref;
  MutatedBackend first, again;
  CaseRunner a(o, {&ref, &first}), b(o, {&ref, &again});
  size_t sparse = 0;
  const size_t cases = 40;
  for (uint64_t i = 0; i < cases; ++i) {
    size_t before = first.asked.size();
    CaseOutcome c = a.run(1, i);
    b.run(1, i);
    ASSERT_TRUE(c.record.error.empty()) << c.record.error;
    ASSERT_GT(first.asked.size(), before);
    // The case's first run (the comparison's; finding a signature inspects after it).
    const std::vector<ProgramMutation>& m = first.asked[before];
    EXPECT_EQ(again.asked[before], m);
    EXPECT_LE(m.size(), 1u);
    if (m.empty()) continue;
    ++sparse;
    EXPECT_EQ(m.front().kind, "sparse");
    ASSERT_FALSE(c.findings.empty());  // torchish gets every einsum wrong
    EXPECT_EQ(c.findings[0].trace.mutations, m);
  }
  EXPECT_GT(sparse, cases / 4);
  EXPECT_LT(sparse, cases * 3 / 4);
}

// The reference, keeping the graphs it was asked to run.
class KeepingBackend : public Backend {
 public:
  BackendInfo info() const override { return {"keeping", "worker", "1", {}, "ready", ""}; }
  RunResult run(const RunRequest& request) override {
    graphs.push_back(*request.graph);
    return ref_.run(request);
  }
  std::vector<Graph> graphs;

 private:
  RefBackend ref_;
};

// POLYJUICE's cases compare variants that list the outputs in another order (graph-out-reorder,
// drawn by random extraction) and that expose intermediate values (graph-out-expose, taken by
// max), with the default options; the same case makes the same variants again.
TEST(CaseRunner, PolyjuiceVariantsReorderAndExposeOutputs) {
  CampaignOptions o;
  o.backends = {"ref", "keeping"};
  RefBackend ref;
  KeepingBackend seen, again;
  CaseRunner runner(o, {&ref, &seen}), second(o, {&ref, &again});
  size_t reordered = 0, exposed = 0;
  for (uint64_t i = 0; i < 8; ++i) {
    size_t before = seen.graphs.size();
    CaseOutcome c = runner.run(1, i);
    second.run(1, i);
    ASSERT_TRUE(c.record.error.empty()) << c.record.error;
    EXPECT_TRUE(c.findings.empty());
    ASSERT_EQ(seen.graphs.size(), before + c.record.graphs);
    const Graph& original = seen.graphs[before];
    for (size_t g = before + 1; g < seen.graphs.size(); ++g) {
      EXPECT_EQ(seen.graphs[g].outputs, again.graphs[g].outputs);
      OutputMatch m = match_outputs(original, seen.graphs[g], "variant");
      bool moved = false;
      for (size_t k = 0; k < m.of_original.size(); ++k) moved |= m.of_original[k] != k;
      reordered += moved;
      exposed += !m.extra.empty();
    }
  }
  EXPECT_GT(reordered, 0u);
  EXPECT_GT(exposed, 0u);
}

}  // namespace
}  // namespace retort
