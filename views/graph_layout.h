// Graphviz's dot layout of a DOT text, in character cells: each node becomes a box sized for its
// text, each edge an orthogonal polyline through the layout's spline. The layout runs in process
// (libgvc); nothing here draws, so the geometry can be tested without a terminal.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace retort {

struct CellPoint {
  int row = 0, col = 0;
  bool operator==(const CellPoint&) const = default;
};

struct LayoutBox {
  std::string id;                  // the DOT node id (`node:add1`, `in:x`, ...)
  std::vector<std::string> lines;  // the text inside the border
  int row = 0, col = 0;            // top-left corner of the border
  int height = 0, width = 0;       // with the border
  bool border = true;              // false: one row of text between brackets
  bool contains(CellPoint p) const {
    return p.row >= row && p.row < row + height && p.col >= col && p.col < col + width;
  }
};

struct LayoutEdge {
  std::string from, to;           // DOT node ids
  int operand = -1;               // the head's operand it feeds ("0: " in its DOT label), or -1
  std::vector<CellPoint> points;  // corners of an orthogonal path, tail first; the last point is
                                  // the cell just outside the head's box (where the arrow goes)
};

struct GraphLayout {
  int rows = 0, cols = 0;  // the extent of everything
  std::vector<LayoutBox> boxes;
  std::vector<LayoutEdge> edges;
  std::string warnings;  // what Graphviz warned about on the way (terminal-safe and bounded)
  const LayoutBox* find(const std::string& id) const;
};

// The text of a node's box, by DOT id; an empty result falls back to the DOT label's lines.
using BoxText = std::function<std::vector<std::string>(const std::string& id)>;

struct LayoutOptions {
  bool borders = true;         // false: boxes are their text, one row, between brackets
  double rank_gap_rows = 2.5;  // Graphviz's ranksep, in rows
  double node_gap_cols = 3;    // nodesep, in columns
};

// Lays out `dot` with Graphviz's dot engine, boxes sized to their text (one column per
// character, one row per line, plus the border). Throws Error when the DOT text does not parse.
GraphLayout layout_dot(const std::string& dot, const BoxText& text = {},
                       const LayoutOptions& options = {});

// Where a layout is shown in a pane of rows x cols: the layout cell drawn at the pane's top-left
// corner. A layout smaller than the pane is centred (negative origin); a larger one is scrolled
// so that `keep` (when not null) is inside the pane, else clamped to the layout.
CellPoint fit_to_pane(const GraphLayout& layout, int rows, int cols, CellPoint scroll,
                      const LayoutBox* keep);

}  // namespace retort
