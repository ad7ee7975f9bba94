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
          .repro_requirements = {"torch=={}", "numpy", "setuptools"},
          .repro_program = true,
          .cannot_run =
              "ops torch has no CPU kernel for (most f16 math on old releases): "
              "unsupported",
          // TorchProbe's mutations and the program forms (backend.h kProgramForms).
          .program_mutations = [] {
            std::vector<std::string> kinds = torchprobe_mutations();
            for (const std::string& f : program_form_kinds()) kinds.push_back(f);
            return kinds;
          }()};
}

}  // namespace retort
