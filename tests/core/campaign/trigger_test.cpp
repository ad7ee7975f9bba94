// OATest's trigger check on a real ONNX Runtime worker: ConvBNFusion fires at O1 (basic) and not
// at O0 (optimizations off); the reference interpreter cannot say; the rate over woven cases is
// counted per pattern. Needs the Node packages of scripts/backends (scripts/setup.sh).
#include "core/campaign/trigger.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/campaign/campaign_options.h"
#include "core/gen/weave.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

class TriggerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
      GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
    seed_ = parse_rtg(
        "input x : f32[1,3,8,8]\n"
        "a = sigmoid(x)\n"
        "b = tanh(a)\n"
        "output b\n",
        "seed.rtg");
    infer_graph(seed_);
    Rng rng(2);
    woven_ = weave_pattern(seed_, get_opt_pattern("conv_bn"), rng);
  }
  BackendSet set_;
  Graph seed_, woven_;
};

TEST_F(TriggerTest, ConvBnFusionFiresOnlyWhenOptimizing) {
  const OptPattern& p = get_opt_pattern("conv_bn");
  TriggerCheck o1 = check_trigger(set_.get("ort:O1"), seed_, woven_, p, 1);
  EXPECT_EQ(o1.state, Trigger::Fired) << o1.message;
  TriggerCheck o0 = check_trigger(set_.get("ort:O0"), seed_, woven_, p, 1);
  EXPECT_EQ(o0.state, Trigger::NotFired) << o0.message;
  TriggerCheck ref = check_trigger(set_.get("ref"), seed_, woven_, p, 1);
  EXPECT_EQ(ref.state, Trigger::Unknown);
  EXPECT_NE(ref.message.find("does not report"), std::string::npos) << ref.message;
}

TEST_F(TriggerTest, RatesAreCountedPerPattern) {
  TriggerRateOptions o;
  o.cases = 4;
  o.seed = 9;
  o.gen = CampaignOptions::default_gen();
  o.gen.ops = {"relu", "sigmoid", "add", "mul", "neg"};
  o.gen.dtypes = {DType::f32};
  size_t progressed = 0;
  o.progress = [&](size_t done) { progressed = done; };
  std::vector<const OptPattern*> patterns{&get_opt_pattern("conv_bn"),
                                          &get_opt_pattern("not_where")};
  TriggerRates at_o3 = trigger_rates(set_.get("ort:O3"), patterns, o);
  EXPECT_EQ(at_o3.cases, 4u);
  EXPECT_EQ(progressed, 4u);
  ASSERT_EQ(at_o3.by_pattern.size(), 2u);
  EXPECT_EQ(at_o3.by_pattern["conv_bn"].known() + at_o3.by_pattern["conv_bn"].unknown, 2u);
  EXPECT_EQ(at_o3.by_pattern["conv_bn"].fired, 2u) << at_o3.total.first_unknown;
  EXPECT_EQ(at_o3.total.fired + at_o3.total.not_fired + at_o3.total.unknown, 4u);
  TriggerRates at_o0 = trigger_rates(set_.get("ort:O0"), patterns, o);
  EXPECT_EQ(at_o0.total.fired, 0u);
  EXPECT_EQ(at_o0.total.not_fired, 4u) << at_o0.total.first_unknown;

  std::atomic<bool> cancel{true};
  o.cancel = &cancel;
  EXPECT_EQ(trigger_rates(set_.get("ort:O3"), patterns, o).cases, 0u);
}

}  // namespace
}  // namespace retort
