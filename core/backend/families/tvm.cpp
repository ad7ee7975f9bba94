// Apache TVM: ONNX import (Relax, or Relay up to 0.1x), built for llvm on CPU at an
// optimization level; mode passes first runs the worker's Relax graph passes (graph_passes() in
// scripts/backends/tvm_worker.py), which tvm.compile's CPU pipeline does not.
#include "core/backend/family.h"

namespace retort {

FamilyDef tvm_family() {
  FamilyDef f{.name = "tvm",
              .summary = "Apache TVM: ONNX import, built for llvm on CPU",
              .default_mode = "O3",
              .baseline = "tvm:O0",
              .worker = "tvm_worker.py",
              .timeout_s = 300,
              .installer = Installer::Pypi,
              .version_package = "apache-tvm",
              .packages = {"apache-tvm=={}", "numpy", "onnx"},
              .repro_script = "tvm",
              .cannot_run = "ops its ONNX importer lacks: unsupported",
              .refusals = {
                  {.text = "Prelu requires",
                   .why = "PRelu on anything but floats (Relax's prelu takes floats only)"},
                  {.text = "cannot handle ShapeExpr",
                   .why = "a shape value (Shape's result) read by an op the importer keeps "
                          "only for tensors"},
              }};
  for (int i = 0; i < 4; ++i)
    f.modes.push_back({.name = "O" + std::to_string(i),
                       .options = {{"opt_level", std::to_string(i)}},
                       .help = "opt_level " + std::to_string(i)});
  f.modes.push_back({.name = "passes",
                     .options = {{"opt_level", "3"}, {"passes", "graph"}},
                     .help = "opt_level 3 after Relax graph passes (FoldConstant, CSE, ...)"});
  f.modes.push_back({.name = "cuda",
                     .options = {{"opt_level", "3"}, {"device", "cuda"}},
                     .help = "opt_level 3, built for cuda (needs a CUDA build of TVM)",
                     .device = "cuda"});
  // The optimizing passes that ran at opt_level 3 with passes=graph (a
  // tvm.ir.instrument on tvm.compile of apache-tvm 0.27.0.post1: Relax graph passes,
  // then TIR), leaving out those lowering needs (LegalizeOps, CallTIRRewrite,
  // VMShapeLower, MakePackedAPI, ...): with all of these off a compilation still
  // runs and agrees.
  f.passes = {
      .how = "tvm.transform.PassContext's disabled_pass",
      .names = {"FoldBatchnormToConv2D",  "DecomposeOps",           "FoldConstant",
                "EliminateCommonSubexpr", "CombineParallelMatmul",  "ReorderPermuteDimsAfterConcat",
                "FuseTransposeMatmul",    "FuseOpsByPattern",       "CanonicalizeBindings",
                "DeadCodeElimination",    "RewriteDataflowReshape", "StaticPlanBlockMemory",
                "s_tir.LoopPartition",    "tirx.VectorizeLoop",     "s_tir.HoistIfThenElse",
                "tirx.RemoveNoOp",        "tirx.UnrollLoop",        "s_tir.RenormalizeSplitPattern",
                "tirx.StmtSimplify",      "s_tir.StmtSimplify",     "s_tir.RewriteUnsafeSelect",
                "tirx.CommonSubexprElim", "tirx.NarrowDataType",    "tirx.StorageRewrite"}};
  return f;
}

}  // namespace retort
