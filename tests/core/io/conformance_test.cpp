#include "core/io/conformance.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/io/graph_files.h"
#include "core/io/onnx_io.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

// Runs a folder of ONNX tests, reports every failure by name, and returns the report.
ConformanceReport run_and_report(const std::string& dir) {
  if (!fs::is_directory(dir)) return {};
  ConformanceReport r = run_conformance(dir);
  for (const auto& c : r.cases)
    if (c.status == ConformanceCase::Status::Failed) ADD_FAILURE() << c.name << ": " << c.reason;
  std::printf("%s: %s\n", dir.c_str(), r.summary_line().c_str());
  // Skip reasons by count, so that a missing op or importer gap shows up in the test log.
  std::map<std::string, int> skips;
  for (const auto& c : r.cases)
    if (c.status == ConformanceCase::Status::Skipped) {
      // The model's path makes every reason unique; what follows it is the reason.
      const std::string file = "model.onnx";
      size_t at = c.reason.find(file);
      ++skips[at == std::string::npos ? c.reason : c.reason.substr(at + file.size())];
    }
  std::vector<std::pair<int, std::string>> by_count;
  for (const auto& [reason, n] : skips) by_count.emplace_back(n, reason);
  std::sort(by_count.rbegin(), by_count.rend());
  for (const auto& [n, reason] : by_count) std::printf("  skipped %4d: %s\n", n, reason.c_str());
  return r;
}

TEST(Conformance, NodeTestsHaveNoFailures) {
  if (!fs::is_directory(kDefaultConformanceDir))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  ConformanceReport r = run_and_report(kDefaultConformanceDir);
  EXPECT_EQ(r.failed, 0);
  EXPECT_GE(r.passed, 483);  // every case that passed when import refusals became skips
  EXPECT_GT(r.cases.size(), 900u);
}

TEST(Conformance, PytorchConvertedTestsHaveNoFailures) {
  fs::path dir = fs::path(kDefaultConformanceDir).parent_path() / "pytorch-converted";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "libonnx-testdata is not installed";
  EXPECT_EQ(run_and_report(dir.string()).failed, 0);
}

TEST(Conformance, PytorchOperatorTestsHaveNoFailures) {
  fs::path dir = fs::path(kDefaultConformanceDir).parent_path() / "pytorch-operator";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "libonnx-testdata is not installed";
  EXPECT_EQ(run_and_report(dir.string()).failed, 0);
}

// Test folders written from Retort graphs, so that the runner's own rules (feeding, comparing,
// skipping) are checked independently of which ops exist.
class ConformanceRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per test and process: ctest runs tests of this suite in parallel.
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::path(::testing::TempDir()) /
            fmt::format("retort_conformance_{}_{}", info->name(), ::getpid());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A graph that passes input x through and outputs constant c.
  static Graph passthrough() {
    Graph g;
    g.inputs = {{"x", {DType::i32, {2}}}};
    g.constants = {{"c", Tensor::from_doubles(DType::f32, {3}, {1.0, std::nan(""), -2.0}), ""}};
    g.outputs = {"x", "c"};
    infer_graph(g);
    return g;
  }

  void write_case(const std::string& name, const Graph& g, const std::vector<Tensor>& inputs,
                  const std::vector<Tensor>& outputs) {
    fs::path dir = root_ / name;
    fs::create_directories(dir / "test_data_set_0");
    write_file((dir / "model.onnx").string(), export_onnx(g), true);
    for (size_t i = 0; i < inputs.size(); ++i)
      write_file((dir / "test_data_set_0" / fmt::format("input_{}.pb", i)).string(),
                 write_tensor_proto(inputs[i], ""), true);
    for (size_t i = 0; i < outputs.size(); ++i)
      write_file((dir / "test_data_set_0" / fmt::format("output_{}.pb", i)).string(),
                 write_tensor_proto(outputs[i], ""), true);
  }

  const ConformanceCase& find(const ConformanceReport& r, const std::string& name) {
    for (const auto& c : r.cases)
      if (c.name == name) return c;
    throw std::runtime_error("no case " + name);
  }

  fs::path root_;
};

TEST_F(ConformanceRunner, ComparesWithToleranceAndNaN) {
  Tensor x = Tensor::from_ints(DType::i32, {2}, {4, -5});
  Tensor c = passthrough().constants[0].value;
  Tensor near = Tensor::from_doubles(DType::f32, {3}, {1.0005, std::nan(""), -2.0});
  Tensor far = Tensor::from_doubles(DType::f32, {3}, {1.0, std::nan(""), -2.01});
  write_case("test_exact", passthrough(), {x}, {x, c});
  write_case("test_near", passthrough(), {x}, {x, near});
  write_case("test_far", passthrough(), {x}, {x, far});
  write_case("test_int_off", passthrough(), {x}, {Tensor::from_ints(DType::i32, {2}, {4, -4}), c});
  write_case("test_wrong_dtype", passthrough(), {x}, {x, c.cast(DType::f64)});
  std::vector<std::string> seen;
  ConformanceReport r =
      run_conformance(root_.string(), [&](const ConformanceCase& k) { seen.push_back(k.name); });

  EXPECT_EQ(seen, (std::vector<std::string>{"test_exact", "test_far", "test_int_off", "test_near",
                                            "test_wrong_dtype"}));
  EXPECT_EQ(find(r, "test_exact").status, ConformanceCase::Status::Passed);
  EXPECT_EQ(find(r, "test_near").status, ConformanceCase::Status::Passed);
  EXPECT_EQ(find(r, "test_far").status, ConformanceCase::Status::Failed);
  EXPECT_NE(find(r, "test_far").reason.find("element 2"), std::string::npos)
      << find(r, "test_far").reason;
  EXPECT_EQ(find(r, "test_int_off").status, ConformanceCase::Status::Failed);
  EXPECT_EQ(find(r, "test_wrong_dtype").status, ConformanceCase::Status::Failed);
  EXPECT_EQ(r.summary_line(), "2 passed, 3 failed, 0 skipped");
}

TEST_F(ConformanceRunner, SkipsOpaqueOps) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {2}}}};
  Node n;
  n.name = "n";
  n.op = "Mystery";
  n.inputs = {"x"};
  n.outputs = {"y"};
  n.opaque = OpaqueInfo{"com.example", 1, {{DType::f32, {2}}}};
  g.nodes = {n};
  g.outputs = {"y"};
  infer_graph(g);
  Tensor x = Tensor::from_doubles(DType::f32, {2}, {1, 2});
  write_case("test_mystery", g, {x}, {x});
  ConformanceReport r = run_conformance(root_.string());
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].status, ConformanceCase::Status::Skipped);
  EXPECT_NE(r.cases[0].reason.find("unsupported op 'Mystery'"), std::string::npos)
      << r.cases[0].reason;
}

TEST_F(ConformanceRunner, RejectsAMissingDirectory) {
  EXPECT_THROW(run_conformance((root_ / "absent").string()), Error);
}

}  // namespace
}  // namespace retort
