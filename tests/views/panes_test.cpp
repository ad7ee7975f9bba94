#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/graph/graph_diff.h"
#include "core/io/rtg.h"
#include "core/session/session.h"
#include "views/log_buffer.h"
#include "views/panes/graph_pane.h"
#include "views/panes/pane.h"
#include "views/panes/panes.h"
#include "views/panes/session_text.h"
#include "views/pictures.h"
#include "views/workbench.h"

#include "tests/support/fig6.h"

namespace retort {
namespace {

bool contains(const std::vector<StyledLine>& lines, const std::string& part) {
  for (const auto& l : lines)
    if (l.text.find(part) != std::string::npos) return true;
  return false;
}

// A text pane with lines set by hand, for the scrolling tests.
class ScrollPane : public TextPane {
 public:
  const PaneSpec& spec() const override {
    static const PaneSpec spec{.name = "t"};
    return spec;
  }
  void refresh(const Session&, TopicSet) override {}
};

TEST(TextPane, ScrollsAndMarksMoreBelow) {
  ScrollPane pane;
  pane.set_lines({{"one"}, {"two"}, {"three"}, {"four"}});
  Canvas c(2, 10);
  pane.draw(c);
  EXPECT_EQ(c.row_text(0), "one");
  EXPECT_EQ(c.at(1, 9).ch, U'+');
  pane.key({PaneKey::PageDown, 0}, 3);
  Canvas d(2, 10);
  pane.draw(d);
  EXPECT_EQ(d.row_text(0), "three");
  EXPECT_EQ(d.row_text(1), "four");
}

// A table's header stays on top while its rows scroll under it (the variants and results panes).
TEST(TextPane, HeaderLinesStayOnTopWhileTheRestScrolls) {
  class HeaderPane : public ScrollPane {
   public:
    const PaneSpec& spec() const override {
      static const PaneSpec spec{.name = "t", .header_lines = 1};
      return spec;
    }
  };
  HeaderPane pane;
  pane.set_lines({{"name ops"}, {"a 1"}, {"b 2"}, {"c 3"}});
  pane.key({PaneKey::End, 0}, 2);
  Canvas c(2, 10);
  pane.draw(c);
  EXPECT_EQ(c.row_text(0), "name ops");
  EXPECT_EQ(c.row_text(1), "c 3");
}

TEST(TextPane, FollowsTheTailUntilScrolledUp) {
  ScrollPane pane;
  pane.set_follow_tail(true);
  Canvas c(2, 10);
  pane.set_lines({{"a"}, {"b"}, {"c"}});
  pane.draw(c);
  EXPECT_EQ(c.row_text(1), "c");
  pane.set_lines({{"a"}, {"b"}, {"c"}, {"d"}});
  Canvas d(2, 10);
  pane.draw(d);
  EXPECT_EQ(d.row_text(1), "d");
  pane.key({PaneKey::Home, 0}, 2);
  pane.set_lines({{"a"}, {"b"}, {"c"}, {"d"}, {"e"}});
  Canvas e(2, 10);
  pane.draw(e);
  EXPECT_EQ(e.row_text(0), "a");
}

std::vector<StyledLine> numbered_lines(int n) {
  std::vector<StyledLine> lines;
  for (int i = 1; i <= n; ++i) lines.push_back({std::to_string(i)});
  return lines;
}

// Following used to be guessed from where the view stood: a zoom (a taller pane) and back, or a
// log line arriving while the pane was smaller, left it behind the tail for good.
TEST(TextPane, KeepsFollowingAfterZoomAndSidewaysScroll) {
  ScrollPane pane;
  pane.set_follow_tail(true);
  pane.set_lines(numbered_lines(40));
  Canvas small(5, 10);
  pane.draw(small);
  Canvas zoomed(30, 10);
  pane.draw(zoomed);
  EXPECT_EQ(zoomed.row_text(29), "40");
  Canvas back(5, 10);
  pane.draw(back);
  EXPECT_EQ(back.row_text(4), "40");
  pane.set_lines(numbered_lines(41));
  Canvas grown(5, 10);
  pane.draw(grown);
  EXPECT_EQ(grown.row_text(4), "41");
  pane.key({PaneKey::Right, 0}, 5);
  pane.key({PaneKey::Left, 0}, 5);
  pane.set_lines(numbered_lines(42));
  Canvas after_sideways(5, 10);
  pane.draw(after_sideways);
  EXPECT_EQ(after_sideways.row_text(4), "42");
  pane.key({PaneKey::Up, 0}, 5);
  pane.set_lines(numbered_lines(43));
  Canvas scrolled_up(5, 10);
  pane.draw(scrolled_up);
  EXPECT_EQ(scrolled_up.row_text(4), "41       +");  // more below
  pane.key({PaneKey::End, 0}, 5);
  pane.set_lines(numbered_lines(44));
  Canvas at_end(5, 10);
  pane.draw(at_end);
  EXPECT_EQ(at_end.row_text(4), "44");
}

// The log wraps long lines at the pane's width and follows its last row; `w` switches to
// sideways scrolling and back, and the help overlay says so.
TEST(TextPane, WrapsLongLinesAndWSwitchesToSidewaysScrolling) {
  ScrollPane pane;
  pane.set_follow_tail(true);
  pane.set_wrap(true);
  pane.set_lines({{"first"}, {"unknown option --backend; did you mean --backends?"}});
  Canvas c(3, 20);
  pane.draw(c);
  EXPECT_EQ(c.row_text(0), "unknown option --bac");
  EXPECT_EQ(c.row_text(1), "kend; did you mean -");
  EXPECT_EQ(c.row_text(2), "-backends?");
  EXPECT_NE(fmt::format("{}", fmt::join(pane.key_help(), "\n")).find("w "), std::string::npos);
  EXPECT_TRUE(pane.key({PaneKey::Char, 'w'}, 3));
  Canvas d(3, 20);
  pane.draw(d);
  EXPECT_EQ(d.row_text(0), "first");
  EXPECT_EQ(d.row_text(1), "unknown option --bac");
  pane.key({PaneKey::Right, 0}, 3);
  Canvas e(3, 20);
  pane.draw(e);
  EXPECT_EQ(e.row_text(1), "option --backend; di");
  // Panes that do not wrap leave `w` to others.
  ScrollPane plain;
  EXPECT_FALSE(plain.key({PaneKey::Char, 'w'}, 3));
}

TEST(LogBuffer, SplitsLinesAndKeepsTheirStyle) {
  LogBuffer log;
  log.append("ok\nerr", Style::Plain);
  log.append("or\n", Style::Error);
  auto lines = log.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "ok");
  EXPECT_EQ(lines[1].text, "error");
  EXPECT_EQ(lines[1].style, Style::Plain);  // a line keeps the style it started with
}

TEST(GraphDiff, NewNodesAreFoundByStructureNotName) {
  Graph base = testing::fig6_graph();
  Graph renamed = parse_rtg(
      "graph g\ninput I1 : f32[3,4]\ninput I2 : f32[4,3]\ninput I3 : f32[4,3]\n"
      "p = transpose(I2, perm=[1,0])\nq = add(I1, p)\ns = add(I2, I3)\n"
      "u = transpose(s, perm=[1,0])\nout = add(q, u)\noutput out\n",
      "g.rtg");
  EXPECT_EQ(new_nodes(diff_graphs(base, renamed)), (std::set<std::string>{"s", "u", "out"}));
  EXPECT_TRUE(new_nodes(diff_graphs(base, base)).empty());
}

TEST(SessionText, EmptySessionSaysWhatToDo) {
  Session s;
  EXPECT_TRUE(contains(egraph_text(s), "run `egraph`"));
  EXPECT_TRUE(contains(variants_text(s), "no graph yet"));
  EXPECT_TRUE(contains(results_text(s), "no comparisons yet"));
  EXPECT_TRUE(graph_views(s, SIZE_MAX).empty());
}

// Compile and run milliseconds, as workers measure them, get a table of their own; a report
// without them (ref only) shows none.
TEST(SessionText, ResultsShowCompileAndRunTimes) {
  Session s;
  CompareReport r;
  r.backends = {"ref", "ort:O3"};
  r.graphs = {"original"};
  r.cells.resize(2);
  s.set_compare_report(r);
  EXPECT_FALSE(contains(results_text(s), "compile+run"));
  r.cells[1].compile_ms = 12.5;
  r.cells[1].run_ms = 0.25;
  s.set_compare_report(r);
  std::vector<StyledLine> lines = results_text(s);
  EXPECT_TRUE(contains(lines, "milliseconds, compile+run"));
  EXPECT_TRUE(contains(lines, "ort:O3    12.5+0.25"));
  EXPECT_TRUE(contains(lines, "ref       -"));
  // A long compile is a whole number of milliseconds, not 2.117e+04.
  r.cells[1].compile_ms = 21170.3;
  r.cells[1].run_ms = 0.187;
  s.set_compare_report(r);
  EXPECT_TRUE(contains(results_text(s), "ort:O3    21170+0.19"));
}

// A verdict longer than its graph's name widens the column: verdicts never shift under the
// next graph.
TEST(SessionText, ResultColumnsFitTheirLongestVerdict) {
  Session s;
  CompareReport r;
  r.backends = {"ref", "ort:O3"};
  r.graphs = {"original", "max"};
  r.cells.resize(4);
  r.cells[1].verdict = Verdict::ShapeDtypeMismatch;
  s.set_compare_report(r);
  std::vector<StyledLine> lines = results_text(s);
  size_t header = lines[0].text.find("max");
  size_t second = lines[2].text.find("pass", lines[2].text.find("pass") + 4);
  EXPECT_EQ(header, second) << lines[0].text << "\n" << lines[2].text;
}

TEST(SessionText, EGraphAndVariantsAfterSaturation) {
  Session s;
  s.set_graph(testing::fig6_graph());
  s.build_egraph();
  RunnerOptions options;
  options.iter_limit = 3;
  s.run_rules(options, "saturate");
  s.extract_variant({}, "", "extract min");
  std::vector<StyledLine> eg = egraph_text(s);
  const EGraphWork& w = s.egraph();
  EXPECT_EQ(eg[0].text, fmt::format("{} e-classes, {} e-nodes, {} rewrites", w.eg.class_count(),
                                    w.eg.node_count(), w.trace.steps.size()));
  EXPECT_TRUE(contains(eg, "iter  steps"));
  EXPECT_TRUE(contains(eg, "(transpose"));
  std::vector<StyledLine> v = variants_text(s);
  ASSERT_GE(v.size(), 3u);
  EXPECT_NE(v[1].text.find("(original)"), std::string::npos);
  EXPECT_EQ(v[2].text.substr(0, 3), "min");
  std::vector<GraphView> views = graph_views(s, 0);
  ASSERT_EQ(views.size(), 3u);  // current, the rewrites, variant min
  EXPECT_EQ(views[0].label, "current graph");
  EXPECT_EQ(views[1].label.substr(0, 8), "rewrites");
  EXPECT_FALSE(views[1].highlighted.empty());
  EXPECT_EQ(views[2].label, "variant min");
}

// split-of-concat's left side is a bare ?x: it matches every value of rank >= 1, so it has
// matches on fig6, which has neither split nor concat. The pane marks the row and says why.
TEST(SessionText, EGraphPaneExplainsMatchesOfRulesWhoseOpsTheGraphLacks) {
  Session s;
  s.set_graph(testing::fig6_graph());
  s.build_egraph();
  std::vector<StyledLine> eg = egraph_text(s);
  auto row = std::find_if(eg.begin(), eg.end(), [](const StyledLine& l) {
    return l.text.starts_with("split-of-concat ");
  });
  ASSERT_NE(row, eg.end());
  EXPECT_TRUE(row->text.ends_with(" *")) << row->text;
  EXPECT_TRUE(contains(eg,
                       "* split-of-concat matches any value (left side ?x); it brings in "
                       "concat, split"));
  EXPECT_TRUE(contains(eg, "* concat-of-split matches any value"));
  // A rule with an op on its left side gets no mark.
  EXPECT_FALSE(contains(eg, "* add-comm"));
  auto add_comm = std::find_if(eg.begin(), eg.end(),
                               [](const StyledLine& l) { return l.text.starts_with("add-comm "); });
  ASSERT_NE(add_comm, eg.end());
  EXPECT_FALSE(add_comm->text.ends_with("*")) << add_comm->text;
}

TEST(SessionText, RewriteViewShowsTheAppliedRightHandSide) {
  Session s;
  s.set_graph(testing::fig6_graph());
  s.build_egraph();
  std::string rule;
  for (size_t i = 0; i < s.rules().all().rules.size() && rule.empty(); ++i) {
    const Rule& r = s.rules().all().rules[i];
    if (s.rules().enabled(i) && !s.find_matches(r).empty() &&
        s.apply(r.name, 1, "apply").outcome == ApplyOutcome::Applied)
      rule = r.name;
  }
  ASSERT_FALSE(rule.empty());
  auto view = rewrite_view(s, 0);
  ASSERT_TRUE(view.has_value());
  EXPECT_FALSE(view->highlighted.empty()) << rule;
  for (const auto& name : view->highlighted) EXPECT_NE(view->graph.find_node(name), nullptr);
  EXPECT_FALSE(rewrite_view(s, 1).has_value());
}

// `render rewrite`: POLYJUICE Fig. 7's mul(a, s) before and mul(s, a) after mul-comm, the rule
// in the title and the rewritten pair linked.
TEST(Pictures, RewritePictureDrawsOneStepBeforeAndAfter) {
  Session s;
  EXPECT_THROW(rewrite_picture(s, std::nullopt), Error);  // no e-graph
  s.set_graph(
      parse_rtg("graph g\ninput a : u8[4]\ninput b : u8[4]\ninput c : u8[4]\ns = add(b, c)\n"
                "y = mul(a, s)\noutput y\n",
                "fig7.rtg"));
  s.build_egraph();
  EXPECT_THROW(rewrite_picture(s, std::nullopt), Error);  // no rewrite yet
  ASSERT_EQ(s.apply("mul-comm", 1, "apply").outcome, ApplyOutcome::Applied);
  RewriteStepGraphs g = rewrite_step_graphs(s, 0);
  EXPECT_EQ(g.rule, "mul-comm");
  ASSERT_NE(g.before.producer("y"), nullptr);
  EXPECT_EQ(g.before.producer("y")->inputs, (std::vector<std::string>{"a", "s"}));
  EXPECT_EQ(g.after.producer("y")->inputs, (std::vector<std::string>{"s", "a"}));
  std::string dot = rewrite_picture(s, std::nullopt, true);
  EXPECT_NE(dot.find("rewrite #1: mul-comm"), std::string::npos) << dot;
  EXPECT_NE(dot.find("mul(a, s)"), std::string::npos) << dot;
  EXPECT_NE(dot.find("mul(s, a)"), std::string::npos) << dot;
  EXPECT_NE(dot.find("style=dashed, color=\"goldenrod\""), std::string::npos) << dot;
  EXPECT_THROW(rewrite_picture(s, 1), Error);
}

TEST(GraphPane, NodeDetailsListInputsOutputsAndValues) {
  GraphView view{"g", testing::fig6_graph(), {"a"}, {{"a", "f32[3,4] min=0"}}, ""};
  std::vector<StyledLine> lines = node_details(view, "node:a");
  EXPECT_EQ(lines[0].text, "a = add");
  EXPECT_EQ(lines[0].style, Style::Highlight);
  EXPECT_EQ(lines[1].text, "inputs: I1 f32[3,4], t2 f32[3,4]");
  EXPECT_EQ(lines[3].text, "  a : f32[3,4] -> out");
  EXPECT_EQ(lines[4].text, "    = f32[3,4] min=0");
}

TEST(GraphPane, SelectionWalksTheBoxesInReadingOrder) {
  GraphPane pane;
  pane.set_views({{"g", testing::fig6_graph(), {}, {}, ""}}, 0);
  Canvas c(30, 60);
  pane.draw(c);
  EXPECT_NE(c.str().find("transpose"), std::string::npos) << c.str();
  pane.key({PaneKey::Char, 'n'}, 30);
  EXPECT_EQ(pane.selected().substr(0, 3), "in:");
  pane.key({PaneKey::Char, 'p'}, 30);
  EXPECT_EQ(pane.selected(), "out:out");  // wraps around to the last box
  pane.key({PaneKey::Char, 'x'}, 30);
  EXPECT_TRUE(pane.selected().empty());
}

// A graph taller than the pane is first shown from its outputs, where differences show; Home
// goes back to the inputs.
TEST(GraphPane, ATallGraphIsShownFromItsOutputs) {
  GraphPane pane;
  pane.set_views({{"g", testing::fig6_graph(), {}, {}, ""}}, 0);
  Canvas c(6, 60);
  pane.draw(c);
  EXPECT_NE(c.str().find("output out"), std::string::npos) << c.str();
  pane.key({PaneKey::Home, 0}, 6);
  Canvas d(6, 60);
  pane.draw(d);
  EXPECT_EQ(d.str().find("output out"), std::string::npos) << d.str();
}

// Boxes name a node by the values it writes, the names its users' operands show: a generated
// graph's node n0 writes v1.
TEST(GraphPane, BoxesNameNodesByTheirValues) {
  Graph g = parse_rtg("graph g\ninput x : f32[2]\ny = neg(x)\noutput y\n");
  g.nodes[0].name = "n0";
  EXPECT_EQ(graph_box_text(g, "node:n0", 2), std::vector<std::string>{"y neg(x)"});
}

std::vector<const PaneSpec*> visible_specs(const std::vector<std::unique_ptr<Pane>>& panes) {
  std::vector<const PaneSpec*> specs;
  for (const auto& p : panes) specs.push_back(p->visible() ? &p->spec() : nullptr);
  return specs;
}

size_t pane_index(const std::vector<std::unique_ptr<Pane>>& panes, const std::string& name) {
  for (size_t i = 0; i < panes.size(); ++i)
    if (panes[i]->spec().name == name) return i;
  ADD_FAILURE() << "no pane " << name;
  return 0;
}

TEST(ScreenLayout, PanesTileTheScreenAndZoomTakesItAll) {
  LogBuffer log;
  std::vector<std::unique_ptr<Pane>> panes = workbench_panes(log, false);
  Session s;
  for (auto& p : panes) p->refresh(s, TopicSet::all());
  size_t campaign = pane_index(panes, "campaign"), program = pane_index(panes, "program");
  EXPECT_FALSE(panes[campaign]->visible());  // no campaign yet
  EXPECT_FALSE(panes[program]->visible());   // no program command yet
  size_t egraph = pane_index(panes, "e-graph"), results = pane_index(panes, "results");
  for (auto [rows, cols] : {std::pair{24, 80}, std::pair{60, 200}}) {
    ScreenLayout l = layout_screen(rows, cols, visible_specs(panes), std::nullopt);
    EXPECT_EQ(l.command_row, rows - 1);
    EXPECT_EQ(l.status_row, rows - 2);
    int area = 0;
    for (size_t i = 0; i < panes.size(); ++i) {
      const Rect& r = l.panes[i];
      if (i == campaign || i == program) {
        EXPECT_EQ(r.rows * r.cols, 0);
        continue;
      }
      // At 80x24 the e-graph pane keeps its size line, so that the results pane holds its
      // header and the rows of ref, ort:O0 and ort:O3.
      EXPECT_GE(r.rows, i == egraph ? 3 : 4) << rows << "x" << cols;
      area += r.rows * r.cols;
    }
    EXPECT_GE(l.panes[results].rows, 6) << rows << "x" << cols;
    EXPECT_EQ(area, (rows - 3) * cols);
    const Rect& bottom = l.panes[pane_index(panes, "log")];
    EXPECT_EQ(bottom.row + bottom.rows, rows - 2);
  }
  ScreenLayout z = layout_screen(24, 80, visible_specs(panes), egraph);
  EXPECT_EQ(z.panes[egraph].rows, 21);
  EXPECT_EQ(z.panes[pane_index(panes, "graph")].rows, 0);
}

// Once a campaign runs, its pane joins the right column; the panes still tile the screen.
TEST(ScreenLayout, ACampaignPaneTakesItsShareOfTheRightColumn) {
  LogBuffer log;
  std::vector<std::unique_ptr<Pane>> panes = workbench_panes(log, false);
  Session s;
  s.publish_campaign({1, "f.db", "10 cases", {}, true, {}});
  for (auto& p : panes) p->refresh(s, TopicSet::all());
  size_t campaign = pane_index(panes, "campaign");
  ASSERT_TRUE(panes[campaign]->visible());
  ScreenLayout l = layout_screen(40, 120, visible_specs(panes), std::nullopt);
  int area = 0;
  for (size_t i = 0; i < l.panes.size(); ++i) {
    if (!panes[i]->visible()) continue;  // the program pane: no program command yet
    EXPECT_GE(l.panes[i].rows, 4);
    area += l.panes[i].rows * l.panes[i].cols;
  }
  EXPECT_EQ(area, 37 * 120);
  const Rect& results = l.panes[pane_index(panes, "results")];
  EXPECT_EQ(l.panes[campaign].row, results.row + results.rows);
  EXPECT_EQ(l.panes[campaign].col, results.col);
}

TEST(ProgramPane, HiddenUntilAProgramCommandThenShowsTheMutations) {
  Session s;
  std::unique_ptr<Pane> pane = make_program_pane();
  EXPECT_TRUE(pane->spec().topics.has(Topic::Program));
  pane->refresh(s, TopicSet::all());
  EXPECT_FALSE(pane->visible());
  s.set_program_mutations({{"tcb", 4}}, "program mutate tcb");
  pane->refresh(s, TopicSet{Topic::Program});
  EXPECT_TRUE(pane->visible());
  std::string text;
  for (const StyledLine& l : program_text(s)) text += l.text + "\n";
  EXPECT_NE(text.find("1. tcb (seed 4)"), std::string::npos) << text;
  s.set_program_text("torch:eager", "def forward(self, x0):\n    return (x0,)");
  text.clear();
  for (const StyledLine& l : program_text(s)) text += l.text + "\n";
  EXPECT_NE(text.find("as torch:eager writes it"), std::string::npos) << text;
  EXPECT_NE(text.find("    return (x0,)"), std::string::npos) << text;
  s.undo();
  EXPECT_TRUE(s.program_mutations().empty());
}

TEST(CampaignPane, HiddenUntilACampaignPublishesThenFollowsIt) {
  Session s;
  std::unique_ptr<Pane> pane = make_campaign_pane();
  EXPECT_TRUE(pane->spec().live);
  EXPECT_TRUE(pane->spec().topics.has(Topic::Campaign));
  pane->refresh(s, TopicSet::all());
  EXPECT_FALSE(pane->visible());
  TopicVersions before = s.topics().now();
  CampaignStatus status{7, "f.db", "300 cases", {}, true, {}};
  status.stats.cases = 12;
  status.stats.seen = 3;
  status.stats.signatures = {"mismatch ort:O3 at mul"};
  status.stats.by_kind["mismatch ort:O3"] = 3;
  s.publish_campaign(status);
  EXPECT_EQ(TopicClock::changed(before, s.topics().now()), TopicSet{Topic::Campaign});
  pane->refresh(s, {Topic::Campaign});
  EXPECT_TRUE(pane->visible());
  Canvas c(10, 60);
  pane->draw(c);
  EXPECT_EQ(c.row_text(0), "campaign 7 in f.db: running (300 cases)");
  EXPECT_NE(c.str().find("findings: 1 distinct finding, seen 3 times"), std::string::npos)
      << c.str();
  EXPECT_NE(c.str().find("3  mismatch ort:O3"), std::string::npos) << c.str();

  // Issue 42: the review at the end of a campaign is no ended campaign.
  status.running = false;
  status.review = "reviewing 2/5";
  s.publish_campaign(status);
  pane->refresh(s, {Topic::Campaign});
  Canvas reviewing(10, 60);
  pane->draw(reviewing);
  EXPECT_EQ(reviewing.row_text(0), "campaign 7 in f.db: reviewing 2/5 (300 cases)");
  status.review.clear();
  s.publish_campaign(status);
  pane->refresh(s, {Topic::Campaign});
  Canvas ended(10, 60);
  pane->draw(ended);
  EXPECT_EQ(ended.row_text(0), "campaign 7 in f.db: ended (300 cases)");
}

// Issue 43: the pane counts the database's findings, a merged shard's among them, whose names an
// attacker chose; they and the database's name print escaped, the command to type quoted.
TEST(CampaignPane, AMergedShardsNamesPrintEscaped) {
  Session s;
  CampaignStatus status{7, "x';touch ran;'.db", "300 cases", {}, true, {}};
  status.stats.by_kind["mismatch evil\x1b]0;pwned\x07\nFORGED"] = 1;
  status.stats.last_finding = "evil\x1b[2J";
  s.publish_campaign(status);
  std::string text;
  for (const StyledLine& line : campaign_text(s)) text += line.text + "\n";
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("\nFORGED"), std::string::npos) << text;
  EXPECT_NE(text.find("1  mismatch evil\\x1b]0;pwned\\x07\\x0aFORGED"), std::string::npos) << text;
  EXPECT_NE(text.find("last: evil\\x1b[2J"), std::string::npos) << text;
  EXPECT_NE(text.find("`findings list --db 'x'\\'';touch ran;'\\''.db'` lists them"),
            std::string::npos)
      << text;
}

// The graph pane shows what the last command made: told by the session's topics what changed,
// not by comparing snapshots.
TEST(GraphPane, RefreshShowsWhatTheLastCommandMade) {
  Session s;
  std::unique_ptr<Pane> pane = make_graph_pane(false);
  std::optional<TopicVersions> seen;
  auto refresh = [&] {
    TopicVersions now = s.topics().now();
    pane->refresh(s, seen ? TopicClock::changed(*seen, now) : TopicSet::all());
    seen = now;
    return pane->title();
  };
  EXPECT_EQ(refresh(), "graph");
  s.start_graph(testing::fig6_graph());
  EXPECT_EQ(refresh().substr(0, 20), "graph: current graph");
  s.build_egraph();
  EXPECT_EQ(refresh().substr(0, 20), "graph: current graph");
  bool applied = false;
  for (size_t i = 0; i < s.rules().all().rules.size() && !applied; ++i) {
    const Rule& r = s.rules().all().rules[i];
    applied = s.rules().enabled(i) && !s.find_matches(r).empty() &&
              s.apply(r.name, 1, "apply").outcome == ApplyOutcome::Applied;
  }
  ASSERT_TRUE(applied);
  EXPECT_EQ(refresh().substr(0, 16), "graph: rewrite #") << pane->title();
  s.extract_variant({}, "", "extract min");
  EXPECT_EQ(refresh().substr(0, 18), "graph: variant min");
  s.rules();  // changes nothing shown: the pane stays where it is
  EXPECT_EQ(refresh().substr(0, 18), "graph: variant min");
  s.start_graph(testing::fig6_graph());
  EXPECT_EQ(refresh().substr(0, 20), "graph: current graph");
}

}  // namespace
}  // namespace retort
