#include "core/egraph/render.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/egraph/extract.h"
#include "tests/core/egraph/fig6_egraph.h"

namespace retort {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(Render, ENodeAndTermText) {
  EGraph eg;
  EClassId a = eg.add_input("I1", {DType::f32, {2, 2}});
  EClassId b = eg.add_input("I2", {DType::f32, {2, 2}});
  EClassId t = eg.add(make_enode("transpose", {{"perm", std::vector<int64_t>{1, 0}}}, {b}));
  EClassId s = eg.add(make_enode("add", {}, {a, t}));
  EXPECT_EQ(term_str(eg, s), "(add I1 (transpose I2 perm=[1,0]))");
  EXPECT_EQ(enode_str(eg, eg.term(s)), fmt::format("(add e{} e{})", a.value, t.value));
  EXPECT_EQ(term_str(eg, s, 2), "(add I1 ...)");
}

TEST(Render, DotHasAClusterPerClassAndMarksTheSelection) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Extraction ex = extract(f.eg, f.meta, {});
  DotOptions opt;
  opt.highlights.push_back({&ex.selection, "palegreen", "min"});
  std::string dot = egraph_dot(f.eg, opt);
  EXPECT_EQ(dot.rfind("digraph egraph {", 0), 0u);
  EXPECT_EQ(count(dot, "subgraph cluster_e"), f.eg.class_count());
  // The chosen e-nodes and the legend's entry.
  EXPECT_EQ(count(dot, "fillcolor=\"palegreen\""), ex.selection.chosen.size() + 1);
  EXPECT_NE(dot.find("subgraph cluster_legend"), std::string::npos);
  EXPECT_NE(dot.find("label=\"transpose\\nperm=[1,0]\""), std::string::npos) << dot;
  opt.max_classes = 2;
  std::string cut = egraph_dot(f.eg, opt);
  EXPECT_EQ(count(cut, "subgraph cluster_e"), 2u);
  EXPECT_NE(cut.find("2 of"), std::string::npos);
}

// A chain I1 -> neg -> abs -> exp: around abs at depth 1 are neg, abs and exp; I1 is a stub.
TEST(Render, AroundAClassDrawsItsNeighbourhoodWithStubs) {
  EGraph eg;
  EClassId x = eg.add_input("I1", {DType::f32, {2}});
  EClassId n = eg.add(make_enode("neg", {}, {x}));
  EClassId a = eg.add(make_enode("abs", {}, {n}));
  EClassId e = eg.add(make_enode("exp", {}, {a}));
  EXPECT_EQ(classes_around(eg, a, 1), (std::set<EClassId>{n, a, e}));
  EXPECT_EQ(classes_around(eg, a, 0), (std::set<EClassId>{a}));
  EXPECT_EQ(classes_around(eg, a, 5), (std::set<EClassId>{x, n, a, e}));
  EXPECT_THROW(classes_around(eg, EClassId{99}, 1), Error);

  DotOptions opt;
  opt.only = classes_around(eg, a, 1);
  std::string dot = egraph_dot(eg, opt);
  EXPECT_EQ(count(dot, "subgraph cluster_e"), 3u);
  EXPECT_EQ(dot.find(fmt::format("cluster_e{} ", x.value)), std::string::npos) << dot;
  EXPECT_NE(dot.find(fmt::format("s{0} [shape=ellipse, style=dashed, label=\"e{0}\"]", x.value)),
            std::string::npos)
      << dot;
}

TEST(Render, VariantsOnlyDrawTheChosenClasses) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Extraction ex = extract(f.eg, f.meta, {});
  std::vector<DotHighlight> h{{&ex.selection, "palegreen", "min"}};
  std::set<EClassId> chosen = classes_chosen(f.eg, h);
  EXPECT_EQ(chosen.size(), ex.selection.chosen.size());
  EXPECT_LT(chosen.size(), f.eg.class_count());
  DotOptions opt;
  opt.highlights = h;
  opt.only = chosen;
  EXPECT_EQ(count(egraph_dot(f.eg, opt), "subgraph cluster_e"), chosen.size());
}

TEST(Render, DotStripesENodesChosenByTwoHighlights) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Extraction min = extract(f.eg, f.meta, {});
  ExtractOptions max_options;
  max_options.mode = ExtractMode::Max;
  Extraction max = extract(f.eg, f.meta, max_options);
  DotOptions opt;
  opt.highlights = {{&min.selection, "palegreen", "min"}, {&max.selection, "lightsalmon", "max"}};
  std::string dot = egraph_dot(f.eg, opt);
  // The inputs are in both choices.
  EXPECT_NE(dot.find("style=\"striped\", fillcolor=\"palegreen:lightsalmon\""), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("legend_1 [label=\"chosen by max\""), std::string::npos);
  // The legend explains the stripes with a striped entry of its own.
  EXPECT_NE(dot.find("legend_striped [label=\"striped: chosen by each\\nvariant whose colour it "
                     "shows\", style=striped, fillcolor=\"palegreen:lightsalmon\", fontsize=10]"),
            std::string::npos)
      << dot;
  opt.highlights.pop_back();
  EXPECT_EQ(egraph_dot(f.eg, opt).find("legend_striped"), std::string::npos);
}

// Arrows run in dataflow direction, as in the graph pictures: from an operand's class to the
// e-node that reads it (operands above their users), never user -> operand; the legend says what
// the dashed boxes, the left-out classes and the edge labels are.
TEST(Render, ArrowsRunFromOperandToUserAndTheLegendExplainsEveryStyle) {
  EGraph eg;
  EClassId x = eg.add_input("I1", {DType::f32, {2}});
  EClassId y = eg.add_input("I2", {DType::f32, {2}});
  EClassId s = eg.add(make_enode("add", {}, {x, y}));
  EClassId n = eg.add(make_enode("neg", {}, {s}));
  std::string dot = egraph_dot(eg);
  EXPECT_NE(dot.find(fmt::format("n{}_0 -> n{}_0 [ltail=cluster_e{}, label=\"0\"]", x.value,
                                 s.value, x.value)),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find(fmt::format("n{}_0 -> n{}_0 [ltail=cluster_e{}];", s.value, n.value, s.value)),
            std::string::npos)
      << dot;
  EXPECT_EQ(dot.find(fmt::format("n{}_0 -> n{}_0", s.value, x.value)), std::string::npos) << dot;
  EXPECT_EQ(dot.find("lhead="), std::string::npos) << dot;
  EXPECT_NE(dot.find("edge [fontname=\"sans-serif\", fontsize=8]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("legend_class [label=\"dashed box: an e-class"), std::string::npos) << dot;
  EXPECT_NE(dot.find("legend_edge [label=\"arrows: operand -> user"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("legend_stub"), std::string::npos) << dot;

  DotOptions around;
  around.only = classes_around(eg, n, 1);
  std::string part = egraph_dot(eg, around);
  EXPECT_NE(part.find(fmt::format("s{} -> n{}_0 [style=dashed, label=\"0\"]", x.value, s.value)),
            std::string::npos)
      << part;
  EXPECT_NE(part.find("legend_stub [label=\"eN: a class not drawn\""), std::string::npos) << part;

  // The compact picture too: edges operand -> user, and operands placed above their users.
  DotOptions compact;
  compact.max_detailed_enodes = 0;
  std::string boxes = egraph_dot(eg, compact);
  EXPECT_NE(boxes.find(fmt::format("c{} -> c{};", x.value, s.value)), std::string::npos) << boxes;
  EXPECT_EQ(boxes.find(fmt::format("c{} -> c{};", s.value, x.value)), std::string::npos) << boxes;
  auto y_of = [&](EClassId c) {
    size_t at = boxes.find(",", boxes.find("pos=\"", boxes.find(fmt::format("  c{} [", c.value))));
    return std::stod(boxes.substr(at + 1));
  };
  EXPECT_GT(y_of(x), y_of(s)) << boxes;
  EXPECT_GT(y_of(s), y_of(n)) << boxes;
  EXPECT_NE(boxes.find("legend_class [label=\"e3 : type"), std::string::npos) << boxes;
}

// Past max_detailed_enodes: one box per class listing its e-nodes, no clusters, a note for the
// user; the picture below the limit has none.
TEST(Render, LargePicturesAreCompactAndSaySo) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Extraction min = extract(f.eg, f.meta, {});
  DotOptions opt;
  opt.highlights = {{&min.selection, "palegreen", "min"}};
  std::string note = "stale";
  std::string detailed = egraph_dot(f.eg, opt, &note);
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_EQ(count(detailed, "subgraph cluster_e"), f.eg.class_count());

  opt.max_detailed_enodes = f.eg.node_count() - 1;
  std::string compact = egraph_dot(f.eg, opt, &note);
  EXPECT_EQ(count(compact, "subgraph cluster_e"), 0u);
  EXPECT_EQ(count(compact, "\\l\""), f.eg.class_count()) << compact;
  EXPECT_NE(note.find(fmt::format("{} e-nodes: drawn compact", f.eg.node_count())),
            std::string::npos)
      << note;
  // Every e-node is a line of its class's box; the chosen ones name the highlight and fill it.
  for (EClassId c : f.eg.class_ids())
    for (const ENode& n : f.eg.eclass(c).nodes)
      EXPECT_NE(compact.find(enode_str(f.eg, n)), std::string::npos) << enode_str(f.eg, n);
  EXPECT_NE(compact.find("  <- min"), std::string::npos);
  EXPECT_EQ(count(compact, "fillcolor=\"palegreen\""), min.selection.chosen.size() + 1);

  // Cut and compact: the note says both (the limit counts the e-nodes of the classes drawn).
  opt.max_classes = 2;
  opt.max_detailed_enodes = 0;
  egraph_dot(f.eg, opt, &note);
  EXPECT_NE(note.find(fmt::format("; 2 of {} e-classes shown", f.eg.class_count())),
            std::string::npos)
      << note;
}

}  // namespace
}  // namespace retort
