// The table of known disagreements between Retort's reference and onnx.reference: a row explains
// only its op, dtypes, input plans and phrase.
#include "core/compare/sweep_known.h"

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(SweepKnown, ARowExplainsOnlyItsOpDtypesPlansAndPhrase) {
  const KnownDisagreement* clip =
      explain_disagreement("clip", DType::u8, "standard", "mismatch: v0: mismatch in 9/9");
  ASSERT_NE(clip, nullptr);
  EXPECT_EQ(clip->klass, kReferenceFixPending);
  EXPECT_EQ(explain_disagreement("clip", DType::f32, "standard", "mismatch"), nullptr);
  EXPECT_EQ(explain_disagreement("relu", DType::u8, "standard", "mismatch"), nullptr);
  // log_softmax underflows in onnx.reference only where inputs are large: not on standard ones.
  EXPECT_NE(explain_disagreement("log_softmax", DType::f32, "full", "nan-inf mismatch"), nullptr);
  EXPECT_EQ(explain_disagreement("log_softmax", DType::f32, "standard", "nan-inf mismatch"),
            nullptr);
  EXPECT_EQ(explain_disagreement("pad", DType::f32, "full", "shape/dtype mismatch"), nullptr);
}

TEST(SweepKnown, EveryRowHasAClassAndAReason) {
  for (const auto& k : known_disagreements()) {
    EXPECT_TRUE(k.klass == kOnnxReferenceBug || k.klass == kSpecSilent ||
                k.klass == kReferenceFixPending)
        << k.op;
    EXPECT_FALSE(k.reason.empty()) << k.op;
    EXPECT_FALSE(k.phrase.empty()) << k.op;
  }
}

}  // namespace
}  // namespace retort
