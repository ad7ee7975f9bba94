#include "views/graph_layout.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/graph/graph_dot.h"
#include "core/io/rtg.h"
#include "views/graph_picture.h"
#include "views/panes/graph_pane.h"

namespace retort {
namespace {

const char* kChain = R"(digraph g {
  "in:x" [label="x\nf32[2]"];
  "node:a" [label="a\nneg"];
  "node:b" [label="b\nabs"];
  "in:x" -> "node:a";
  "node:a" -> "node:b";
})";

bool overlaps(const LayoutBox& a, const LayoutBox& b) {
  return a.row < b.row + b.height && b.row < a.row + a.height && a.col < b.col + b.width &&
         b.col < a.col + a.width;
}

TEST(GraphLayout, BoxesAreSizedForTheirTextAndStackedTopDown) {
  GraphLayout l = layout_dot(kChain);
  ASSERT_EQ(l.boxes.size(), 3u);
  const LayoutBox* x = l.find("in:x");
  const LayoutBox* a = l.find("node:a");
  const LayoutBox* b = l.find("node:b");
  ASSERT_TRUE(x && a && b);
  EXPECT_EQ(x->lines, (std::vector<std::string>{"x", "f32[2]"}));
  EXPECT_EQ(x->width, 8);  // "f32[2]" and the border
  EXPECT_EQ(x->height, 4);
  EXPECT_LT(x->row + x->height, a->row);
  EXPECT_LT(a->row + a->height, b->row);
  EXPECT_FALSE(overlaps(*x, *a));
  EXPECT_GE(l.rows, b->row + b->height);
}

TEST(GraphLayout, EdgesRunFromBelowTheTailToAboveTheHeadAtRightAngles) {
  GraphLayout l = layout_dot(kChain);
  ASSERT_EQ(l.edges.size(), 2u);
  for (const auto& e : l.edges) {
    const LayoutBox* tail = l.find(e.from);
    const LayoutBox* head = l.find(e.to);
    ASSERT_GE(e.points.size(), 2u);
    EXPECT_EQ(e.points.front().row, tail->row + tail->height);
    EXPECT_EQ(e.points.back().row, head->row - 1);
    EXPECT_GT(e.points.back().col, head->col);
    EXPECT_LT(e.points.back().col, head->col + head->width - 1);
    for (size_t i = 0; i + 1 < e.points.size(); ++i)
      EXPECT_TRUE(e.points[i].row == e.points[i + 1].row || e.points[i].col == e.points[i + 1].col);
  }
}

TEST(GraphLayout, BoxTextComesFromTheCallback) {
  GraphLayout l = layout_dot(kChain, [](const std::string& id) {
    return id == "node:a" ? std::vector<std::string>{"a", "neg", "f32[2]"}
                          : std::vector<std::string>{};
  });
  EXPECT_EQ(l.find("node:a")->height, 5);
  EXPECT_EQ(l.find("node:b")->lines, (std::vector<std::string>{"b", "abs"}));
}

TEST(GraphLayout, BadDotTextIsAnError) {
  EXPECT_THROW(layout_dot("digraph { a -> "), Error);
}

// Graphviz's warnings used to go to stderr, over the curses screen; the layout keeps them.
TEST(GraphLayout, KeepsGraphvizWarnings) {
  GraphLayout warned = layout_dot("digraph { a -> 1a }");
  EXPECT_NE(warned.warnings.find("badly delimited number '1a'"), std::string::npos)
      << warned.warnings;
  EXPECT_EQ(layout_dot(kChain).warnings, "");
}

TEST(GraphLayout, FitCentresSmallLayoutsAndScrollsLargeOnes) {
  GraphLayout l = layout_dot(kChain);
  CellPoint centred = fit_to_pane(l, l.rows + 10, l.cols + 6, {}, nullptr);
  EXPECT_EQ(centred.row, -5);
  EXPECT_EQ(centred.col, -3);
  // Too small: scrolling is clamped to the layout, and a kept box is brought into view.
  CellPoint clamped = fit_to_pane(l, 4, l.cols, {1000, 0}, nullptr);
  EXPECT_EQ(clamped.row, l.rows - 4);
  const LayoutBox* x = l.find("in:x");
  CellPoint kept = fit_to_pane(l, 4, l.cols, {1000, 0}, x);
  EXPECT_LE(kept.row, x->row);
}

TEST(GraphPicture, DrawsBoxesEdgesAndMarksHighlights) {
  GraphLayout l = layout_dot(kChain);
  Canvas canvas(l.rows, l.cols);
  PictureMarks marks;
  marks.highlighted.insert("node:b");
  draw_layout(canvas, l, {0, 0}, marks, Glyphs::ascii());
  std::string text = canvas.str();
  EXPECT_NE(text.find("f32[2]"), std::string::npos) << text;
  EXPECT_NE(text.find("neg"), std::string::npos) << text;
  const LayoutBox* b = l.find("node:b");
  EXPECT_EQ(canvas.at(b->row, b->col).ch, U'#');  // the double border's corner
  const LayoutBox* a = l.find("node:a");
  EXPECT_EQ(canvas.at(a->row, a->col).ch, U'+');
  EXPECT_EQ(canvas.at(a->row - 1, l.edges[0].points.back().col).ch, U'v') << text;
  EXPECT_EQ(canvas.at(b->row, b->col + 1).style, Style::Highlight);
}

TEST(GraphPane, BoxesShowNameOpAndTypeFromTheGraph) {
  Graph g =
      parse_rtg("graph t\ninput x : f32[2,3]\ny = transpose(x, perm=[1,0])\noutput y\n", "t.rtg");
  EXPECT_EQ(graph_box_text(g, "node:y"),
            (std::vector<std::string>{"y", "transpose(x) perm=[1,0]", "f32[3,2]"}));
  EXPECT_EQ(graph_box_text(g, "in:x"), (std::vector<std::string>{"x", "input f32[2,3]"}));
  GraphLayout l =
      layout_dot(graph_dot(g), [&g](const std::string& id) { return graph_box_text(g, id); });
  EXPECT_EQ(l.boxes.size(), 3u);  // input, node, output marker
}

// POLYJUICE Fig. 7's mul(s, a): the box names the operands in order and each edge into the mul
// ends in its operand's number, whichever side the layout put it on.
TEST(GraphPane, OperandOrderIsVisible) {
  Graph g = parse_rtg(
      "graph t\ninput a : u8[4]\ninput b : u8[4]\ns = add(b, b)\ny = mul(s, a)\noutput y\n",
      "t.rtg");
  EXPECT_EQ(graph_box_text(g, "node:y", 1), (std::vector<std::string>{"y", "mul(s, a)"}));
  GraphLayout l =
      layout_dot(graph_dot(g), [&g](const std::string& id) { return graph_box_text(g, id, 1); });
  Canvas canvas(l.rows, l.cols);
  draw_layout(canvas, l, {0, 0}, {}, Glyphs::ascii());
  int seen = 0;
  for (const auto& e : l.edges) {
    if (e.to != "node:y") continue;
    int want = e.from == "node:s" ? 0 : 1;
    EXPECT_EQ(e.operand, want) << e.from;
    CellPoint end = e.points.back();
    EXPECT_EQ(canvas.at(end.row, end.col).ch, static_cast<char32_t>(U'0' + want)) << canvas.str();
    ++seen;
  }
  EXPECT_EQ(seen, 2);
  // The output marker has one operand: an arrow head as before.
  for (const auto& e : l.edges) {
    if (e.to == "out:y") {
      EXPECT_EQ(e.operand, -1);
    }
  }
}

}  // namespace
}  // namespace retort
