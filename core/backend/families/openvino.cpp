// OpenVINO: reads the ONNX model and compiles it for CPU, with f32 inference precision (the
// baseline) or the CPU's default precision hint (bf16/f16 where the CPU has them) for a model
// whose floats are all bf16 or f16; openvino_worker.py says why an f32 model keeps f32.
#include "core/backend/family.h"

namespace retort {

FamilyDef openvino_family() {
  return {.name = "openvino",
          .summary = "OpenVINO on CPU",
          .modes = {{.name = "default",
                     .options = {{"precision", "default"}},
                     .help = "the CPU plugin's default inference precision hint (f32 for f32 models)"},
                    {.name = "f32",
                     .options = {{"precision", "f32"}},
                     .help = "INFERENCE_PRECISION_HINT f32 (the baseline)"}},
          .default_mode = "default",
          .baseline = "openvino:f32",
          .worker = "openvino_worker.py",
          .timeout_s = 120,
          .installer = Installer::Pypi,
          .version_package = "openvino",
          .packages = {"openvino=={}", "numpy", "onnx"},
          .repro_script = "openvino",
          .repro_requirements = {"openvino=={}", "numpy"},
          .cannot_run = "ops or dtypes its ONNX frontend or CPU plugin lacks: unsupported",
          // No public option turns off one of OpenVINO's graph transformations by name; these
          // are the CPU plugin's public properties that turn one off (SWITCHES in
          // scripts/backends/openvino_worker.py).
          .passes = {.how = "the CPU plugin's compile_model properties",
                     .names = {"snippets", "low_precision", "dynamic_quantization"}}};
}

}  // namespace retort
