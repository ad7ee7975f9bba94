// ONNX Runtime through onnxruntime-node: graph optimization levels O0 (disabled) to O3 (all).
#include "core/backend/family.h"

namespace retort {

FamilyDef ort_family() {
  FamilyDef f{.name = "ort",
              .summary = "ONNX Runtime (onnxruntime-node) on CPU, one thread",
              .default_mode = "O3",
              .baseline = "ort:O0",
              .worker = "ort_worker.js",
              .installer = Installer::Npm,
              .version_package = "onnxruntime-node",
              .packages = {"onnxruntime-node@{}"},
              .repro_script = "ort",
              .repro_requirements = {"onnxruntime=={}", "numpy"},
              .cannot_run =
                  "ops or dtypes without a CPU kernel: unsupported (1.20.1 had no Add on u8, "
                  "i8, i16; 1.30.0 has)",
              .refusals = {
                  {.text = "Dilation not supported for AutoPadType::SAME_UPPER or "
                           "AutoPadType::SAME_LOWER",
                   .why = "Conv and the pools with auto_pad SAME_* and a dilation above 1"},
                  {.text = "Pad should be smaller than kernel",
                   .why = "a pool whose pads are as wide as its kernel"},
              }};
  // The transformers and rewrite rules of onnxruntime/core/optimizer/graph_transformer_utils.cc
  // (1.30) that run on the CPU execution provider, by the names they give themselves (a class
  // MatmulBNFusion calls itself "MatMul_BatchNormalization_Fusion"), in the order they run:
  // level 1 (basic: O1) rules, then transformers; level 2 (extended: O2); level 3 (all: O3).
  f.passes = {
      .how = "ONNX Runtime's session config entry optimization.disable_specified_optimizers",
      .names = {"EliminateIdentity",
                "EliminateSlice",
                "UnsqueezeElimination",
                "EliminateDropout",
                "ExpandElimination",
                "CastElimination",
                "PreShapeNodeElimination",
                "NoopElimination",
                "DivMulFusion",
                "FuseReluClip",
                "GemmSumFusion",
                "GemmTransposeFusion",
                "NotWhereFusion",
                "ConvAddFusion",
                "ConvMulFusion",
                "ConvBNFusion",
                "Pad_Fusion",
                "MatMul_BatchNormalization_Fusion",
                "LabelEncoderFusion",
                "DoubleQDQPairsRemover",
                "ConstantSharing",
                "CommonSubexpressionElimination",
                "ConstantFolding",
                "MatMulAddFusion",
                "ReshapeFusion",
                "FreeDimensionOverrideTransformer",
                "GeluFusionL1",
                "LayerNormFusionL1",
                "QDQPropagationTransformer",
                "WeightBiasQuantization",
                "EnsureUniqueDQForNodeUnit",
                "TransposeOptimizer",
                "ClipQuantRewrite",
                "ReluQuantRewrite",
                "QDQS8ToU8Transformer",
                "QDQSelectorActionTransformer",
                "GemmActivationFusion",
                "MatMulIntegerToFloatFusion",
                "DynamicQuantizeMatMulFusion",
                "ConvActivationFusion",
                "GeluFusionL2",
                "LayerNormFusionL2",
                "SimplifiedLayerNormFusion",
                "AttentionFusion",
                "EmbedLayerNormFusion",
                "GatherSliceToSplitFusion",
                "GatherToSliceFusion",
                "MatmulTransposeFusion",
                "BiasGeluFusion",
                "SkipLayerNormFusion",
                "FastGeluFusion",
                "QuickGeluFusion",
                "BiasSoftmaxFusion",
                "MatMulScaleFusion",
                "MatMulNBitsFusion",
                "QDQFinalCleanupTransformer",
                "NchwcTransformer",
                "NhwcTransformer",
                "ConvAddActivationFusion"}};
  // 1.16.3 at O3: a kernel's error that constant folding raised while loading the model.
  f.error_wrappers = {"Exception during initialization: "};
  const char* levels[] = {"disabled", "basic", "extended", "all"};
  for (int i = 0; i < 4; ++i)
    f.modes.push_back({.name = "O" + std::to_string(i),
                       .options = {{"opt_level", levels[i]},
                                   {"intra_op_threads", "1"},
                                   {"execution_mode", "sequential"}},
                       .help = std::string("graph optimization level ") + levels[i]});
  return f;
}

}  // namespace retort
