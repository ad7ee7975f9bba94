#include "core/io/graph_files.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/io/rtg.h"
#include "tests/core/io/graph_test_util.h"

namespace retort {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::expect_same_graph;

class GraphFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("retort_graph_files_{}_{}",
                       ::testing::UnitTest::GetInstance()->current_test_info()->name(), ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path dir_;
};

Graph sample() {
  return parse_rtg(R"(graph g
input x : f32[2,3]
const c : f32[3] = random(seed=1)
t = add(x, c)
u = transpose(t, perm=[1,0])
output u
)");
}

TEST_F(GraphFiles, SavesAndLoadsEachFormatByExtension) {
  Graph g = sample();
  for (std::string name : {"g.rtg", "g.json", "G.RTG"}) {
    SCOPED_TRACE(name);
    save_graph_file(g, path(name), false);
    expect_same_graph(g, load_graph_file(path(name)));
  }
  EXPECT_EQ(read_file(path("g.rtg")), print_rtg(g));
}

TEST_F(GraphFiles, OnnxGoesThroughTheOnnxModule) {
  Graph g = sample();
  save_graph_file(g, path("g.onnx"), false);
  Graph back = load_graph_file(path("g.onnx"));
  EXPECT_EQ(back.outputs, g.outputs);
  EXPECT_EQ(back.type_of("u"), g.type_of("u"));
  ASSERT_EQ(back.constants.size(), 1u);
  EXPECT_TRUE(back.constants[0].value == g.constants[0].value);
}

TEST_F(GraphFiles, UnknownExtensionsListTheKnownOnes) {
  std::string p = path("g.txt");
  EXPECT_EQ(error_of([&] { save_graph_file(sample(), p, false); }),
            fmt::format("cannot tell the format of '{}' from its extension (known: .rtg, .json, "
                        ".onnx)",
                        p));
  EXPECT_EQ(error_of([&] { load_graph_file(path("noext")); }),
            fmt::format("cannot tell the format of '{}' from its extension (known: .rtg, .json, "
                        ".onnx)",
                        path("noext")));
  EXPECT_TRUE(listing().empty());
}

TEST_F(GraphFiles, RefusesToOverwriteUnlessAsked) {
  std::string p = path("x.rtg");
  write_file(p, "old contents\n", false);
  EXPECT_EQ(error_of([&] { save_graph_file(sample(), p, false); }),
            fmt::format("'{}' exists; use --force to replace it", p));
  EXPECT_EQ(read_file(p), "old contents\n");
  EXPECT_EQ(listing(), (std::vector<std::string>{"x.rtg"}));  // no temporary file left
  save_graph_file(sample(), p, true);
  expect_same_graph(load_graph_file(p), sample());
  EXPECT_EQ(listing(), (std::vector<std::string>{"x.rtg"}));
}

TEST_F(GraphFiles, FailedWritesLeaveNothingBehind) {
  std::string p = path("missing_dir/g.rtg");
  std::string message = error_of([&] { save_graph_file(sample(), p, false); });
  EXPECT_EQ(message, fmt::format("cannot write '{}': No such file or directory", p));
  EXPECT_TRUE(listing().empty());
  fs::create_directories(path("sub.rtg"));
  EXPECT_EQ(error_of([&] { save_graph_file(sample(), path("sub.rtg"), true); }),
            fmt::format("'{}' is a directory, not a file", path("sub.rtg")));
}

TEST_F(GraphFiles, ReadErrorsNameTheFile) {
  EXPECT_EQ(error_of([&] { load_graph_file(path("none.rtg")); }),
            fmt::format("cannot open '{}': No such file or directory", path("none.rtg")));
  write_file(path("bad.rtg"), "input x : f32[2]\ny = relu(z)\noutput y\n", false);
  EXPECT_EQ(error_of([&] { load_graph_file(path("bad.rtg")); }),
            fmt::format("{}:2:10: undefined value 'z' (define it with input, const or an earlier "
                        "statement)",
                        path("bad.rtg")));
  write_file(path("bad.json"), "{\"format\": \"retort-graph\", \"version\": 9, \"outputs\": []}",
             false);
  EXPECT_EQ(error_of([&] { load_graph_file(path("bad.json")); }),
            fmt::format("{}: version: this Retort reads retort-graph version 1 only, found 9",
                        path("bad.json")));
}

}  // namespace
}  // namespace retort
