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
          .program_mutations = all_program_mutations(),
          // The optimizing HLO passes of jaxlib 0.10.2's CPU pipeline (TF_CPP_VMODULE=
          // hlo_pass_pipeline=1 lists every pass run), leaving out those the CPU backend needs
          // to compile at all (gather_simplifier: "Non-simplified HLO Gather is not supported";
          // layout-assignment, copy-insertion, the expanders and decomposers): with all of
          // these off a compilation still runs and agrees with op-by-op JAX.
          .passes = {.how = "XLA_FLAGS' --xla_disable_hlo_passes",
                     .names = {"call-inliner",
                               "map-inline",
                               "conditional-to-select",
                               "zero_sized_hlo_elimination",
                               "result_caster",
                               "operand_upcaster",
                               "batch-dot-simplification",
                               "conditional-canonicalizer",
                               "dynamic-dimension-simplifier",
                               "algsimp",
                               "simplify-sorts",
                               "tree_reduction_rewriter",
                               "while-loop-invariant-code-motion",
                               "tuple-simplifier",
                               "while-loop-constant-sinking",
                               "simplify-while-loops",
                               "reshape-mover",
                               "constant_folding",
                               "simplify-conditional",
                               "dce",
                               "gemv-rewriter",
                               "transpose-folding",
                               "cse",
                               "fusion",
                               "cpu-parallel-task-assigner",
                               "optimize_input_output_buffer_alias",
                               "small-while-loop-hoisting"}}};
}

}  // namespace retort
