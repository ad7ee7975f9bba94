// TensorFlow's tf.function(jit_compile=True) on CPU, as POLYJUICE ran XLA. Versions are
// tensorflow releases.
#include "core/backend/family.h"

namespace retort {

FamilyDef tf_xla_family() {
  return {.name = "tf-xla",
          .summary = "XLA through TensorFlow's tf.function(jit_compile=True) on CPU",
          .modes = {{.name = "jit",
                     .options = {{"mode", "jit"}},
                     .help = "tf.function(jit_compile=True)"},
                    {.name = "nojit",
                     .options = {{"mode", "nojit"}},
                     .help = "tf.function without jit_compile (the baseline)"}},
          .default_mode = "jit",
          .baseline = "tf-xla:nojit",
          .worker = "tf_xla_worker.py",
          .timeout_s = 180,
          .installer = Installer::Pypi,
          .version_package = "tensorflow",
          .packages = {"tensorflow=={}", "numpy", "onnx"},
          .repro_script = "tf",
          .repro_requirements = {"tensorflow=={}", "numpy"},
          .repro_program = true,
          .cannot_run =
              "ops or dtypes XLA's CPU backend lacks (e.g. some u8/i16 math): "
              "unsupported"};
}

}  // namespace retort
