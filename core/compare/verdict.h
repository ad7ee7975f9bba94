// The verdict of one comparison, and of one cell of a compare report (the worst over its runs).
#pragma once

#include <optional>
#include <string_view>

#include "core/backend/backend.h"

namespace retort {

// Ordered from best to worst; the worst verdict of several runs is their max.
enum class Verdict {
  Pass,
  Undefined,           // values differ, but the inputs make an op undefined there: not a bug
  Precision,           // values differ within what skipped intermediate roundings explain
  Nondeterministic,    // the backend gave other outputs when the same run was repeated
  Unsupported,         // a backend cannot express the model: not a bug
  Mismatch,            // some elements differ beyond the tolerance
  NanInfMismatch,      // NaN or Inf on one side where the other has a different value
  ShapeDtypeMismatch,  // an output's dtype or shape differs (or an output is missing)
  Error,               // the backend reported a compile or runtime error
  Timeout,
  Crash,
};

std::string_view verdict_name(Verdict v);                     // "pass", "nan-inf mismatch", ...
std::optional<Verdict> parse_verdict(std::string_view name);  // verdict_name's inverse
// Whether the verdict points at a bug in a backend (undefined, unsupported and pass do not).
bool is_bug(Verdict v);
inline Verdict worst(Verdict a, Verdict b) {
  return a < b ? b : a;
}
// The verdict of a run that did not finish with outputs (ok maps to pass).
Verdict verdict_of_status(RunStatus status);

}  // namespace retort
