#include "core/backend/backend.h"

#include "core/base/error.h"

namespace retort {

std::string_view run_status_name(RunStatus status) {
  switch (status) {
    case RunStatus::Ok:
      return "ok";
    case RunStatus::Error:
      return "error";
    case RunStatus::Unsupported:
      return "unsupported";
    case RunStatus::Crash:
      return "crash";
    case RunStatus::Timeout:
      return "timeout";
  }
  return "?";
}

ProgramSource Backend::program_source(const RunRequest& request) {
  (void)request;
  fail("{} runs no generated program", info().name);
}

}  // namespace retort
