#include "core/backend/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/base/child_call.h"
#include "core/base/terminal_text.h"

extern char** environ;

namespace retort {

namespace {

void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] { signal(SIGPIPE, SIG_IGN); });
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

int millis_until(Clock::time_point deadline) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > 1'000'000 ? 1'000'000 : static_cast<int>(left);
}

// Owns the fds of pipes until the spawn succeeded.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) fail("cannot create a pipe: {}", std::strerror(errno));
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    close_fd(read);
    close_fd(write);
  }
};

}  // namespace

WorkerProcess::WorkerProcess(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) fail("the worker command line is empty");
  ignore_sigpipe_once();
  Pipe in, out, err;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write, 2);
  posix_spawnattr_t attr;
  init_child_spawn_attrs(attr);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int rc = posix_spawnp(&pid_, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) fail("cannot start '{}': {}", argv[0], std::strerror(rc));

  std::swap(stdin_fd_, in.write);
  std::swap(stdout_fd_, out.read);
  std::swap(stderr_fd_, err.read);
  for (int fd : {stdin_fd_, stdout_fd_, stderr_fd_})
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

WorkerProcess::~WorkerProcess() {
  if (!reaped_) kill();
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
  close_fd(stderr_fd_);
}

void WorkerProcess::drain_stderr() {
  char buffer[4096];
  while (stderr_fd_ >= 0) {
    ssize_t n = read(stderr_fd_, buffer, sizeof buffer);
    if (n > 0) {
      stderr_tail_.append(buffer, static_cast<size_t>(n));
      if (stderr_tail_.size() > kStderrTailBytes)
        stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      if (n == 0) close_fd(stderr_fd_);  // every writer closed it
      return;
    }
  }
}

bool WorkerProcess::wait_ready(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd fds[2] = {{fd, events, 0}, {stderr_fd_, POLLIN, 0}};
    int count = stderr_fd_ >= 0 ? 2 : 1;
    int rc = poll(fds, count, millis_until(deadline));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) throw WorkerFailure(WorkerFailure::Kind::Closed, std::strerror(errno));
    if (count == 2 && fds[1].revents) drain_stderr();
    if (fds[0].revents) return true;
    if (rc == 0 || Clock::now() >= deadline) return false;
  }
}

void WorkerProcess::write_all(std::string_view bytes, Clock::time_point deadline) {
  size_t done = 0;
  while (done < bytes.size()) {
    if (stdin_fd_ < 0) throw WorkerFailure(WorkerFailure::Kind::Closed, "its stdin is closed");
    ssize_t n = write(stdin_fd_, bytes.data() + done, bytes.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      if (!wait_ready(stdin_fd_, POLLOUT, deadline))
        throw WorkerFailure(WorkerFailure::Kind::Timeout, "it stopped reading its requests");
    } else {
      throw WorkerFailure(WorkerFailure::Kind::Closed,
                          fmt::format("writing to it failed: {}", std::strerror(errno)));
    }
  }
}

void WorkerProcess::read_exact(char* dst, size_t n, Clock::time_point deadline) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = read(stdout_fd_, dst + done, n - done);
    if (got > 0) {
      done += static_cast<size_t>(got);
    } else if (got == 0) {
      throw WorkerFailure(WorkerFailure::Kind::Closed, "it closed its output");
    } else if (errno == EINTR) {
      continue;
    } else if (errno == EAGAIN) {
      if (!wait_ready(stdout_fd_, POLLIN, deadline))
        throw WorkerFailure(WorkerFailure::Kind::Timeout, "it did not answer in time");
    } else {
      throw WorkerFailure(WorkerFailure::Kind::Closed,
                          fmt::format("reading from it failed: {}", std::strerror(errno)));
    }
  }
}

void WorkerProcess::close_stdin() {
  close_fd(stdin_fd_);
}

bool WorkerProcess::try_reap(bool block) {
  if (reaped_) return true;
  int status = 0;
  pid_t rc;
  do {
    rc = waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (rc < 0 && errno == EINTR);
  if (rc == pid_) {
    reaped_ = true;
    exit_text_ = describe_wait_status(status);
  } else if (rc < 0) {
    reaped_ = true;  // not our child any more (reaped elsewhere); nothing left to wait for
    exit_text_ = fmt::format("ended with an unknown status ({})", std::strerror(errno));
  }
  return reaped_;
}

std::string WorkerProcess::wait_exit(Clock::time_point deadline) {
  while (!try_reap(false) && Clock::now() < deadline) {
    drain_stderr();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return reaped_ ? exit_text_ : kill();
}

std::string WorkerProcess::kill() {
  if (!reaped_) {
    killpg(pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // in case it left its process group
    try_reap(true);
  }
  drain_stderr();
  return exit_text_;
}

std::string WorkerProcess::stderr_tail() {
  drain_stderr();
  return terminal_safe(stderr_tail_, 2 * kStderrTailBytes);
}

void init_child_spawn_attrs(posix_spawnattr_t& attr) {
  posix_spawnattr_init(&attr);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setpgroup(&attr, 0);  // the terminal's Ctrl-C goes to Retort, which decides
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
}

}  // namespace retort
