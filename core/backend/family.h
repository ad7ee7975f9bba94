// Backend families: the compilers Retort knows how to run and install. A family declares itself
// once (core/backend/families/<family>.cpp): its modes, how its worker starts, how a version of
// it installs, its reproducer and its help. The built-in backends, `--backends`, `backend
// install|versions|remove|bisect`, the optimization oracle's baselines and `export repro` all
// ask this registry; none keeps its own list.
//
// A backend name is FAMILY[@VERSION][:MODE]: "ort:O3", "inductor@2.1.0:default", "xla". Without
// a version it is the family's default (locked) version; without a mode, the default mode.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace retort {

struct FamilyMode {
  std::string name{};                            // "O3", "default", "nojit"
  std::map<std::string, std::string> options{};  // sent to the worker in hello
  std::string help{};                            // one line for `help` and the docs
  std::string worker{};                          // the worker script when not the family's
  // The accelerator the mode runs on ("cuda"; JAX calls it "gpu"), told to the worker as the
  // option `device`; empty: the CPU. Without it here the mode is listed as unavailable, with
  // the reason (family_env.h, device_unavailable), and its runs are `unsupported`.
  std::string device{};
};

enum class Installer {
  Npm,   // an npm prefix per version (onnxruntime-node)
  Pypi,  // a virtual environment per version, made with uv
};

// A message by which a compiler refuses a model it cannot run, rather than computing a wrong
// answer: a run that fails with it is `unsupported`, not a finding. Workers already answer
// `unsupported` for their frameworks' generic phrases ("not implemented for"); these are the
// compiler's own refusals of particular forms, which a worker reports as plain errors.
struct Refusal {
  std::string text{};  // a part of the error message, matched exactly
  std::string why{};   // what the compiler cannot do: the unsupported run's message says it
};

// The switches of a family's own optimization passes (issue 41): the passes a worker turns off
// when its hello option kDisabledPassesOption lists them (names joined by ','). `findings blame`
// turns them off, all and then by halves, to name the passes a finding's difference needs.
struct PassSwitches {
  // How the compiler takes them, for help and reports: "ONNX Runtime's session config entry
  // optimization.disable_specified_optimizers".
  std::string how{};
  // The passes in the compiler's own spelling ("MatmulTransposeFusion", "algsimp"); a name a
  // release lacks is ignored by it, as by the compiler.
  std::vector<std::string> names{};
};
inline constexpr const char* kDisabledPassesOption = "disabled_passes";

struct FamilyDef {
  std::string name{};     // "ort", "inductor", "tf-xla"
  std::string summary{};  // one line for `backend` help and docs/compare.md
  std::vector<FamilyMode> modes{};
  std::string default_mode{};  // what the bare family name means
  // The backend the optimization oracle checks the family's modes against ("ort:O0",
  // "torch:eager"); empty: the first of the family in the list.
  std::string baseline{};
  // Families that run in one environment and share baselines (torch's TorchScript modes run on
  // inductor's torch): the name of the family whose environment and versions this one uses.
  std::string environment_of{};
  std::string worker{};  // the worker script in scripts/backends: "ort_worker.js"
  // Seconds a request may take: compilers that build C++ (Inductor, TVM) or import a large
  // framework at hello need more than the protocol's default.
  double timeout_s = 30;
  Installer installer = Installer::Pypi;
  // The package whose published releases are the family's versions ("torch", "onnxruntime-node")
  // and every package a version needs, with {} for the version ("jax=={}", "jaxlib=={}").
  std::string version_package{};
  std::vector<std::string> packages{};
  // The standalone reproducer (core/compare/repro.h): the stem of its runner in scripts/repro
  // ("ort" for scripts/repro/ort.py.in), which uses only the compiler's public API and numpy;
  // empty: `export repro` writes Retort's replay through the worker instead. And what its
  // requirements.txt pins, with {} for the release; empty: `packages`.
  std::string repro_script{};
  std::vector<std::string> repro_requirements{};
  // Whether the runner takes the worker's generated program (Backend::program_source, written
  // as model_a.py) rather than the ONNX model: the frameworks with no ONNX importer.
  bool repro_program = false;
  std::string cannot_run{};  // what it cannot run, for docs/compare.md and `help`
  std::vector<Refusal> refusals{};
  // The prefixes with which its releases wrap another error's text ("Exception during
  // initialization: ", ONNX Runtime's session creation): what follows one is the error itself.
  std::vector<std::string> error_wrappers{};
  // The program mutations its worker applies (backend.h): the generated Python program's.
  std::vector<std::string> program_mutations{};
  PassSwitches passes{};  // none: `findings blame` cannot name its passes
};

// Every family, in the order `backend list` shows them.
const std::vector<FamilyDef>& families();
const FamilyDef* find_family(const std::string& name);
// Throws Error (with close matches) for a name that is no family.
const FamilyDef& get_family(const std::string& name);
// The family whose environment `f` runs in (itself unless environment_of says otherwise).
const FamilyDef& environment_family(const FamilyDef& f);
const FamilyMode* find_mode(const FamilyDef& f, const std::string& mode);

// A parsed backend name.
struct BackendName {
  const FamilyDef* family = nullptr;
  std::string version{};  // empty: the family's default version
  std::string mode{};     // always set: the default mode when the name had none

  // The canonical name: "ort:O3", "ort@1.16.3:O3".
  std::string str() const;
};

// Parses FAMILY[@VERSION][:MODE]; nullopt when FAMILY is no family (an attached backend's name).
// Throws Error for a known family with an unknown mode or a malformed version.
std::optional<BackendName> parse_backend_name(const std::string& text);
// The same without errors, for code asking whether a name is a family's: nullopt also for a
// family with an unknown mode or a malformed version (an attached backend may be named "ort:par").
std::optional<BackendName> find_backend_name(const std::string& text);

// The group whose members the optimization oracle compares ("inductor@2.1.0" for
// "torch@2.1.0:script"), and the baseline backend of that group in canonical form; for a name of
// no family, the text before ':' and no baseline.
std::string oracle_group(const std::string& backend);
// TorchProbe's mutation kinds (kProgramMutationKinds), for families whose program takes them;
// and every kind (TorchProbe's, then kStorageMutationKinds).
std::vector<std::string> torchprobe_mutations();
std::vector<std::string> all_program_mutations();
// The kinds of kProgramForms; throws Error naming `what` for a name in `names` that is none.
std::vector<std::string> program_form_kinds();
void check_program_forms(const std::vector<std::string>& names, std::string_view what);
// Whether a run on `backend` gets mutations of this kind: its family applies them, or it is no
// family's (an attached worker, which ignores what it does not know).
bool applies_mutation(const std::string& backend, std::string_view kind);
std::string oracle_baseline(const std::string& backend);
// The refusal of the backend's family that an error message contains, or null (also for a
// backend of no family).
const Refusal* find_refusal(const std::string& backend, const std::string& message);
// The error itself: `message` without blanks around it and without the wrappers the backend's
// family puts before another error's text (FamilyDef::error_wrappers), however many; for a
// backend of no family, only without the blanks.
std::string error_core(const std::string& backend, const std::string& message);

// The pass switches of the backend's family; null for a backend of no family or a family that
// declares none.
const PassSwitches* find_pass_switches(const std::string& backend);

// The families, declared one per file in core/backend/families/.
FamilyDef ort_family();
FamilyDef inductor_family();
FamilyDef torch_family();
FamilyDef xla_family();
FamilyDef tf_xla_family();
FamilyDef tvm_family();
FamilyDef openvino_family();
FamilyDef iree_family();
FamilyDef onnx_ref_family();

}  // namespace retort
