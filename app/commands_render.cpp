// `render`: Graphviz pictures of the current graph, a variant, the e-graph or a diff, written
// to a file (views/render_file.h) and opened in $RETORT_VIEWER when one is set.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "app/command_args.h"
#include "app/commands.h"
#include "core/base/error.h"
#include "core/base/user_dirs.h"
#include "core/io/file_io.h"
#include "views/pictures.h"
#include "views/render_file.h"

namespace retort {

namespace {

// The folder pictures go to when no -o is given (docs/commands.md, `render`): never the current
// folder, which for a newcomer is the repository.
std::filesystem::path session_dir() {
  if (const char* dir = std::getenv("RETORT_SESSION_DIR"); dir && *dir) return dir;
  std::filesystem::path data = user_dir(UserDir::Data);
  return data.empty() ? "retort-pictures" : data / "pictures";
}

// "egraph-1.svg", "egraph-2.svg", ...: the first name not taken in the session folder.
std::string fresh_path(const std::string& stem) {
  std::filesystem::path dir = session_dir();
  for (size_t k = 1;; ++k) {
    std::filesystem::path p = dir / fmt::format("{}-{}.svg", file_name_part(stem), k);
    if (!std::filesystem::exists(p)) return p.string();
  }
}

// Starts the viewer on the file without a shell (the path is never parsed as shell text), in
// its own session, and does not wait for it: a double fork leaves no child behind.
void open_in_viewer(const std::string& viewer, const std::string& path) {
  pid_t child = fork();
  if (child < 0) fail("cannot start the viewer {}", viewer);
  if (child == 0) {
    setsid();
    if (fork() != 0) _exit(0);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, STDIN_FILENO);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    execlp(viewer.c_str(), viewer.c_str(), path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
}

// --around eN (or N), --depth D, --variants.
EGraphPictureOptions egraph_options(const Args& args) {
  EGraphPictureOptions o;
  o.variants_only = args.has("--variants");
  if (auto around = args.option("--around")) {
    std::string_view id = *around;
    if (id.starts_with('e')) id.remove_prefix(1);
    uint64_t n = parse_u64(id, "--around (an e-class such as e12)");
    if (n >= EClassId::kInvalid) fail("e{} is not an e-class of the e-graph", n);
    o.around = EClassId{static_cast<uint32_t>(n)};
  }
  if (auto depth = args.option("--depth")) {
    if (!o.around) fail("--depth goes with --around eN");
    o.depth = parse_u64(*depth, "--depth");
  }
  return o;
}

struct Picture {
  std::string dot;
  std::string stem;       // for a fresh file name
  std::string note = {};  // how the picture is simplified, for the user
};

Picture picture(const Session& s, const Args& args) {
  const std::string* what = args.arg(0);
  if ((!what || *what != "egraph") &&
      (args.option("--around") || args.option("--depth") || args.has("--variants")))
    fail("--around, --depth and --variants are for `render egraph`");
  if (!what || *what == "graph" || *what == "original") {
    if (args.arg(1)) fail("`render {}` takes no further argument", what ? *what : "graph");
    return {graph_picture(s.graph()), "graph"};
  }
  if (*what == "egraph") {
    if (args.arg(1)) fail("`render egraph` takes no further argument");
    Picture p{"", "egraph", ""};
    p.dot = egraph_picture(s, egraph_options(args), &p.note);
    return p;
  }
  if (*what == "rewrite") {
    if (args.arg(2)) fail("`render rewrite` takes one rewrite number at most");
    std::optional<size_t> number;
    if (const std::string* n = args.arg(1)) number = parse_number_from_1(*n, "rewrite");
    return {rewrite_picture(s, number ? std::optional<size_t>(*number - 1) : std::nullopt,
                            args.has("--full")),
            number ? fmt::format("rewrite-{}", *number) : "rewrite"};
  }
  if (*what == "diff") {
    if (!args.arg(1) || !args.arg(2) || args.arg(3))
      fail("`render diff` needs two graphs: original or variant names, e.g. `render diff min max`");
    return {diff_picture(s, *args.arg(1), *args.arg(2), args.has("--full")),
            fmt::format("diff-{}-{}", *args.arg(1), *args.arg(2))};
  }
  if (args.arg(1)) fail("`render {}` takes no further argument", *what);
  return {graph_picture(s.variant(*what)), *what};
}

void run_render(Session& s, const Args& args, Output& out) {
  Picture p = picture(s, args);
  auto file = args.option("-o");
  std::string path = file ? *file : fresh_path(p.stem);
  render_format(path);  // a bad extension fails before any work
  std::string warnings = render_dot_file(p.dot, path, args.has("--force"));
  out.print("wrote {}", path);
  if (!p.note.empty()) out.print("{}", p.note);
  if (!warnings.empty()) out.print("graphviz: {}", warnings);
  if (file) return;
  if (const char* viewer = std::getenv("RETORT_VIEWER"); viewer && *viewer)
    open_in_viewer(viewer, path);
}

}  // namespace

void register_render_commands(CommandRegistry& r) {
  r.add({.name = "render",
         .args = {{"WHAT",
                   Completion::VariantName,
                   true,
                   false,
                   {"graph", "original", "egraph", "diff", "rewrite"}},
                  {"A", Completion::VariantName, true},
                  {"B", Completion::VariantName, true}},
         .options = {{"-o", "FILE", "write to FILE (.svg, .png or .dot)", Completion::FilePath},
                     {"--force", "", "replace FILE if it exists"},
                     {"--around", "eN", "egraph: only the e-classes near class eN"},
                     {"--depth", "D", "egraph: with --around, classes up to D edges away (2)"},
                     {"--variants", "", "egraph: only the classes the extracted variants use"},
                     {"--full", "", "diff, rewrite: draw unchanged regions node by node"}},
         .summary = "Draw the graph, a variant, the e-graph, a rewrite or a diff with Graphviz.",
         .help =
             "`render` or `render graph` (also `render original`) draws the current graph;\n"
             "`render NAME` a variant; `render egraph` the e-graph, one dashed cluster per\n"
             "e-class, with the e-nodes each extracted variant chose filled in its colour (min\n"
             "green, max salmon; a legend names them); `--around eN [--depth D]` draws only\n"
             "the classes within D edges of eN (operands and users) and `--variants` only the\n"
             "classes the variants chose, each left-out operand as a dashed eN stub: a large\n"
             "e-graph is cut at 500 classes otherwise. Past 200 e-nodes the e-graph picture is\n"
             "compact, and a line says so: one box per class listing its e-nodes (the chosen\n"
             "ones marked `<- min`), placed in layers by Retort instead of a Graphviz layout\n"
             "search, so that it draws in well under a second; `render diff A B` draws A and B\n"
             "side by side (A and B are variant names or `original`) with removed, added and\n"
             "rewritten "
             "nodes coloured; three or more connected unchanged nodes with no changed neighbour\n"
             "are one dashed box (\"unchanged 1 (7 nodes)\" and their ops) unless --full; a\n"
             "node and its counterpart share a row and rewritten pairs are linked by a dashed\n"
             "line. `render rewrite [N]` draws rewrite #N (numbered from #1 as `apply` prints\n"
             "them; default: the last) the same way: the graph before it and after it, the\n"
             "rule in the title; operands it swapped (mul-comm) are coloured, their new\n"
             "position in large digits. Boxes name operands in order, mul(s, a), and edges into\n"
             "an op say which operand they are (small 0, 1). Arrows run operand to user in\n"
             "every picture, and each legend names the styles drawn. The\n"
             "format follows the extension of -o FILE: .svg, .png or .dot.\n"
             "Without -o the picture goes to $RETORT_SESSION_DIR (default\n"
             "${XDG_DATA_HOME:-~/.local/share}/retort/pictures/)\n"
             "under a fresh name such as egraph-1.svg, and is opened with $RETORT_VIEWER when\n"
             "that is set (run directly, without a shell). An existing file is never replaced\n"
             "unless --force is given.",
         .run = run_render,
         .restorable = false});
}

}  // namespace retort
