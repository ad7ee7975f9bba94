#include "core/compare/verdict.h"

namespace retort {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Undefined:
      return "undefined";
    case Verdict::Precision:
      return "precision";
    case Verdict::Nondeterministic:
      return "nondeterministic";
    case Verdict::Unsupported:
      return "unsupported";
    case Verdict::Mismatch:
      return "mismatch";
    case Verdict::NanInfMismatch:
      return "nan-inf mismatch";
    case Verdict::ShapeDtypeMismatch:
      return "shape/dtype mismatch";
    case Verdict::Error:
      return "error";
    case Verdict::Timeout:
      return "timeout";
    case Verdict::Crash:
      return "crash";
  }
  return "?";
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  for (int v = 0; v <= static_cast<int>(Verdict::Crash); ++v)
    if (verdict_name(static_cast<Verdict>(v)) == name) return static_cast<Verdict>(v);
  return std::nullopt;
}

bool is_bug(Verdict v) {
  return v != Verdict::Pass && v != Verdict::Undefined && v != Verdict::Precision &&
         v != Verdict::Nondeterministic && v != Verdict::Unsupported;
}

Verdict verdict_of_status(RunStatus status) {
  switch (status) {
    case RunStatus::Ok:
      return Verdict::Pass;
    case RunStatus::Error:
      return Verdict::Error;
    case RunStatus::Unsupported:
      return Verdict::Unsupported;
    case RunStatus::Crash:
      return Verdict::Crash;
    case RunStatus::Timeout:
      return Verdict::Timeout;
  }
  return Verdict::Error;
}

}  // namespace retort
