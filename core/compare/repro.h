// `export repro DIR`: a bundle that shows a compiler developer one finding without Retort.
//
// By default it holds what a maintainer asks for: repro.py, which uses only the accused
// compiler's public API (the family's runner, scripts/repro/<family>.py.in) and numpy; the ONNX
// model(s), and for a framework with no ONNX importer (torch, JAX, TensorFlow) the program its
// worker generated from them as model_a.py (its constants in model_a/); the inputs and the
// reference's expected outputs as .npy; requirements.txt pinning the release; a README. It runs in
// a fresh virtual environment with only those requirements.
//
// Retort's own replay (`full`, and the only script for a backend whose family has no standalone
// runner, such as an attached worker) starts the backend's worker with the hello options Retort
// used, through the workers' shared protocol code (scripts/backends/retort_backends), and adds the
// graphs as .rtg text.
//
// Both scripts are assembled from scripts/repro: a case literal, a runner, then the comparison and
// verdict of repro.py.in; they print what differs and exit 1 when the finding reproduces, 0 when
// not, 2 when the script itself cannot run. Each run happens in a child process of the script,
// so a compiler killed by a signal (SIGFPE) reproduces a crash finding ("reproduced (killed by
// SIGFPE)", exit 1) and its warnings stay out of the script's output; integers compare exactly.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/compare/compare.h"

namespace retort {

// How a bundle runs one backend: what the backend reports of itself (kind "reference" for the
// interpreter, version, hello options) and the command of its worker (empty for the reference).
struct ReproBackend {
  BackendInfo info;
  std::vector<std::string> argv;
  // The backend itself, which writes its generated program for a family whose runner takes one
  // (FamilyDef::repro_program); null elsewhere.
  Backend* live = nullptr;
  // The user's environment it runs in (`backend use FAMILY --python`): the bundle pins the
  // versions that environment has, not the lock's.
  std::optional<PythonEnvironment> python;
};

// Every backend of the set as a bundle runs it: a family's release by its family's declaration
// (family_backend_spec), an attached worker by the command it was attached with.
std::map<std::string, ReproBackend> repro_backends(BackendSet& backends);

struct ReproOptions {
  bool force = false;  // write into a non-empty DIR
  bool full = false;   // also Retort's replay through the workers (replay/)
  // Where the replay finds the workers' shared protocol code (scripts/backends).
  std::string backends_dir;
  std::string python = "/usr/bin/python3";  // runs the replay (needs numpy)
  std::string retort_command;               // the Retort command that reproduces it, for README
  // The compiler's passes the failure needs (core/campaign/blame.h), for issue.md; empty: not
  // known yet.
  std::string passes;
};

struct ReproBundle {
  std::vector<std::string> files;         // written, relative to DIR
  std::string run;                        // the command that runs the main script, from DIR
  bool standalone = false;                // repro.py uses only the compiler's public API
  std::string compiler;                   // "ONNX Runtime 1.30.0 (onnxruntime==1.30.0)"
  std::vector<std::string> requirements;  // what requirements.txt pins (standalone only)

  // The shell line that runs it from DIR: a fresh virtual environment for a standalone script.
  std::string run_line() const;
};

// Writes the bundle for `finding` of `report`; `backends` has the finding's backends by name.
// Throws Error when DIR exists and is not empty (unless force), when a backend of the finding is
// missing or is the reference, when its two sides are different families, or on a write error.
ReproBundle write_repro(const std::string& dir, const CompareReport& report, const Finding& finding,
                        const std::map<std::string, ReproBackend>& backends,
                        const ReproOptions& options);

// The scripts/repro/*.py.in texts by stem ("repro", "replay", "ort"), embedded at build time;
// empty for a stem that has none.
std::string_view repro_script_part(std::string_view stem);

}  // namespace retort
