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
