#include <set>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/io/rtg.h"
#include "core/session/session.h"

#include "tests/support/fig6.h"

namespace retort {
namespace {

using testing::load_fig6;

TEST(SessionEGraph, CommandsNeedAnEGraph) {
  Session s;
  load_fig6(s);
  EXPECT_THROW(s.egraph(), Error);
  EXPECT_THROW(s.undo(), Error);
}

TEST(SessionEGraph, SaturatedFig6ExtractsTheThreeOpForm) {
  Session s;
  load_fig6(s);
  s.build_egraph();
  RunReport r = s.run_rules({}, "saturate");
  EXPECT_EQ(r.stop, StopReason::Saturated);
  const std::string& min = s.extract_variant({}, "", "extract min");
  EXPECT_EQ(min, "min");
  EXPECT_EQ(s.variant_info("min").ops, 3u);
  ExtractOptions max;
  max.mode = ExtractMode::Max;
  s.extract_variant(max, "", "extract max");
  EXPECT_GT(s.variant_info("max").ops, 4u);
  std::vector<Explanation> proofs = s.explain_variant("min");
  ASSERT_EQ(proofs.size(), 1u);
  // The proof reaches the variant's exact term, down to the involutions inside the transpose.
  EXPECT_EQ(proofs[0].to, "(add I1 (transpose (add I2 I3) perm=[1,0]))");
  std::set<std::string> rules;
  for (const ExplainStep& step : proofs[0].steps) rules.insert(step.why.rule);
  EXPECT_TRUE(rules.count("fig6-transpose-involution")) << proofs[0].str();
  EXPECT_TRUE(rules.count("fig6-add-assoc")) << proofs[0].str();
}

TEST(SessionEGraph, RebuildingTheEGraphLeavesOldVariantsUnexplainable) {
  Session s;
  load_fig6(s);
  s.build_egraph();
  s.run_rules({}, "saturate");
  s.extract_variant({}, "", "extract min");
  s.build_egraph();
  EXPECT_THROW(s.explain_variant("min"), Error);
  EXPECT_EQ(s.variant_info("min").ops, 3u);
}

TEST(SessionEGraph, UndoRedoReplaysTheSameEGraph) {
  Session s;
  load_fig6(s);
  s.build_egraph();
  RunnerOptions one;
  one.iter_limit = 1;
  s.run_rules(one, "step");
  size_t nodes1 = s.egraph().eg.node_count();
  s.run_rules(one, "step");
  size_t nodes2 = s.egraph().eg.node_count();
  size_t steps2 = s.egraph().trace.steps.size();
  EXPECT_EQ(s.undo(), "step");
  EXPECT_EQ(s.egraph().eg.node_count(), nodes1);
  s.redo();
  EXPECT_EQ(s.egraph().eg.node_count(), nodes2);
  EXPECT_EQ(s.egraph().trace.steps.size(), steps2);
  s.undo();
  s.undo();
  s.undo();
  EXPECT_FALSE(s.has_egraph());
  EXPECT_THROW(s.undo(), Error);
}

TEST(SessionEGraph, FailedApplyLeavesNoUndoStep) {
  Session s;
  load_fig6(s);
  s.build_egraph();
  EXPECT_THROW(s.apply("fig6-add-assoc", 99, "apply"), Error);
  EXPECT_THROW(s.apply("no-such-rule", 1, "apply"), Error);
  EXPECT_EQ(s.undo_depth(), 1u);
}

// Every change publishes its topics, and only those: the workbench redraws on them.
TEST(SessionEGraph, PublishesWhatChanged) {
  Session s;
  TopicVersions seen = s.topics().now();
  auto changed = [&] {
    TopicVersions now = s.topics().now();
    TopicSet c = TopicClock::changed(seen, now);
    seen = now;
    return c;
  };
  s.start_graph(testing::fig6_graph());
  EXPECT_EQ(changed(), (TopicSet{Topic::Graph, Topic::EGraph, Topic::Variants, Topic::Values,
                                 Topic::Results, Topic::Program}));
  s.build_egraph();
  EXPECT_EQ(changed(), (TopicSet{Topic::EGraph, Topic::Variants}));
  s.extract_variant({}, "", "extract min");
  EXPECT_EQ(changed(), (TopicSet{Topic::EGraph, Topic::Variants}));
  EXPECT_EQ(s.newest_variant(), "min");
  const Session& reader = s;
  reader.rules();
  reader.egraph();
  EXPECT_TRUE(changed().empty());
  s.set_compare_report({});
  EXPECT_EQ(changed(), TopicSet{Topic::Results});
  s.set_last_eval({});
  EXPECT_EQ(changed(), TopicSet{Topic::Values});
  s.undo();
  EXPECT_EQ(changed(), (TopicSet{Topic::EGraph, Topic::Variants}));
  EXPECT_EQ(s.newest_variant(), "");  // undone
  EXPECT_THROW(s.apply("no_such_rule", 1, "apply"), Error);
  EXPECT_TRUE(changed().empty());  // a failed command before any change
}

}  // namespace
}  // namespace retort
