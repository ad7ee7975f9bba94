// `findings report N`: a finding as an issue a compiler's maintainers accept, in Markdown. It
// stands on the reproducer bundle (repro.h) written beside it: the title (the failing op and its
// attributes that are not the defaults, and the symptom), a one-line summary, the compiler and
// its release, the second opinion, the model (a picture marking the failing outputs, and its
// .rtg text), the inputs when they are small, the expected outputs (Retort's reference) against
// the actual ones, how to run the standalone script (and the script itself, last: it is the same
// for every finding of a family), and the Retort command that reproduces it.
#pragma once

#include <map>
#include <string>

#include "core/compare/compare.h"
#include "core/compare/repro.h"

namespace retort {

struct IssueFacts {
  std::string script;  // the bundle's main script (repro.py), shown in full
  // The program the compiler ran, for a framework with no ONNX importer (model_a.py of the
  // bundle, core/compare/repro.h); empty: the ONNX model is what it ran.
  std::string program;
  std::string picture;         // the graph's picture, a file name in the bundle; empty: none
  std::string retort_command;  // the command that reproduces it in Retort
  std::string retort_version;  // "retort 0.9.0"
  // The compiler's passes whose turning off removes the difference and how they are turned off
  // (core/campaign/blame.h); empty: not known.
  std::string passes;
  // Who else agrees with the reference on this case ("ort:O0 alone differs; ref, onnx-ref:default
  // agree"); empty: not known.
  std::string opinion;
  // The known bug (core/campaign/known_bugs.h) that explains it: "row 35 of docs/bugs.md: ...";
  // empty: none does.
  std::string known{};
};

// The graph of a compare report named `name` (its original or a variant); the first when it has
// none of that name.
const Graph& compared_graph(const CompareReport& report, const std::string& name);

// The outputs of the finding's graph under test that its verdict comes from, each with what is
// wrong with it, for the issue's picture: "wrong shape: f32[1,1,6], not f32[1,1,8]",
// "mismatch: 3 of 8 elements".
std::map<std::string, std::string> failing_output_notes(const Finding& f);

// The issue text for `finding` of `report`, whose bundle is `bundle`.
std::string repro_issue_markdown(const CompareReport& report, const Finding& finding,
                                 const ReproBundle& bundle, const IssueFacts& facts);

}  // namespace retort
