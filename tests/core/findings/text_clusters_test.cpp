// HirFuzz's dedup of failed runs by their text: the parts that change between runs of one bug
// are masked, texts at least 90% similar are one class, and known classes keep their names.
#include "core/findings/text_clusters.h"

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(TextClusters, MasksNamesNumbersAndAddresses) {
  EXPECT_EQ(failure_words("Node 'n7' at 0x7f3a: shape [2,3] \"a/b.onnx\""),
            (std::vector<std::string>{"node", "<q>", "at", "<hex>", "shape", "<n>", "<n>", "<q>"}));
  EXPECT_EQ(failure_words("Node (n8) Op (Sub) [ShapeInferenceError]"),
            (std::vector<std::string>{"node", "<id>", "op", "sub", "shapeinferenceerror"}));
}

TEST(TextClusters, OneBugInOtherNodesIsOneClass) {
  const char* a =
      "Non-zero status code returned while running Pad node. Name:'n6' Status Message: "
      "pad.cc:422 Pad reflect: post-pad (2) exceeds maximum allowed (1) for axis 1";
  const char* b =
      "Non-zero status code returned while running Pad node. Name:'v9_c' Status Message: "
      "pad.cc:422 Pad reflect: post-pad (3) exceeds maximum allowed (2) for axis 0";
  const char* other = "Exception during initialization: conv_attributes.h:50 auto_pad not set";
  EXPECT_DOUBLE_EQ(text_similarity(a, b), 1.0);
  EXPECT_LT(text_similarity(a, other), 0.2);
  TextClusters clusters;
  std::string ca = clusters.classify("ort|reference|error", a);
  EXPECT_EQ(clusters.classify("ort|reference|error", b), ca);
  EXPECT_NE(clusters.classify("ort|reference|error", other), ca);
  // Another group starts its own classes: the same text there is new.
  TextClusters fresh;
  EXPECT_EQ(fresh.classify("tvm|reference|error", a), ca);  // named by its words, not by order
}

TEST(TextClusters, SimilarButNotTheSameStaysApart) {
  // One word pair of a long text changed: still above 90%.
  std::string base =
      "Segmentation fault in tvm relax transform FuseOps while visiting call of add with "
      "arguments of type float32 and int16 in function main";
  std::string close = base;
  close.replace(close.find("FuseOps"), 7, "FoldConstant");
  EXPECT_GE(text_similarity(base, base), 0.999);
  EXPECT_LT(text_similarity(base, close), 1.0);
  EXPECT_GT(text_similarity(base, close), 0.85);
  TextClusters clusters;
  clusters.add("g", "known1", "killed by signal SIGFPE (floating point exception)");
  EXPECT_EQ(clusters.classify("g", "killed by signal SIGFPE (floating point exception)"), "known1");
  EXPECT_NE(clusters.classify("g", "killed by signal SIGSEGV (segmentation fault)"), "known1");
}

}  // namespace
}  // namespace retort
