#include "views/render_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "core/base/error.h"
#include "core/io/file_io.h"

namespace retort {

namespace {

// What the layout child sends back on its pipe: one status byte, then the picture's bytes
// (status 'o') or, for status 'e', the step that failed, a NUL, and Graphviz's messages.
constexpr char kOk = 'o';
constexpr char kFailed = 'e';

// Graphviz reports errors through a process-wide callback; the child collects them here.
std::string g_messages;

extern "C" int collect_message(char* text) {
  g_messages += text;
  return 0;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

void send_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);
    data += n;
    size -= static_cast<size_t>(n);
  }
}

[[noreturn]] void child_fails(int fd, const std::string& what) {
  std::string message = what + '\0' + trimmed(g_messages);
  send_all(fd, &kFailed, 1);
  send_all(fd, message.data(), message.size());
  ::_exit(0);
}

// Runs in the child: lays out and renders `dot`, writes the result to `fd`, and exits without
// returning (no destructors or atexit handlers of the parent's state run here).
[[noreturn]] void render_in_child(const std::string& dot, const std::string& format, int fd) {
  // Graphviz prints some warnings straight to stderr; they must not land on the curses screen.
  int null = ::open("/dev/null", O_WRONLY);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  if (std::getenv("RETORT_TEST_RENDER_CRASH")) std::abort();  // tests: a Graphviz crash
  agseterrf(collect_message);
  agseterr(AGWARN);
  GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g || agerrors() > 0) child_fails(fd, "read the DOT text for");
  if (gvLayout(gvc, g, "dot") != 0) child_fails(fd, "lay out");
  char* data = nullptr;
  unsigned int size = 0;
  if (gvRenderData(gvc, g, format.c_str(), &data, &size) != 0 || !data) child_fails(fd, "render");
  send_all(fd, &kOk, 1);
  send_all(fd, data, size);
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

std::string child_status(int status) {
  if (WIFSIGNALED(status)) return fmt::format("crashed ({})", ::strsignal(WTERMSIG(status)));
  return fmt::format("exited with status {}", WEXITSTATUS(status));
}

// Lays out and renders in a child process: a Graphviz crash, abort or exit() (dot 2.43 aborts on
// some large graphs and exits on write errors) then ends only the child, and the memory Graphviz
// keeps per render goes with it.
std::string render_in_memory(const std::string& dot, const std::string& format,
                             const std::string& path) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail("cannot render {}: {}", path, std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    fail("cannot render {}: {}", path, std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    render_in_child(dot, format, fds[1]);
  }
  ::close(fds[1]);
  std::string reply = read_until_end(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !reply.empty();
  if (!clean)
    fail("graphviz {} while rendering {}; nothing was written", child_status(status), path);
  if (reply[0] == kFailed) {
    size_t nul = reply.find('\0');
    std::string detail = nul == std::string::npos ? "" : reply.substr(nul + 1);
    fail("graphviz could not {} {}{}", reply.substr(1, nul - 1), path,
         detail.empty() ? "" : ": " + detail);
  }
  return reply.substr(1);
}

}  // namespace

std::string render_format(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".svg" || ext == ".png" || ext == ".dot") return ext.substr(1);
  fail("cannot render to '{}': the file name must end in .svg, .png or .dot", path);
}

void render_dot_file(std::string_view dot, const std::string& path, bool force) {
  std::string format = render_format(path);
  std::error_code ec;
  if (!force &&
      std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found)
    fail("'{}' exists; use --force to replace it", path);
  if (auto dir = std::filesystem::path(path).parent_path(); !dir.empty())
    std::filesystem::create_directories(dir, ec);
  std::string text(dot);
  write_file(path, format == "dot" ? text : render_in_memory(text, format, path), force);
}

}  // namespace retort
