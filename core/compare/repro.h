// `export repro DIR`: a bundle that shows a compiler developer one finding without Retort. It
// holds the ONNX model(s), the inputs and the reference's expected outputs as .npy, the .rtg
// text of the graphs, a runnable script and a README (versions, the oracle that fired, how to
// run). The script runs the side under test (and the side it must agree with, when that is not
// the reference), prints the mismatch and exits 1 when the finding reproduces, 0 when not.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/compare/compare.h"

namespace retort {

// How the bundle's script runs one backend.
struct ReproBackend {
  enum class Kind {
    reference,  // Retort's interpreter: the expected .npy files stand for it
    ort,        // ONNX Runtime through onnxruntime-node (repro.js)
    worker,     // any protocol worker, started from its command line (repro.py)
  };
  Kind kind = Kind::worker;
  std::string version;
  std::string ort_level;     // ort: "disabled", "basic", "extended" or "all"
  std::string node_modules;  // ort: where its release's onnxruntime-node is; empty: the options'
  std::vector<std::string> argv;               // worker: the command, run from the bundle directory
  std::map<std::string, std::string> options;  // worker: the hello options
  // worker: files the command needs, copied into the bundle (source path -> name in the
  // bundle); argv refers to them by that name.
  std::map<std::string, std::string> copy_files;
};

struct ReproOptions {
  bool force = false;  // write into a non-empty DIR
  // Where onnxruntime-node's node_modules are; repro.js uses $RETORT_NODE_MODULES first.
  std::string node_modules;
  std::string python = "/usr/bin/python3";       // runs repro.py (needs numpy)
  std::map<std::string, ReproBackend> backends;  // by name; the finding's backends must be here
};

struct ReproBundle {
  std::vector<std::string> files;  // written, relative to DIR
  std::string run;                 // the command that runs the script, from DIR
};

// Writes the bundle for `finding` of `report`. Throws Error when DIR exists and is not empty
// (unless force), when a backend of the finding is not in options.backends, or on a write error.
ReproBundle write_repro(const std::string& dir, const CompareReport& report, const Finding& finding,
                        const ReproOptions& options);

// The script texts (repro_scripts.cpp): they read repro.json, written next to them.
extern const char* const kReproNodeScript;
extern const char* const kReproPythonScript;

}  // namespace retort
