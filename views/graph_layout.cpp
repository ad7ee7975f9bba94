#include "views/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "views/canvas.h"

namespace retort {

namespace {

// One character cell in Graphviz points: 0.1 inch wide and 0.2 inch tall, about the shape of
// a terminal cell, so the layout's proportions survive the conversion.
constexpr double kColPoints = 7.2;
constexpr double kRowPoints = 14.4;
constexpr double kPointsPerInch = 72.0;

struct CellF {
  double row = 0, col = 0;
};

// libgvc keeps global state; one context serves every layout and layouts run one at a time.
GVC_t* context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}
std::mutex& layout_mutex() {
  static std::mutex m;
  return m;
}

// Graphviz reports problems on stderr, which would scribble over the curses screen; they are
// collected here instead and become the Error's message, or the layout's warnings.
std::string& graphviz_messages() {
  static std::string messages;
  return messages;
}
int collect_message(char* text) {
  graphviz_messages() += text;
  return 0;
}

std::string collected_messages() {
  std::string m = graphviz_messages();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m;
}

std::string last_messages() {
  std::string m = collected_messages();
  return m.empty() ? "" : ": " + m;
}

// The operand number an edge label is ("1" -> 1, core/graph/graph_dot.cpp), or -1 for an edge
// into a node of one operand (no label).
int operand_of(std::string_view label) {
  if (label.empty() || label.size() > 2) return -1;
  int k = 0;
  for (char c : label) {
    if (c < '0' || c > '9') return -1;
    k = k * 10 + (c - '0');
  }
  return k;
}

std::vector<std::string> split_label(const std::string& label) {
  std::vector<std::string> lines;
  std::string line;
  for (size_t i = 0; i < label.size(); ++i) {
    if (label[i] == '\\' && i + 1 < label.size() &&
        std::string_view("nlr").find(label[i + 1]) != std::string_view::npos) {
      lines.push_back(line);
      line.clear();
      ++i;
    } else if (label[i] == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += label[i];
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// Points on a piecewise cubic Bezier (Graphviz's 3n+1 control points).
std::vector<pointf> sample_bezier(const pointf* p, int size) {
  std::vector<pointf> out;
  if (size <= 0) return out;
  out.push_back(p[0]);
  for (int i = 0; i + 3 < size; i += 3) {
    for (int k = 1; k <= 8; ++k) {
      double t = k / 8.0, u = 1 - t;
      pointf q;
      q.x = u * u * u * p[i].x + 3 * u * u * t * p[i + 1].x + 3 * u * t * t * p[i + 2].x +
            t * t * t * p[i + 3].x;
      q.y = u * u * u * p[i].y + 3 * u * u * t * p[i + 1].y + 3 * u * t * t * p[i + 2].y +
            t * t * t * p[i + 3].y;
      out.push_back(q);
    }
  }
  return out;
}

double distance_to_segment(CellF p, CellF a, CellF b) {
  double dr = b.row - a.row, dc = b.col - a.col;
  double len2 = dr * dr + dc * dc;
  double t =
      len2 == 0 ? 0 : std::clamp(((p.row - a.row) * dr + (p.col - a.col) * dc) / len2, 0.0, 1.0);
  double er = a.row + t * dr - p.row, ec = a.col + t * dc - p.col;
  return std::sqrt(er * er + ec * ec);
}

// Douglas-Peucker: the few corners that keep the polyline within `tolerance` cells.
void simplify(const std::vector<CellF>& pts, size_t first, size_t last, double tolerance,
              std::vector<CellF>& out) {
  double worst = 0;
  size_t at = first;
  for (size_t i = first + 1; i < last; ++i) {
    double d = distance_to_segment(pts[i], pts[first], pts[last]);
    if (d > worst) worst = d, at = i;
  }
  if (worst > tolerance) {
    simplify(pts, first, at, tolerance, out);
    simplify(pts, at, last, tolerance, out);
  } else {
    out.push_back(pts[last]);
  }
}

void push_corner(std::vector<CellPoint>& path, CellPoint p) {
  if (!path.empty() && path.back() == p) return;
  // Drop the middle one of three collinear corners.
  if (path.size() >= 2) {
    CellPoint a = path[path.size() - 2], b = path.back();
    if ((a.row == b.row && b.row == p.row) || (a.col == b.col && b.col == p.col)) path.pop_back();
  }
  path.push_back(p);
}

// Orthogonal corners through the given cells: a slanted stretch becomes a Z (down, across,
// down), which reads like the spline it stands for.
std::vector<CellPoint> orthogonal(const std::vector<CellPoint>& cells) {
  std::vector<CellPoint> path;
  for (size_t i = 0; i < cells.size(); ++i) {
    CellPoint q = cells[i];
    if (path.empty()) {
      path.push_back(q);
      continue;
    }
    CellPoint p = path.back();
    if (p.row != q.row && p.col != q.col) {
      if (std::abs(q.row - p.row) >= 2) {
        int mid = (p.row + q.row) / 2;
        push_corner(path, {mid, p.col});
        push_corner(path, {mid, q.col});
      } else {
        push_corner(path, {p.row, q.col});
      }
    }
    push_corner(path, q);
  }
  return path;
}

class GraphGuard {
 public:
  explicit GraphGuard(Agraph_t* g) : g_(g) {}
  ~GraphGuard() {
    if (laid_out_) gvFreeLayout(context(), g_);
    agclose(g_);
  }
  GraphGuard(const GraphGuard&) = delete;
  GraphGuard& operator=(const GraphGuard&) = delete;
  void laid_out() { laid_out_ = true; }

 private:
  Agraph_t* g_;
  bool laid_out_ = false;
};

}  // namespace

const LayoutBox* GraphLayout::find(const std::string& id) const {
  for (const auto& b : boxes)
    if (b.id == id) return &b;
  return nullptr;
}

GraphLayout layout_dot(const std::string& dot, const BoxText& text, const LayoutOptions& options) {
  std::lock_guard lock(layout_mutex());
  GVC_t* gvc = context();
  agseterrf(collect_message);
  graphviz_messages().clear();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) fail("graphviz could not read the DOT text{}", last_messages());
  GraphGuard guard(g);

  // Boxes of fixed size in cells; edge labels would only take room the terminal cannot show.
  std::string nodesep = std::to_string(options.node_gap_cols * kColPoints / kPointsPerInch);
  std::string ranksep = std::to_string(options.rank_gap_rows * kRowPoints / kPointsPerInch);
  agattr(g, AGRAPH, const_cast<char*>("nodesep"), nodesep.data());
  agattr(g, AGRAPH, const_cast<char*>("ranksep"), ranksep.data());
  agattr(g, AGRAPH, const_cast<char*>("splines"), const_cast<char*>("spline"));
  GraphLayout layout;
  std::map<Agedge_t*, int> operands;
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    LayoutBox box;
    box.id = agnameof(n);
    if (text) box.lines = text(box.id);
    if (box.lines.empty()) {
      const char* label = agget(n, const_cast<char*>("label"));
      box.lines = split_label(label ? label : box.id);
    }
    int width = 0;
    for (const auto& line : box.lines) width = std::max(width, text_cells(line));
    box.border = options.borders;
    if (!box.border && box.lines.size() > 1) box.lines.resize(1);
    box.width = width + 2;
    box.height = static_cast<int>(box.lines.size()) + (box.border ? 2 : 0);
    agsafeset(n, const_cast<char*>("shape"), const_cast<char*>("box"), const_cast<char*>(""));
    agsafeset(n, const_cast<char*>("fixedsize"), const_cast<char*>("true"), const_cast<char*>(""));
    agsafeset(n, const_cast<char*>("label"), const_cast<char*>(""), const_cast<char*>(""));
    std::string w = std::to_string(box.width * kColPoints / kPointsPerInch);
    std::string h = std::to_string(box.height * kRowPoints / kPointsPerInch);
    agsafeset(n, const_cast<char*>("width"), w.data(), const_cast<char*>(""));
    agsafeset(n, const_cast<char*>("height"), h.data(), const_cast<char*>(""));
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      const char* label = agget(e, const_cast<char*>("label"));
      operands[e] = operand_of(label ? label : "");
      agsafeset(e, const_cast<char*>("label"), const_cast<char*>(""), const_cast<char*>(""));
    }
    layout.boxes.push_back(std::move(box));
  }
  if (gvLayout(gvc, g, "dot") != 0) fail("graphviz could not lay out the graph{}", last_messages());
  guard.laid_out();
  layout.warnings = terminal_safe(collected_messages(), kWorkerMessageBytes);

  double top = GD_bb(g).UR.y;
  auto to_cell = [&](pointf p) { return CellF{(top - p.y) / kRowPoints, p.x / kColPoints}; };
  size_t i = 0;
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n), ++i) {
    LayoutBox& box = layout.boxes[i];
    CellF c = to_cell(ND_coord(n));
    box.row = static_cast<int>(std::lround(c.row - box.height / 2.0));
    box.col = static_cast<int>(std::lround(c.col - box.width / 2.0));
  }
  // Graphviz may place a box a fraction of a cell past the bounding box; start at cell 0.
  int min_row = 0, min_col = 0;
  for (const auto& b : layout.boxes)
    min_row = std::min(min_row, b.row), min_col = std::min(min_col, b.col);
  for (auto& b : layout.boxes) b.row -= min_row, b.col -= min_col;

  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      LayoutEdge edge{agnameof(agtail(e)), agnameof(aghead(e)), operands.at(e), {}};
      const LayoutBox* tail = layout.find(edge.from);
      const LayoutBox* head = layout.find(edge.to);
      if (!tail || !head || !ED_spl(e) || ED_spl(e)->size == 0) continue;
      const bezier& bz = ED_spl(e)->list[0];
      std::vector<CellF> samples;
      for (pointf p : sample_bezier(bz.list, bz.size)) {
        CellF c = to_cell(p);
        samples.push_back({c.row - min_row, c.col - min_col});
      }
      if (samples.size() < 2) continue;
      std::vector<CellF> corners{samples.front()};
      simplify(samples, 0, samples.size() - 1, 1.0, corners);
      std::vector<CellPoint> cells;
      for (const CellF& c : corners)
        cells.push_back(
            {static_cast<int>(std::lround(c.row)), static_cast<int>(std::lround(c.col))});
      // The ends sit just outside the boxes, inside their width, whatever the rounding did.
      bool down = head->row > tail->row;
      CellPoint& first = cells.front();
      first.col = std::clamp(first.col, tail->col + 1, tail->col + tail->width - 2);
      if (!tail->border) first.col = tail->col + tail->width / 2;
      first.row = down ? tail->row + tail->height : tail->row - 1;
      CellPoint& last = cells.back();
      last.col = std::clamp(last.col, head->col + 1, head->col + head->width - 2);
      last.row = down ? head->row - 1 : head->row + head->height;
      edge.points = orthogonal(cells);
      layout.edges.push_back(std::move(edge));
    }
  }
  for (const auto& b : layout.boxes) {
    layout.rows = std::max(layout.rows, b.row + b.height);
    layout.cols = std::max(layout.cols, b.col + b.width);
  }
  for (const auto& e : layout.edges) {
    for (const auto& p : e.points) {
      layout.rows = std::max(layout.rows, p.row + 1);
      layout.cols = std::max(layout.cols, p.col + 1);
    }
  }
  return layout;
}

CellPoint fit_to_pane(const GraphLayout& layout, int rows, int cols, CellPoint scroll,
                      const LayoutBox* keep) {
  auto axis = [](int extent, int pane, int want, int keep_from, int keep_size, bool has_keep) {
    if (extent <= pane) return -(pane - extent) / 2;
    if (has_keep) {
      if (keep_from < want) want = keep_from;
      if (keep_from + keep_size > want + pane) want = keep_from + keep_size - pane;
    }
    return std::clamp(want, 0, extent - pane);
  };
  return {axis(layout.rows, rows, scroll.row, keep ? keep->row : 0, keep ? keep->height : 0,
               keep != nullptr),
          axis(layout.cols, cols, scroll.col, keep ? keep->col : 0, keep ? keep->width : 0,
               keep != nullptr)};
}

}  // namespace retort
