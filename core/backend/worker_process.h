// A child process spoken to over pipes: its stdin and stdout carry the protocol, its stderr is
// drained into a bounded tail so that a chatty child never blocks. Every read and write has a
// deadline; nothing here waits forever on the child.
#pragma once

#include <spawn.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace retort {

using Clock = std::chrono::steady_clock;

// Why talking to the child stopped: it missed the deadline, or it closed its end (usually
// because it exited). Carries no exit status; WorkerProcess::wait_exit gives that.
class WorkerFailure : public Error {
 public:
  enum class Kind { Timeout, Closed };
  WorkerFailure(Kind kind, std::string message) : Error(std::move(message)), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

inline constexpr size_t kStderrTailBytes = 4096;

class WorkerProcess {
 public:
  // Starts argv[0] (looked up on PATH when it has no '/') directly, without a shell, in its own
  // process group (so that the terminal's Ctrl-C does not reach it). Throws Error when it
  // cannot be started (not found, not executable). Ignores SIGPIPE in this process, once, so
  // that writing to a dead child gives EPIPE instead of killing the workbench.
  explicit WorkerProcess(const std::vector<std::string>& argv);
  ~WorkerProcess();  // kills the child if it still runs and reaps it
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  pid_t pid() const { return pid_; }

  // Throw WorkerFailure on the deadline or when the child closed its end.
  void write_all(std::string_view bytes, Clock::time_point deadline);
  void read_exact(char* dst, size_t n, Clock::time_point deadline);

  // Closes the child's stdin (a polite "no more requests").
  void close_stdin();
  // Waits until the deadline for the child to exit, then kills it (SIGKILL); returns how it
  // ended: "exited with status 3", "was killed by signal 9 (Killed)". Idempotent.
  std::string wait_exit(Clock::time_point deadline);
  // SIGKILL now, then reap; returns the same text as wait_exit.
  std::string kill();
  bool exited() const { return reaped_; }
  // Reaps the child if it has exited (without waiting); true when it has.
  bool poll_exit() { return try_reap(false); }

  // The last kStderrTailBytes bytes the child wrote to stderr (read so far, plus whatever is
  // waiting in the pipe now), made safe to print (core/base/terminal_text.h).
  std::string stderr_tail();

 private:
  void drain_stderr();
  // Waits until `fd` is ready for `events` (draining stderr meanwhile); false on the deadline.
  bool wait_ready(int fd, short events, Clock::time_point deadline);
  bool try_reap(bool block);

  pid_t pid_ = -1;
  int stdin_fd_ = -1, stdout_fd_ = -1, stderr_fd_ = -1;
  std::string stderr_tail_;
  bool reaped_ = false;
  std::string exit_text_;
};

// Spawn attributes for a child program (a worker, an installer): SIGPIPE and SIGINT at their
// defaults, nothing blocked, and a process group of its own, so that the terminal's Ctrl-C
// reaches Retort, which decides what to stop. The caller destroys them.
void init_child_spawn_attrs(posix_spawnattr_t& attr);

}  // namespace retort
