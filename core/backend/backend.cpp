#include "core/backend/backend.h"

#include "core/base/error.h"

namespace retort {

std::string_view run_status_name(RunStatus status) {
  switch (status) {
    case RunStatus::ok:
      return "ok";
    case RunStatus::error:
      return "error";
    case RunStatus::unsupported:
      return "unsupported";
    case RunStatus::crash:
      return "crash";
    case RunStatus::timeout:
      return "timeout";
  }
  return "?";
}

ProgramSource Backend::program_source(const RunRequest& request) {
  (void)request;
  fail("{} runs no generated program", info().name);
}

}  // namespace retort
