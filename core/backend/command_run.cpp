#include "core/backend/command_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/backend/worker_process.h"
#include "core/base/child_call.h"
#include "core/base/error.h"

extern char** environ;

namespace retort {

namespace {

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    std::string key = entry.substr(0, entry.find('='));
    if (!extra.count(key)) out.push_back(entry);
  }
  for (const auto& [k, v] : extra) out.push_back(k + "=" + v);
  return out;
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  if (argv.empty()) fail("the command line is empty");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) fail("cannot create a pipe: {}", std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawnattr_t attr;
  init_child_spawn_attrs(attr);
  std::vector<std::string> env = merged_environment(options.env);
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    fail("cannot start '{}': {}", argv[0], std::strerror(rc));
  }

  CommandResult result;
  std::string partial;
  auto emit = [&](bool all) {
    size_t nl;
    while ((nl = partial.find_first_of("\r\n")) != std::string::npos) {
      std::string line = partial.substr(0, nl);
      partial.erase(0, nl + 1);
      if (!line.empty() && options.on_line) options.on_line(line);
    }
    if (all && !partial.empty() && options.on_line) options.on_line(partial);
  };
  bool cancelled = false;
  char buffer[8192];
  for (;;) {
    if (options.cancel && options.cancel->load()) {
      kill(-pid, SIGKILL);
      cancelled = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, 100);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    ssize_t got = read(fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // every writer closed it: the command (and its children) ended
    result.output.append(buffer, static_cast<size_t>(got));
    partial.append(buffer, static_cast<size_t>(got));
    emit(false);
  }
  emit(true);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (cancelled) fail("interrupted");
  result.how = describe_wait_status(status);
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace retort
