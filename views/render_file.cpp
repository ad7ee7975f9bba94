#include "views/render_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "core/base/error.h"

namespace retort {

namespace {

// Graphviz reports errors through a process-wide callback; it collects them here for the one
// render running at a time (renders are serialised by g_render_lock).
std::string g_messages;
std::mutex g_render_lock;

extern "C" int collect_message(char* text) {
  g_messages += text;
  return 0;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// One Graphviz context for the life of the process: the text layout plugin keeps font data
// that a freed context would take with it, so a second context reads freed memory.
GVC_t* graphviz_context() {
  static GVC_t* context = gvContext();
  return context;
}

// Holds the graph and its layout; frees both in the right order.
class Layout {
 public:
  Layout(GVC_t* gvc, Agraph_t* g) : gvc_(gvc), g_(g) {}
  ~Layout() {
    if (laid_out_) gvFreeLayout(gvc_, g_);
    agclose(g_);
  }
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;
  bool run() { return laid_out_ = gvLayout(gvc_, g_, "dot") == 0; }
  Agraph_t* graph() const { return g_; }

 private:
  GVC_t* gvc_;
  Agraph_t* g_;
  bool laid_out_ = false;
};

[[noreturn]] void graphviz_failed(const std::string& what, const std::string& path) {
  std::string detail = trimmed(g_messages);
  fail("graphviz could not {} {}{}", what, path, detail.empty() ? "" : ": " + detail);
}

}  // namespace

std::string render_format(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".svg" || ext == ".png" || ext == ".dot") return ext.substr(1);
  fail("cannot render to '{}': the file name must end in .svg, .png or .dot", path);
}

void render_dot_file(std::string_view dot, const std::string& path, bool force) {
  std::string format = render_format(path);
  if (!force && std::filesystem::exists(path))
    fail("{} already exists; add --force to replace it", path);
  if (auto dir = std::filesystem::path(path).parent_path(); !dir.empty())
    std::filesystem::create_directories(dir);
  if (format == "dot") {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << dot;
    if (!file.flush()) fail("cannot write {}", path);
    return;
  }

  std::lock_guard<std::mutex> lock(g_render_lock);
  g_messages.clear();
  agusererrf previous = agseterrf(collect_message);
  agseterr(AGWARN);
  agreseterrors();
  struct RestoreErrf {
    agusererrf f;
    ~RestoreErrf() { agseterrf(f); }
  } restore{previous};

  GVC_t* gvc = graphviz_context();
  std::string text(dot);
  Agraph_t* g = agmemread(text.c_str());
  if (!g || agerrors() > 0) {
    if (g) agclose(g);
    graphviz_failed("read the DOT text for", path);
  }
  Layout layout(gvc, g);
  if (!layout.run()) graphviz_failed("lay out", path);
  if (gvRenderFilename(gvc, g, format.c_str(), path.c_str()) != 0) graphviz_failed("render", path);
}

}  // namespace retort
