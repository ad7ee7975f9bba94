// Op x dtype support probing (core/backend/support.h) against real backends: the reference and
// ONNX Runtime, with the cache in a fresh XDG cache directory.
#include "core/backend/support.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/gen/graph_gen.h"
#include "core/io/file_io.h"

namespace retort {
namespace {

class SupportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("retort_support_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const char* old = std::getenv("XDG_CACHE_HOME");
    if (old) old_ = old;
    ::setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  }
  void TearDown() override {
    if (old_)
      ::setenv("XDG_CACHE_HOME", old_->c_str(), 1);
    else
      ::unsetenv("XDG_CACHE_HOME");
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::optional<std::string> old_;
};

TEST_F(SupportTest, TheReferenceRunsWhatItsOpsTakeAndTheTableIsCached) {
  BackendSet set;
  SupportTable t = backend_support(set.get("ref"), "ref");
  EXPECT_EQ(t.cells.at("add").at(DType::f32), Support::Yes);
  EXPECT_EQ(t.cells.at("and").at(DType::boolean), Support::Yes);
  EXPECT_EQ(t.cells.at("and").at(DType::f32), Support::Untyped);
  EXPECT_EQ(t.cells.at("exp").at(DType::i32), Support::Untyped);
  std::string path = support_cache_path("ref", t.version);
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  EXPECT_EQ(path.rfind(dir_.string() + "/retort/support/", 0), 0u) << path;

  // A second call reads the cache: plant a change in it and see it come back.
  std::string text = read_file(path);
  auto at = text.find("\"f32\": \"yes\"", text.find("\"add\""));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "\"f32\": \"no\"");
  write_file(path, text, /*overwrite=*/true);
  EXPECT_EQ(backend_support(set.get("ref"), "ref").cells.at("add").at(DType::f32), Support::No);
}

TEST_F(SupportTest, ACorruptCacheIsProbedAgain) {
  BackendSet set;
  std::string version = backend_support(set.get("ref"), "ref").version;
  write_file(support_cache_path("ref", version), "{not json", /*overwrite=*/true);
  EXPECT_EQ(backend_support(set.get("ref"), "ref").cells.at("add").at(DType::f32), Support::Yes);
}

// The cache folder is a file: the probe's table is kept from the next campaign, not from this one.
TEST_F(SupportTest, ACacheFolderThatCannotTakeTheTableCostsOnlyTheCache) {
  std::filesystem::create_directories(dir_ / "retort");
  write_file((dir_ / "retort" / "support").string(), "not a folder", /*overwrite=*/false);
  BackendSet set;
  SupportTable t = backend_support(set.get("ref"), "ref");
  EXPECT_EQ(t.cells.at("add").at(DType::f32), Support::Yes);
  EXPECT_TRUE(std::filesystem::is_regular_file(dir_ / "retort" / "support"));
}

// A table probed before an op joined the registry or a worker's converter changed (another
// fingerprint, or none: caches older than the fingerprint) is probed again, not trusted.
TEST_F(SupportTest, ATableProbedWithOtherOpsOrWorkersIsProbedAgain) {
  BackendSet set;
  SupportTable t = backend_support(set.get("ref"), "ref");
  EXPECT_EQ(t.probed_with, probe_fingerprint("ref"));
  std::string path = support_cache_path("ref", t.version);
  for (const std::string& stale : {std::string("\"probed_with\": \"0123\""), std::string()}) {
    std::string text = read_file(path);
    auto at = text.find("\"f32\": \"yes\"", text.find("\"add\""));
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 12, "\"f32\": \"no\"");
    auto with = text.find("\"probed_with\"");
    ASSERT_NE(with, std::string::npos);
    size_t end = text.find(',', with);
    text.replace(with, end + 1 - with, stale.empty() ? "" : stale + ",");
    write_file(path, text, /*overwrite=*/true);
    EXPECT_EQ(backend_support(set.get("ref"), "ref").cells.at("add").at(DType::f32), Support::Yes)
        << text.substr(0, 200);
  }
}

TEST_F(SupportTest, CtrlCStopsTheProbeAndCachesNothing) {
  BackendSet set;
  std::atomic<bool> cancel{false};
  size_t calls = 0, first = 0;
  auto stop_at_first = [&](size_t done, size_t) {
    if (++calls == 1) first = done;
    cancel.store(true);
  };
  try {
    backend_support(set.get("ref"), "ref", stop_at_first, &cancel);
    FAIL() << "the probe went on after Ctrl-C";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("interrupted after probing {} of", first)),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(calls, 1u);  // the batch under way ends, no other starts
  EXPECT_FALSE(std::filesystem::exists(dir_ / "retort" / "support"));
}

// A worker that dies before hello (ONNX Runtime's worker without its node_modules) says nothing
// of what the release runs; one that starts but runs no op at all is broken too. Neither probe
// caches a table, which would otherwise leave every later campaign with no op to draw.
TEST_F(SupportTest, AWorkerThatNeverStartsOrRunsNothingIsAnErrorAndNothingIsCached) {
  BackendSet set;
  set.attach("dead", {"/bin/false"}, 5, {});
  try {
    backend_support(set.get("dead"), "dead");
    FAIL() << "a worker that never started was probed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dead: its worker did not start"), std::string::npos)
        << e.what();
  }
  set.attach("crashes", {RETORT_FAULT_WORKER, "--fault", "crash"}, 5, {});
  try {
    backend_support(set.get("crashes"), "crashes");
    FAIL() << "a worker that ran no op was cached";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ran none of the registry's ops"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "retort" / "support"));
}

TEST_F(SupportTest, CacheNamesNeverLeaveTheCacheDirectory) {
  std::string path = support_cache_path("../../etc/x:y", "1/../2");
  EXPECT_EQ(std::filesystem::path(path).parent_path(), dir_ / "retort" / "support");
}

TEST_F(SupportTest, GeneratedGraphsForOrtUseOnlyPairsItRuns) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  BackendSet set;
  SupportTable t = backend_support(set.get("ort:O3"), "ort:O3");
  // ONNX Runtime has no integer Gemm kernel: the probe must find that out by running it.
  EXPECT_EQ(t.cells.at("gemm").at(DType::i32), Support::No);
  EXPECT_EQ(t.cells.at("gemm").at(DType::f32), Support::Yes);
  GenOptions g;
  g.min_nodes = g.max_nodes = 12;
  g.op_dtypes = t.supported();
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    Graph graph = generate_graph(g, seed);
    for (const Node& n : graph.nodes) {
      if (n.inputs.empty() || n.inputs[0].empty() || !g.op_dtypes.count(n.op)) continue;
      DType first = graph.type_of(n.inputs[0]).dtype;
      EXPECT_TRUE(g.op_dtypes.at(n.op).count(first)) << n.op << " seed " << seed;
    }
  }
}

// A campaign probes each release once, through its baseline mode: the optimising modes' errors
// are findings, not limits of the release. The reference and attached workers are not probed.
TEST(ReleaseProbe, IsTheBaselineAtTheSameRelease) {
  EXPECT_EQ(release_probe("ort:O3"), "ort:O0");
  EXPECT_EQ(release_probe("ort:O0"), "ort:O0");
  EXPECT_EQ(release_probe("ort@1.16.3:O3"), "ort@1.16.3:O0");
  EXPECT_EQ(release_probe("inductor@2.1.0"), "torch@2.1.0:eager");
  EXPECT_EQ(release_probe("tvm:passes"), "tvm:O0");
  EXPECT_EQ(release_probe("ref"), "");
  EXPECT_EQ(release_probe("my-worker:fast"), "");
}

TEST(ReleaseProbe, ACampaignDrawsWhatEveryReleaseRuns) {
  SupportTable a{"ort:O0", "1.30.0", {}}, b{"tvm:O0", "0.27.0", {}};
  a.cells["add"] = {{DType::f32, Support::Yes}, {DType::u8, Support::Yes}};
  b.cells["add"] = {{DType::f32, Support::Yes}, {DType::u8, Support::No}};
  a.cells["prelu"] = {{DType::i32, Support::Yes}};
  b.cells["prelu"] = {{DType::i32, Support::No}};
  auto both = supported_by_all({a, b});
  EXPECT_EQ(both.at("add"), (std::set<DType>{DType::f32}));
  EXPECT_TRUE(both.at("prelu").empty());  // listed with none: not drawn
  EXPECT_EQ(supported_by_all({a}).at("add").size(), 2u);
  EXPECT_TRUE(supported_by_all({}).empty());
}

}  // namespace
}  // namespace retort
