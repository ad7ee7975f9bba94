#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/io/rtg.h"
#include "core/session/session.h"
#include "views/graph_layout.h"
#include "views/pictures.h"
#include "views/render_file.h"

#include "tests/support/fig6.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class RenderFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("retort_render_test_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    testing::load_fig6(session_);
    session_.build_egraph();
    session_.run_rules({}, "saturate");
    session_.extract_variant({}, "", "extract min");
    ExtractOptions max;
    max.mode = ExtractMode::Max;
    session_.extract_variant(max, "", "extract max");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  Session session_;
};

TEST_F(RenderFile, EGraphInEveryFormatWithClustersAndLegend) {
  std::string dot = egraph_picture(session_);
  for (const char* ext : {"svg", "png", "dot"}) {
    std::string p = path(std::string("egraph.") + ext);
    render_dot_file(dot, p, false);
    ASSERT_TRUE(fs::exists(p)) << p;
    EXPECT_GT(fs::file_size(p), 100u) << p;
  }
  std::string svg = read_all(path("egraph.svg"));
  EXPECT_NE(svg.find("<title>cluster_legend</title>"), std::string::npos);
  for (const char* text :
       {">I1<", ">I2<", ">transpose<", ">add<", ">chosen by min<", ">chosen by max<"})
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  EXPECT_NE(svg.find("palegreen"), std::string::npos);  // graphviz writes named fills as is
  EXPECT_EQ(read_all(path("egraph.png")).substr(1, 3), "PNG");
  EXPECT_EQ(read_all(path("egraph.dot")), dot);
  // Every e-class is a cluster.
  for (EClassId c : session_.egraph().eg.class_ids())
    EXPECT_NE(svg.find(fmt::format("<title>cluster_e{}</title>", c.value)), std::string::npos);
}

TEST_F(RenderFile, DiffShowsBothGraphsAsClusters) {
  std::string dot = diff_picture(session_, "min", "max");
  render_dot_file(dot, path("diff.svg"), false);
  std::string svg = read_all(path("diff.svg"));
  EXPECT_NE(svg.find("<title>cluster_min</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>cluster_max</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>a:in:I1</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>b:in:I1</title>"), std::string::npos);
  EXPECT_NE(svg.find("added"), std::string::npos);
  render_dot_file(diff_picture(session_, "original", "min"), path("diff2.png"), false);
  EXPECT_TRUE(fs::exists(path("diff2.png")));
}

TEST_F(RenderFile, EveryKindInEveryFormat) {
  std::vector<std::pair<std::string, std::string>> kinds = {
      {"graph", graph_picture(session_.graph())},
      {"max", graph_picture(named_graph(session_, "max"))},
      {"egraph", egraph_picture(session_)},
      {"diff", diff_picture(session_, "min", "max")}};
  for (const auto& [kind, dot] : kinds) {
    for (const char* ext : {"svg", "png", "dot"}) {
      std::string p = path(kind + "." + ext);
      render_dot_file(dot, p, false);
      EXPECT_TRUE(fs::exists(p)) << p;
      EXPECT_GT(fs::file_size(p), 100u) << p;
    }
  }
}

TEST_F(RenderFile, GraphAndVariantPictures) {
  render_dot_file(graph_picture(session_.graph()), path("graph.svg"), false);
  std::string svg = read_all(path("graph.svg"));
  EXPECT_NE(svg.find("<title>node:t2</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>out:out</title>"), std::string::npos);
  render_dot_file(graph_picture(named_graph(session_, "max")), path("max.dot"), false);
  EXPECT_NE(read_all(path("max.dot")).find("digraph"), std::string::npos);
  EXPECT_THROW(named_graph(session_, "nope"), Error);
}

TEST_F(RenderFile, NeverOverwritesWithoutForce) {
  std::string p = path("g.svg");
  EXPECT_EQ(render_dot_file("digraph { a -> b }", p, false), "");
  auto size = fs::file_size(p);
  EXPECT_THROW(render_dot_file("digraph { a -> b -> c }", p, false), Error);
  EXPECT_EQ(fs::file_size(p), size);
  render_dot_file("digraph { a -> b -> c }", p, true);
  EXPECT_NE(fs::file_size(p), size);
}

TEST_F(RenderFile, NeverFollowsALink) {
  fs::create_directories(dir_ / "elsewhere");
  fs::path target = dir_ / "elsewhere" / "target.svg";
  fs::create_symlink(target, path("dangling.svg"));
  EXPECT_THROW(render_dot_file("digraph { a -> b }", path("dangling.svg"), false), Error);
  EXPECT_FALSE(fs::exists(target));
  std::ofstream(target) << "precious";
  fs::create_symlink(target, path("link.svg"));
  render_dot_file("digraph { a -> b }", path("link.svg"), true);
  EXPECT_EQ(read_all(target), "precious");
  EXPECT_FALSE(fs::is_symlink(path("link.svg")));
  EXPECT_NE(read_all(path("link.svg")).find("<svg"), std::string::npos);
}

// A full disk (the file-size limit makes write() fail as ENOSPC would): an Error, not the end of
// the process (Graphviz calls exit() on write errors) and not a half-written file.
TEST_F(RenderFile, AFailedWriteIsAnError) {
  struct rlimit old {};
  ::getrlimit(RLIMIT_FSIZE, &old);
  auto previous = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit tiny = old;
  tiny.rlim_cur = 16;
  ::setrlimit(RLIMIT_FSIZE, &tiny);
  EXPECT_THROW(render_dot_file("digraph { a -> b }", path("full.svg"), false), Error);
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, previous);
  EXPECT_FALSE(fs::exists(path("full.svg")));
}

// Graphviz crashing (dot 2.43 aborts on some large e-graphs) ends only its child process.
TEST_F(RenderFile, AGraphvizCrashIsAnErrorAndTheProcessGoesOn) {
  ::setenv("RETORT_TEST_CHILD_CRASH", "1", 1);
  try {
    render_dot_file("digraph { a -> b }", path("crash.svg"), false);
    ::unsetenv("RETORT_TEST_CHILD_CRASH");
    FAIL() << "no error";
  } catch (const Error& e) {
    ::unsetenv("RETORT_TEST_CHILD_CRASH");
    EXPECT_NE(std::string(e.what()).find("graphviz (rendering"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("was killed by signal 6 (Aborted)"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(path("crash.svg")));
  render_dot_file("digraph { a -> b }", path("after.svg"), false);
  EXPECT_TRUE(fs::exists(path("after.svg")));
}

// Graphviz's warnings went to the child's stderr, that is nowhere; render shows them.
TEST_F(RenderFile, ReturnsGraphvizWarnings) {
  std::string warned = render_dot_file("digraph { a -> 1a }", path("warned.svg"), false);
  EXPECT_NE(warned.find("badly delimited number '1a'"), std::string::npos) << warned;
  EXPECT_NE(read_all(path("warned.svg")).find("<svg"), std::string::npos);
}

// Graphviz counts errors for the whole process; a failed in-process layout (the graph pane's)
// used to fail every render after it.
TEST_F(RenderFile, RendersAfterAFailedLayout) {
  EXPECT_THROW(layout_dot("digraph { a -> "), Error);
  render_dot_file("digraph { a -> b }", path("after_layout.svg"), false);
  EXPECT_TRUE(fs::exists(path("after_layout.svg")));
}

TEST_F(RenderFile, BadExtensionAndBadDotAreClearErrors) {
  try {
    render_dot_file("digraph { a }", path("g.pdf"), false);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(".svg, .png or .dot"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path("g.pdf")));
  try {
    render_dot_file("digraph { a -> }", path("bad.svg"), false);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("graphviz"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace retort
