// Runs a helper program to its end (npm, uv, a Python script) and hands its output, line by line,
// to the caller, for the installers of core/backend/family_env.h. Unlike a worker it speaks no
// protocol: its stdout and stderr are one stream.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace retort {

struct CommandResult {
  int exit_status = -1;  // -1 when it was killed (cancelled) or died of a signal
  std::string how{};     // "exited with status 1", "was killed by signal 9 (Killed)"
  std::string output{};  // everything it wrote (stdout and stderr interleaved)
};

struct CommandOptions {
  std::map<std::string, std::string>
      env{};  // added to (or replacing in) this process's environment
  std::function<void(const std::string& line)> on_line{};  // each output line as it comes
  const std::atomic<bool>* cancel = nullptr;               // when it turns true the child is killed
};

// Starts argv directly (argv[0] looked up on PATH), in its own process group, waits for it.
// Throws Error when it cannot be started, and when `cancel` stopped it ("interrupted").
CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options);

}  // namespace retort
