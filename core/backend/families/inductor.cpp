// torch.compile on CPU: Inductor's C++ code generation. Its baseline is torch:eager, the same
// generated module run by torch itself (core/backend/families/torch.cpp).
#include "core/backend/family.h"

namespace retort {

FamilyDef inductor_family() {
  return {.name = "inductor",
          .summary = "torch.compile with Inductor on CPU (C++ code generation)",
          .modes = {{.name = "default",
                     .options = {{"mode", "default"}},
                     .help = "torch.compile(backend=\"inductor\")"},
                    {.name = "max-autotune-no-cudagraphs",
                     .options = {{"mode", "max-autotune-no-cudagraphs"}},
                     .help = "torch.compile(mode=\"max-autotune-no-cudagraphs\")"},
                    {.name = "freezing",
                     .options = {{"mode", "freezing"}},
                     .help = "torch.compile with Inductor's freezing: buffers folded as constants"},
                    {.name = "cpp-wrapper",
                     .options = {{"mode", "cpp-wrapper"}},
                     .help = "torch.compile with Inductor's cpp_wrapper: one C++ unit per graph"},
                    {.name = "cuda",
                     .options = {{"mode", "default"}, {"device", "cuda"}},
                     .help = "torch.compile on an NVIDIA GPU: Inductor's Triton kernels",
                     .device = "cuda"}},
          .default_mode = "default",
          .baseline = "torch:eager",
          .worker = "inductor_worker.py",
          .timeout_s = 300,
          .installer = Installer::Pypi,
          .version_package = "torch",
          // torch 2.1's Inductor imports pkg_resources, which a uv environment lacks.
          .packages = {"torch=={}", "numpy", "onnx", "setuptools"},
          .repro_script = "torch",
          // ml_dtypes: the bundle reads bf16 values as its bfloat16 (scripts/repro/npy.py.in).
          .repro_requirements = {"torch=={}", "numpy", "ml_dtypes", "setuptools"},
          .repro_program = true,
          .cannot_run =
              "ops torch has no CPU kernel for (most f16 math on old releases): "
              "unsupported",
          // TorchProbe's mutations and the program forms (backend.h kProgramForms).
          .program_mutations = [] {
            std::vector<std::string> kinds = torchprobe_mutations();
            for (const std::string& f : program_form_kinds()) kinds.push_back(f);
            return kinds;
          }(),
          // torch._inductor.config switches (scripts/backends/retort_backends/
          // inductor_passes.py sets each to the value that turns its pass off): the FX
          // rewrites, the scheduler's fusion and reordering, and the C++ code generator's
          // vectorization. With all of them off torch 2.15 still compiles and agrees.
          .passes = {.how = "torch._inductor.config switches",
                     .names = {"pattern_matcher",
                               "joint_graph_constant_folding",
                               "constant_and_index_propagation",
                               "split_cat_fx_passes",
                               "batch_fusion",
                               "use_mixed_mm",
                               "optimize_scatter_upon_const_tensor",
                               "reorder_for_locality",
                               "reorder_for_peak_memory",
                               "epilogue_fusion",
                               "loop_ordering_after_fusion",
                               "split_reductions",
                               "online_softmax",
                               "comprehensive_padding",
                               "shape_padding",
                               "inplace_buffers",
                               "allow_buffer_reuse",
                               "max_fusion_size",
                               "cpp.vec_isa_ok",
                               "cpp.enable_loop_tail_vec",
                               "cpp.enable_tiling_heuristics",
                               "cpp.weight_prepack",
                               "cpp.no_redundant_loops"}}};
}

}  // namespace retort
