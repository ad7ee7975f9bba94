#include "core/base/child_call.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "core/base/error.h"

namespace retort {

namespace {

// The child's reply on the pipe: one status byte, then the result (kOk) or an error message.
constexpr char kOk = 'o';
constexpr char kFailed = 'e';

void send_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void reply(int fd, char status, const std::string& payload) {
  send_all(fd, &status, 1);
  send_all(fd, payload.data(), payload.size());
}

[[noreturn]] void run_child(const std::function<std::string()>& work, int fd) {
  // Libraries print warnings straight to stdout/stderr; they must not land on the curses screen.
  int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  if (std::getenv("RETORT_TEST_CHILD_CRASH")) std::abort();  // tests: a library crashing
  try {
    std::string result = work();
    reply(fd, kOk, result);
  } catch (const Error& e) {
    reply(fd, kFailed, e.message());
  } catch (const std::exception& e) {
    reply(fd, kFailed, e.what());
  } catch (...) {
    reply(fd, kFailed, "an unknown exception");
  }
  ::_exit(0);
}

std::string read_until_end(int fd) {
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  return data;
}

std::string how_it_ended(int status) {
  if (WIFSIGNALED(status)) return fmt::format("crashed ({})", ::strsignal(WTERMSIG(status)));
  return fmt::format("exited with status {}", WEXITSTATUS(status));
}

}  // namespace

std::string call_in_child(const std::string& what, const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail("cannot run {}: {}", what, std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    fail("cannot run {}: {}", what, std::strerror(err));
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(work, fds[1]);
  }
  ::close(fds[1]);
  std::string answer = read_until_end(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || answer.empty())
    fail("{} {}", what, how_it_ended(status));
  if (answer[0] != kOk) throw Error(answer.substr(1));
  return answer.substr(1);
}

}  // namespace retort
