// `findings report N`: a finding as an issue a compiler's maintainers accept, in Markdown. It
// stands on the reproducer bundle (repro.h) written beside it: the title, the compiler and its
// release, how to run the standalone script (and the script itself), the inputs when they are
// small, the expected outputs (Retort's reference) against the actual ones, a picture of the
// graph and its .rtg text, and the Retort command that reproduces it.
#pragma once

#include <string>

#include "core/compare/compare.h"
#include "core/compare/repro.h"

namespace retort {

struct IssueFacts {
  std::string script;          // the bundle's main script (repro.py), shown in full
  std::string picture;         // the graph's picture, a file name in the bundle; empty: none
  std::string retort_command;  // the command that reproduces it in Retort
  std::string retort_version;  // "retort 0.9.0"
  // The compiler's passes whose turning off removes the difference and how they are turned off
  // (core/campaign/blame.h); empty: not known.
  std::string passes;
};

// The issue text for `finding` of `report`, whose bundle is `bundle`.
std::string repro_issue_markdown(const CompareReport& report, const Finding& finding,
                                 const ReproBundle& bundle, const IssueFacts& facts);

}  // namespace retort
