// torch itself, in inductor's environment (the same torch release): eager and aot_eager, the
// optimization oracle's baselines for Inductor, and the TorchScript modes.
#include "core/backend/family.h"

namespace retort {

namespace {

FamilyMode script_mode(const char* name, const char* mode, const char* freeze, const char* fuser,
                       const char* help) {
  return {.name = name,
          .options = {{"mode", mode}, {"freeze", freeze}, {"fuser", fuser}},
          .help = help,
          .worker = "torch_worker.py"};
}

}  // namespace

FamilyDef torch_family() {
  return {.name = "torch",
          .summary = "torch eager, aot_eager and TorchScript, on inductor's torch release",
          .modes = {{.name = "eager",
                     .options = {{"mode", "eager"}},
                     .help = "the generated module run eagerly (Inductor's baseline)"},
                    {.name = "cuda",
                     .options = {{"mode", "eager"}, {"device", "cuda"}},
                     .help = "the generated module run eagerly on an NVIDIA GPU",
                     .device = "cuda"},
                    {.name = "aot_eager",
                     .options = {{"mode", "aot_eager"}},
                     .help = "torch.compile(backend=\"aot_eager\"): dynamo and AOTAutograd, no "
                             "Inductor"},
                    script_mode("trace", "trace", "0", "0", "torch.jit.trace"),
                    script_mode("script", "script", "0", "0", "torch.jit.script"),
                    script_mode("trace-frozen", "trace", "1", "0",
                                "torch.jit.trace, frozen and optimized for inference"),
                    script_mode("script-frozen", "script", "1", "0",
                                "torch.jit.script, frozen and optimized for inference"),
                    script_mode("script-te", "script", "0", "1",
                                "torch.jit.script with the TensorExpr fuser")},
          .default_mode = "eager",
          .baseline = "torch:eager",
          .environment_of = "inductor",
          .worker = "inductor_worker.py",
          .timeout_s = 300,
          .installer = Installer::Pypi,
          .repro_script = "torch",
          // ml_dtypes: the bundle reads bf16 values as its bfloat16 (scripts/repro/npy.py.in).
          .repro_requirements = {"torch=={}", "numpy", "ml_dtypes", "setuptools"},
          .repro_program = true,
          .cannot_run = "as inductor; frozen modes need a TorchScript module",
          .program_mutations = torchprobe_mutations()};
}

}  // namespace retort
