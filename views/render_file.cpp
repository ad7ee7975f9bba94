#include "views/render_file.h"

#include <filesystem>
#include <string_view>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "core/base/child_call.h"
#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/io/file_io.h"

namespace retort {

namespace {

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

[[noreturn]] void graphviz_failed(const std::string& what, const std::string& path) {
  std::string detail = trimmed(g_messages);
  fail("graphviz could not {} {}{}", what, path, detail.empty() ? "" : ": " + detail);
}

// Runs in the child process of call_in_child: lays out and renders into memory. The context and
// graph are never freed; the child's exit frees them. The answer is Graphviz's warnings, a NUL
// (which no message holds: they are C strings) and the rendered bytes.
std::string render_graphviz(const std::string& dot, const std::string& format,
                            const std::string& path) {
  agseterrf(collect_message);
  agseterr(AGWARN);
  // The error count is process-wide and the fork inherits it: a layout the workbench's graph
  // pane failed earlier would fail every render after it.
  agreseterrors();
  GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g || agerrors() > 0) graphviz_failed("read the DOT text for", path);
  // A picture that places its own nodes says layout=nop2 (the compact e-graph picture); every
  // other one is laid out by dot.
  const char* layout = agget(g, const_cast<char*>("layout"));
  const char* engine = layout && std::string_view(layout) == "nop2" ? "nop2" : "dot";
  if (gvLayout(gvc, g, engine) != 0) graphviz_failed("lay out", path);
  char* data = nullptr;
  unsigned int size = 0;
  if (gvRenderData(gvc, g, format.c_str(), &data, &size) != 0 || !data)
    graphviz_failed("render", path);
  return trimmed(g_messages) + '\0' + std::string(data, size);
}

}  // namespace

std::string render_format(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".svg" || ext == ".png" || ext == ".dot") return ext.substr(1);
  fail("cannot render to '{}': the file name must end in .svg, .png or .dot", path);
}

std::string render_dot_file(std::string_view dot, const std::string& path, bool force) {
  std::string format = render_format(path);
  std::error_code ec;
  if (!force &&
      std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found)
    fail("'{}' exists; use --force to replace it", path);
  if (auto dir = std::filesystem::path(path).parent_path(); !dir.empty())
    std::filesystem::create_directories(dir, ec);
  std::string text(dot);
  // Graphviz runs in a child: dot 2.43 aborts on some large graphs, exits on write errors and
  // keeps memory after every render; none of that may reach the session.
  if (format == "dot") {
    write_file(path, text, force);
    return "";
  }
  std::string answer = call_in_child(fmt::format("graphviz (rendering {})", path),
                                     [&] { return render_graphviz(text, format, path); });
  size_t end = answer.find('\0');
  write_file(path, answer.substr(end + 1), force);
  return terminal_safe(std::string_view(answer).substr(0, end), kWorkerMessageBytes);
}

}  // namespace retort
