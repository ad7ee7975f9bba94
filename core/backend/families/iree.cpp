// IREE: imports the ONNX model itself (iree-import-onnx, torch-mlir's ONNX dialect), compiles it
// with iree-compile for the llvm-cpu backend at an optimization level, runs it on the runtime's
// local-sync driver.
#include "core/backend/family.h"

namespace retort {

FamilyDef iree_family() {
  FamilyDef f{.name = "iree",
              .summary = "IREE (MLIR): ONNX import, compiled for llvm-cpu",
              .default_mode = "O3",
              .baseline = "iree:O0",
              .worker = "iree_worker.py",
              .timeout_s = 300,
              .installer = Installer::Pypi,
              .version_package = "iree-base-compiler",
              .packages = {"iree-base-compiler=={}", "iree-base-runtime=={}", "numpy", "onnx"},
              .repro_script = "iree",
              .cannot_run = "ops its ONNX importer cannot lower: unsupported"};
  for (int i = 0; i < 4; ++i)
    f.modes.push_back({.name = "O" + std::to_string(i),
                       .options = {{"opt_level", std::to_string(i)}},
                       .help = "--iree-opt-level=O" + std::to_string(i)});
  // iree-compile flags that turn a pass or transformation off (SWITCHES in
  // scripts/backends/iree_worker.py): data tiling, constant evaluation and hoisting,
  // dispatch fusion, ukernels, vectorization.
  f.passes = {.how = "iree-compile flags",
              .names = {"data-tiling", "const-eval", "const-expr-hoisting", "propagate-transposes",
                        "aggressive-fusion", "fuse-multi-use", "horizontal-fusion", "pad-fusion",
                        "split-reduction", "reshape-movement", "ukernels", "vector-peeling",
                        "loop-vectorization", "slp-vectorization"}};
  return f;
}

}  // namespace retort
