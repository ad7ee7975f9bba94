#include "core/compare/verdict.h"

namespace retort {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "pass";
    case Verdict::undefined:
      return "undefined";
    case Verdict::precision:
      return "precision";
    case Verdict::nondeterministic:
      return "nondeterministic";
    case Verdict::unsupported:
      return "unsupported";
    case Verdict::mismatch:
      return "mismatch";
    case Verdict::nan_inf_mismatch:
      return "nan-inf mismatch";
    case Verdict::shape_dtype_mismatch:
      return "shape/dtype mismatch";
    case Verdict::error:
      return "error";
    case Verdict::timeout:
      return "timeout";
    case Verdict::crash:
      return "crash";
  }
  return "?";
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  for (int v = 0; v <= static_cast<int>(Verdict::crash); ++v)
    if (verdict_name(static_cast<Verdict>(v)) == name) return static_cast<Verdict>(v);
  return std::nullopt;
}

bool is_bug(Verdict v) {
  return v != Verdict::pass && v != Verdict::undefined && v != Verdict::precision &&
         v != Verdict::nondeterministic && v != Verdict::unsupported;
}

Verdict verdict_of_status(RunStatus status) {
  switch (status) {
    case RunStatus::ok:
      return Verdict::pass;
    case RunStatus::error:
      return Verdict::error;
    case RunStatus::unsupported:
      return Verdict::unsupported;
    case RunStatus::crash:
      return Verdict::crash;
    case RunStatus::timeout:
      return Verdict::timeout;
  }
  return Verdict::error;
}

}  // namespace retort
