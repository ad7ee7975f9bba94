// The graph pane: a graph laid out by Graphviz's dot engine, drawn with line characters. Nodes
// can be selected to show their attributes, inputs, outputs and (after `eval`) value summaries;
// the nodes a rewrite added are drawn with a double border.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/graph/graph.h"
#include "views/graph_layout.h"
#include "views/panes/pane.h"

namespace retort {

// One graph the pane can show.
struct GraphView {
  std::string label;                          // "current graph", "variant min", ...
  Graph graph;                                // inferred
  std::set<std::string> highlighted;          // node names drawn with a double border
  std::map<std::string, std::string> values;  // value name -> summary (after eval)
  std::string note;                           // one line under the title: why these highlights
};

// Graphs with more nodes than this are listed, not laid out (the layout would not be readable
// in a terminal, and dot takes long on them).
inline constexpr size_t kMaxLaidOutNodes = 400;

// How much a box says: full (name, op with attributes, output types), medium (name and op; an
// input's type), compact (one line) or tiny (one line, no border, ranks close together). The
// pane picks the fullest that fits.
inline constexpr int kDetailLevels = 4;

// The text of a graph's box, by DOT id (graph_dot's `node:`, `in:`, `const:`, `out:` ids).
std::vector<std::string> graph_box_text(const Graph& g, const std::string& dot_id, int detail = 0);
// The selected node's details: op and attributes, inputs and outputs with types, values.
std::vector<StyledLine> node_details(const GraphView& view, const std::string& dot_id);

class GraphPane : public Pane {
 public:
  const PaneSpec& spec() const override;
  std::string title() const override;
  // Shows what the last command made: the current graph when it changed, else a variant it
  // extracted, else its rewrites; otherwise the graph shown before (when it is still there).
  void refresh(const Session& s, TopicSet changed) override;
  void draw(Canvas& canvas) override;
  bool key(PaneKey key, int page_rows) override;
  std::vector<std::string> key_help() const override;

  // Replaces the graphs; shows the one at `show` (the selection is kept when the shown graph
  // still has the node).
  void set_views(std::vector<GraphView> views, size_t show);
  const GraphView* shown() const;
  const std::string& selected() const { return selected_; }
  // The layout at a detail level (0: full), computed when first asked for.
  const GraphLayout* layout(int detail = 0);
  // Graphviz's warnings from the layouts computed since the last call, once each.
  std::string take_messages() override {
    return warnings_.empty() ? "" : "graphviz: " + std::exchange(warnings_, {});
  }
  // Box-drawing characters (true) or ASCII.
  void set_unicode(bool unicode) { unicode_ = unicode; }

 private:
  void select_step(int delta);
  void draw_list(Canvas& canvas, int rows);

  std::vector<GraphView> views_;
  size_t show_ = 0;
  // What refresh saw last: the trace's length, whether there was an e-graph, the newest
  // variant; and the first trace step of the last command's rewrites (SIZE_MAX: none).
  size_t steps_seen_ = 0, rewrite_from_ = SIZE_MAX;
  bool had_egraph_ = false;
  std::string newest_seen_;
  void reset_layouts();
  // Picks the detail level: the fullest whose layout fits rows x cols, unless the user chose.
  int fitting_detail(int rows, int cols);

  std::array<std::optional<GraphLayout>, kDetailLevels> layouts_;  // of the shown graph
  int detail_ = -1;                                                // chosen with `d`; -1: automatic
  int drawn_detail_ = 0;
  std::string layout_error_;
  std::string warnings_;
  std::string selected_;  // DOT id
  CellPoint scroll_;
  // A graph taller than the pane is first shown from its outputs (where a comparison's
  // differences are), until the user scrolls: set when another graph or detail is shown.
  bool from_outputs_ = true;
  void show_from_outputs() {
    scroll_ = {};
    from_outputs_ = true;
  }
  bool keep_selected_ = false;  // scroll so the selected box is visible
  bool unicode_ = true;
};

}  // namespace retort
