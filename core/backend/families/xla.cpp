// JAX's jit on CPU (XLA). Versions are jax/jaxlib releases.
#include "core/backend/family.h"

namespace retort {

FamilyDef xla_family() {
  return {.name = "xla",
          .summary = "XLA through JAX's jit on CPU",
          .modes = {{.name = "jit", .options = {{"mode", "jit"}}, .help = "jax.jit"},
                    {.name = "nojit",
                     .options = {{"mode", "nojit"}},
                     .help = "the same jax.numpy program, op by op (the baseline)"},
                    {.name = "gpu",
                     .options = {{"mode", "jit"}, {"device", "gpu"}},
                     .help = "jax.jit on an NVIDIA GPU (needs a CUDA jaxlib: `backend use`)",
                     .device = "gpu"}},
          .default_mode = "jit",
          .baseline = "xla:nojit",
          .worker = "xla_worker.py",
          .timeout_s = 120,
          .installer = Installer::Pypi,
          .version_package = "jax",
          .packages = {"jax=={}", "jaxlib=={}", "numpy", "onnx"},
          .repro_script = "jax",
          .repro_requirements = {"jax=={}", "jaxlib=={}", "numpy"},
          .repro_program = true,
          .cannot_run = "ops without a jax.numpy/lax form: unsupported",
          // TorchProbe's on the jax.numpy program, and TENSURE's sparse storage (BCOO).
          .program_mutations = all_program_mutations()};
}

}  // namespace retort
