#include "views/panes/graph_pane.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/graph/graph_dot.h"
#include "views/graph_picture.h"
#include "views/panes/panes.h"
#include "views/panes/session_text.h"

namespace retort {

namespace {

constexpr size_t kMaxOpLine = 28;

std::string type_of(const Graph& g, const std::string& value) {
  auto it = g.types.find(value);
  return it == g.types.end() ? "" : it->second.str();
}

std::string op_line(const Node& n) {
  std::string line = operand_call(n);
  for (const auto& [key, value] : n.attrs)
    line += fmt::format(" {}={}", key, attr_value_str(value));
  if (line.size() > kMaxOpLine) line = line.substr(0, kMaxOpLine - 3) + "...";
  return line;
}

std::string value_line(const GraphView& view, const std::string& value) {
  auto it = view.values.find(value);
  return it == view.values.end() ? "" : it->second;
}

// Boxes in reading order, for n/p.
std::vector<const LayoutBox*> reading_order(const GraphLayout& layout) {
  std::vector<const LayoutBox*> boxes;
  for (const auto& b : layout.boxes) boxes.push_back(&b);
  std::sort(boxes.begin(), boxes.end(), [](const LayoutBox* a, const LayoutBox* b) {
    return a->row != b->row ? a->row < b->row : a->col < b->col;
  });
  return boxes;
}

}  // namespace

std::vector<std::string> graph_box_text(const Graph& g, const std::string& dot_id, int detail) {
  auto colon = dot_id.find(':');
  if (colon == std::string::npos) return {dot_id};
  std::string kind = dot_id.substr(0, colon), name = dot_id.substr(colon + 1);
  if (kind == "node") {
    const Node* n = g.find_node(name);
    if (!n) return {name};
    std::string title = node_title(*n);
    if (detail >= 2) return {fmt::format("{} {}", title, operand_call(*n))};
    if (detail == 1) return {title, operand_call(*n)};
    std::vector<std::string> lines{title, op_line(*n)};
    for (const auto& out : n->outputs) lines.push_back(type_of(g, out));
    return lines;
  }
  if (detail >= 2 && (kind == "in" || kind == "const")) return {name};
  if (kind == "in") return {name, (detail == 0 ? "input " : "") + type_of(g, name)};
  if (kind == "const") return {name, (detail == 0 ? "const " : "") + type_of(g, name)};
  if (kind == "out") return {"output " + name};
  return {dot_id};
}

std::vector<StyledLine> node_details(const GraphView& view, const std::string& dot_id) {
  const Graph& g = view.graph;
  std::vector<StyledLine> lines;
  auto colon = dot_id.find(':');
  std::string kind = dot_id.substr(0, colon), name = dot_id.substr(colon + 1);
  auto consumers = [&](const std::string& value) {
    std::vector<std::string> users;
    for (const auto& n : g.nodes)
      if (std::find(n.inputs.begin(), n.inputs.end(), value) != n.inputs.end())
        users.push_back(node_title(n));
    if (std::find(g.outputs.begin(), g.outputs.end(), value) != g.outputs.end())
      users.push_back("(graph output)");
    return users.empty() ? std::string("-") : fmt::format("{}", fmt::join(users, ", "));
  };
  auto value_lines = [&](const std::string& value) {
    lines.push_back({fmt::format("  {} : {} -> {}", value, type_of(g, value), consumers(value))});
    if (std::string v = value_line(view, value); !v.empty())
      lines.push_back({"    = " + v, Style::Good});
  };
  if (kind == "node") {
    const Node* n = g.find_node(name);
    if (!n) return lines;
    std::string attrs;
    for (const auto& [key, value] : n->attrs)
      attrs += fmt::format(" {}={}", key, attr_value_str(value));
    lines.push_back(
        {fmt::format("{} = {}{}{}", node_title(*n), n->op, attrs.empty() ? "" : ":", attrs),
         view.highlighted.count(name) ? Style::Highlight : Style::Title});
    std::vector<std::string> ins;
    for (const auto& in : n->inputs)
      ins.push_back(in.empty() ? "(none)" : fmt::format("{} {}", in, type_of(g, in)));
    lines.push_back({fmt::format("inputs: {}", fmt::join(ins, ", "))});
    lines.push_back({"outputs:"});
    for (const auto& out : n->outputs) value_lines(out);
  } else if (kind == "in" || kind == "const") {
    lines.push_back(
        {fmt::format("{} ({})", name, kind == "in" ? "input" : "constant"), Style::Title});
    value_lines(name);
  } else if (kind == "out") {
    lines.push_back({fmt::format("graph output {}", name), Style::Title});
    if (std::string v = value_line(view, name); !v.empty())
      lines.push_back({"  = " + v, Style::Good});
  }
  if (view.values.empty()) lines.push_back({"(run `eval` to see values)", Style::Dim});
  return lines;
}

const PaneSpec& GraphPane::spec() const {
  static const PaneSpec spec{
      .name = "graph",
      .dock = Dock::Left,
      .topics = {Topic::Graph, Topic::EGraph, Topic::Variants, Topic::Values}};
  return spec;
}

void GraphPane::refresh(const Session& s, TopicSet changed) {
  enum class Pick { Keep, Current, Rewrite, NewestVariant } pick = Pick::Keep;
  size_t steps = s.has_egraph() ? s.egraph().trace.steps.size() : 0;
  if (!s.has_egraph() || !had_egraph_ || steps < steps_seen_) rewrite_from_ = SIZE_MAX;
  if (s.has_egraph() && had_egraph_ && steps > steps_seen_) {
    rewrite_from_ = steps_seen_;
    pick = Pick::Rewrite;
  }
  const std::string& newest = s.newest_variant();
  if (!newest.empty() && newest != newest_seen_) pick = Pick::NewestVariant;
  if (changed.has(Topic::Graph)) pick = Pick::Current;
  steps_seen_ = steps;
  had_egraph_ = s.has_egraph();
  newest_seen_ = newest;

  std::string shown_label = shown() ? shown()->label : "";
  std::vector<GraphView> views = graph_views(s, rewrite_from_);
  size_t show = 0;
  for (size_t i = 0; i < views.size(); ++i) {
    const std::string& label = views[i].label;
    if ((pick == Pick::Keep && label == shown_label) ||
        (pick == Pick::Rewrite && label.starts_with("rewrite")) ||
        (pick == Pick::NewestVariant && label == "variant " + newest))
      show = i;
  }
  set_views(std::move(views), show);
}

std::unique_ptr<Pane> make_graph_pane(bool unicode) {
  auto pane = std::make_unique<GraphPane>();
  pane->set_unicode(unicode);
  return pane;
}

std::string GraphPane::title() const {
  const GraphView* v = shown();
  if (!v) return "graph";
  std::string title = views_.size() > 1
                          ? fmt::format("graph: {} ({}/{})", v->label, show_ + 1, views_.size())
                          : fmt::format("graph: {}", v->label);
  static const char* const kDetailNames[kDetailLevels] = {"full", "medium", "compact", "tiny"};
  if (detail_ >= 0) title += fmt::format(" [{}]", kDetailNames[detail_]);
  return title;
}

const GraphView* GraphPane::shown() const {
  return show_ < views_.size() ? &views_[show_] : nullptr;
}

void GraphPane::set_views(std::vector<GraphView> views, size_t show) {
  std::string before = shown() ? shown()->label : "";
  views_ = std::move(views);
  show_ = views_.empty() ? 0 : std::min(show, views_.size() - 1);
  if (!shown() || shown()->label != before) show_from_outputs();
  reset_layouts();
}

void GraphPane::reset_layouts() {
  for (auto& l : layouts_) l.reset();
  layout_error_.clear();
}

const GraphLayout* GraphPane::layout(int detail) {
  const GraphView* v = shown();
  if (!v || v->graph.nodes.size() > kMaxLaidOutNodes || detail < 0 || detail >= kDetailLevels)
    return nullptr;
  auto& slot = layouts_[static_cast<size_t>(detail)];
  if (!slot && layout_error_.empty()) {
    try {
      GraphDotOptions options;
      options.show_attrs = false;
      const Graph& g = v->graph;
      LayoutOptions layout_options;
      if (detail == kDetailLevels - 1) {
        layout_options.borders = false;
        layout_options.rank_gap_rows = 2;
        layout_options.node_gap_cols = 2;
      }
      slot = layout_dot(
          graph_dot(g, options),
          [&g, detail](const std::string& id) { return graph_box_text(g, id, detail); },
          layout_options);
      if (!slot->warnings.empty()) warnings_ += slot->warnings + "\n";
      if (!selected_.empty() && !slot->find(selected_)) selected_.clear();
    } catch (const Error& e) {
      layout_error_ = e.what();
    }
  }
  return slot ? &*slot : nullptr;
}

int GraphPane::fitting_detail(int rows, int cols) {
  if (detail_ >= 0) return detail_;
  for (int d = 0; d < kDetailLevels; ++d) {
    const GraphLayout* l = layout(d);
    if (l && l->rows <= rows && l->cols <= cols) return d;
  }
  return kDetailLevels - 1;
}

void GraphPane::draw_list(Canvas& canvas, int rows) {
  const GraphView& v = views_[show_];
  int r = 0;
  canvas.text(r++, 0,
              fmt::format("{} nodes: too many to lay out; listed instead", v.graph.nodes.size()),
              Style::Dim);
  for (const auto& n : v.graph.nodes) {
    if (r >= rows) break;
    canvas.text(r++, 0, fmt::format("{} = {}", node_title(n), operand_call(n)),
                v.highlighted.count(n.name) ? Style::Highlight : Style::Plain);
  }
}

void GraphPane::draw(Canvas& canvas) {
  const GraphView* v = shown();
  if (!v) {
    canvas.text(0, 0, "no graph yet: `load FILE`, `def` or `gen`", Style::Dim);
    return;
  }
  int top = 0;
  if (!v->note.empty()) canvas.text(top++, 0, v->note, Style::Dim);
  std::vector<StyledLine> details;
  if (!selected_.empty()) details = node_details(*v, selected_);
  int detail_rows =
      std::min(static_cast<int>(details.size()), std::max(0, (canvas.rows() - top) / 3));
  int picture_rows = canvas.rows() - top - detail_rows;
  Canvas picture(picture_rows, canvas.cols());
  drawn_detail_ = fitting_detail(picture_rows, canvas.cols());
  if (const GraphLayout* l = layout(drawn_detail_)) {
    const LayoutBox* keep = keep_selected_ && !selected_.empty() ? l->find(selected_) : nullptr;
    if (from_outputs_ && !keep && !v->graph.outputs.empty())
      keep = l->find(dot_output_id(v->graph.outputs.front()));
    from_outputs_ = false;
    CellPoint origin = fit_to_pane(*l, picture_rows, canvas.cols(), scroll_, keep);
    if (l->rows > picture_rows || l->cols > canvas.cols())
      scroll_ = {std::max(0, origin.row), std::max(0, origin.col)};
    PictureMarks marks;
    for (const auto& name : v->highlighted) marks.highlighted.insert(dot_node_id(name));
    marks.selected = selected_;
    draw_layout(picture, *l, origin, marks, unicode_ ? Glyphs::unicode() : Glyphs::ascii());
  } else if (!layout_error_.empty()) {
    picture.text(0, 0, "layout failed: " + layout_error_, Style::Error);
  } else {
    draw_list(picture, picture_rows);
  }
  for (int r = 0; r < picture.rows(); ++r)
    for (int c = 0; c < picture.cols(); ++c)
      canvas.put(top + r, c, picture.at(r, c).ch, picture.at(r, c).style);
  for (int i = 0; i < detail_rows; ++i) {
    int row = top + picture_rows + i;
    if (i == 0)
      for (int c = 0; c < canvas.cols(); ++c) canvas.put(row, c, U' ', Style::Plain);
    canvas.text(row, 0, details[static_cast<size_t>(i)].text,
                details[static_cast<size_t>(i)].style);
  }
}

void GraphPane::select_step(int delta) {
  const GraphLayout* l = layout(drawn_detail_);
  if (!l || l->boxes.empty()) return;
  std::vector<const LayoutBox*> order = reading_order(*l);
  int at = -1;
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i]->id == selected_) at = static_cast<int>(i);
  int n = static_cast<int>(order.size());
  at = at < 0 ? (delta > 0 ? 0 : n - 1) : ((at + delta) % n + n) % n;
  selected_ = order[static_cast<size_t>(at)]->id;
  keep_selected_ = true;
}

bool GraphPane::key(PaneKey key, int page_rows) {
  int page = std::max(1, page_rows - 2);
  switch (key.kind) {
    case PaneKey::Up:
      scroll_.row -= 1;
      break;
    case PaneKey::Down:
      scroll_.row += 1;
      break;
    case PaneKey::Left:
      scroll_.col -= 4;
      break;
    case PaneKey::Right:
      scroll_.col += 4;
      break;
    case PaneKey::PageUp:
      scroll_.row -= page;
      break;
    case PaneKey::PageDown:
      scroll_.row += page;
      break;
    case PaneKey::Home:
      scroll_ = {};
      break;
    case PaneKey::End:
      scroll_.row = 1 << 20;
      break;
    case PaneKey::Char:
      if (key.ch == 'n' || key.ch == 'p') {
        select_step(key.ch == 'n' ? 1 : -1);
        return true;
      }
      if (key.ch == 'x') {
        selected_.clear();
        return true;
      }
      if ((key.ch == 'v' || key.ch == 'V') && !views_.empty()) {
        size_t n = views_.size();
        show_ = key.ch == 'v' ? (show_ + 1) % n : (show_ + n - 1) % n;
        reset_layouts();
        show_from_outputs();
        return true;
      }
      if (key.ch == 'd') {
        detail_ = detail_ + 1 >= kDetailLevels ? -1 : detail_ + 1;
        show_from_outputs();
        return true;
      }
      return false;
  }
  keep_selected_ = false;
  return true;
}

std::vector<std::string> GraphPane::key_help() const {
  return {"n/p                select the next/previous node (details below)",
          "x                  clear the selection",
          "v/V                show the next/previous graph (current, rewrite, variants)",
          "d                  box detail: auto (fullest that fits), full, medium, compact, tiny",
          "arrows PgUp/PgDn   scroll the picture",
          "Home/End           the top left (the inputs) / the bottom (the outputs)"};
}

}  // namespace retort
