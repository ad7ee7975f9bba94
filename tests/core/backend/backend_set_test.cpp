#include "core/backend/backend_set.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/backend/family_env.h"
#include "core/base/error.h"

namespace retort {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

TEST(BackendSet, HasTheBuiltIns) {
  BackendSet set;
  std::vector<std::string> names = set.names();
  // Every mode of every family with a default release (its lock), in the registry's order.
  std::vector<std::string> expected = {"ref"};
  for (const auto& f : families())
    if (!default_version(f).empty())
      for (const auto& m : f.modes) expected.push_back(f.name + ":" + m.name);
  EXPECT_GE(expected.size(), 5u);
  EXPECT_EQ(expected[1], "ort:O0");
  EXPECT_EQ(names, expected);
  EXPECT_EQ(set.get("ref").info().kind, "reference");
  BackendInfo o3 = set.get("ort:O3").info();
  EXPECT_EQ(o3.options.at("opt_level"), "all");
  EXPECT_EQ(o3.state, "not started");
  BackendInfo te = set.get("torch:script-te").info();
  EXPECT_EQ(te.options, (std::map<std::string, std::string>{
                            {"mode", "script"}, {"freeze", "0"}, {"fuser", "1"}}));
  EXPECT_TRUE(set.attached().empty());
}

TEST(BackendSet, AttachAndDetach) {
  BackendSet set;
  set.attach("mine", {"/bin/worker", "--x"}, 2.5, {{"a", "b"}});
  EXPECT_EQ(set.names().back(), "mine");
  ASSERT_EQ(set.attached().size(), 1u);
  EXPECT_EQ(set.attached()[0], (BackendSpec{.name = "mine",
                                            .argv = {"/bin/worker", "--x"},
                                            .timeout_s = 2.5,
                                            .options = {{"a", "b"}}}));
  EXPECT_EQ(set.list().back().options.at("a"), "b");
  EXPECT_NE(error_of([&] { set.attach("mine", {"w"}, 1, {}); }).find("already attached"),
            std::string::npos);
  EXPECT_NE(error_of([&] { set.attach("ref", {"w"}, 1, {}); }).find("built-in"), std::string::npos);
  EXPECT_NE(error_of([&] { set.attach("x", {}, 1, {}); }).find("empty"), std::string::npos);
  EXPECT_NE(error_of([&] { set.attach("x", {"w"}, 0, {}); }).find("timeout"), std::string::npos);
  EXPECT_NE(error_of([&] { set.detach("ort:O3"); }).find("built-in"), std::string::npos);
  set.detach("mine");
  EXPECT_FALSE(set.has("mine"));
  EXPECT_TRUE(set.attached().empty());
}

TEST(BackendSet, UnknownNamesSuggestCloseOnes) {
  BackendSet set;
  std::string message = error_of([&] { set.get("ort:03"); });
  EXPECT_NE(message.find("did you mean ort:O3"), std::string::npos) << message;
  EXPECT_NE(error_of([&] { set.detach("zzz"); }).find("unknown backend 'zzz'"), std::string::npos);
}

TEST(BackendSet, FamilyNamesAndReleasesResolve) {
  BackendSet set;
  EXPECT_EQ(&set.get("ort"), &set.get("ort:O3"));  // a family is its default mode
  std::string message = error_of([&] { set.get("ort@0.0.1:O0"); });
  EXPECT_NE(message.find("`backend install ort@0.0.1`"), std::string::npos) << message;
  EXPECT_NE(error_of([&] { set.get("ort@../x"); }).find("a version starts with a digit"),
            std::string::npos);
}

TEST(BackendSet, AMissingWorkerScriptIsACrashResultNotAnException) {
  // A scripts folder with ORT's package.json (its default release) but no worker script.
  std::string dir = ::testing::TempDir() + "/retort-scripts";
  std::filesystem::create_directories(dir + "/backends");
  std::ofstream(dir + "/backends/package.json")
      << R"({"dependencies": {"onnxruntime-node": "1.30.0"}})";
  setenv("RETORT_SCRIPTS_DIR", dir.c_str(), 1);
  BackendSet set;
  unsetenv("RETORT_SCRIPTS_DIR");
  Graph g;
  g.inputs = {{"x", {DType::f32, {1}}}};
  g.nodes = {
      {.name = "n", .op = "neg", .inputs = {"x"}, .outputs = {"y"}, .attrs = {}, .opaque = {}}};
  g.outputs = {"y"};
  infer_graph(g);
  RunResult r = set.get("ort:O0").run(
      {.graph = &g, .onnx = {}, .inputs = {{"x", Tensor(DType::f32, {1})}}, .outputs = {}});
  EXPECT_EQ(r.status, RunStatus::Crash);
  EXPECT_NE(r.message.find("exited with status 1"), std::string::npos) << r.message;
  EXPECT_NE(r.stderr_tail.find("ort_worker.js"), std::string::npos) << r.stderr_tail;
}

// Issue 27: a session file attached backends named like the families and `compare --backends
// ref,ort` ran the file's command instead of ONNX Runtime.
TEST(BackendSet, AnAttachedNameNeverHidesAFamily) {
  BackendSet set;
  for (const std::string name :
       {"ort", "xla", "inductor", "torch", "tvm", "ort@1.16.3", "ort:mine", "torch@2:x", "all"}) {
    std::string error = error_of([&] { set.attach(name, {"/bin/true"}, 1, {}); });
    EXPECT_NE(error.find("pick another name"), std::string::npos) << name << ": " << error;
  }
  EXPECT_TRUE(set.attached().empty());
  set.attach("ortish", {"/bin/true"}, 1, {});  // a longer word is no family name
}

TEST(BackendSet, ABackendFromAFileRunsNothingUntilTrusted) {
  BackendSet set;
  set.attach("w", {"/bin/sh", "-c", "touch marker\x1b]0;title\x07"}, 1, {}, "session file s.json",
             "`open s.json --trust`");
  EXPECT_EQ(set.untrusted().size(), 1u);
  EXPECT_TRUE(set.has("w"));
  std::string error = error_of([&] { set.get("w"); });
  EXPECT_NE(error.find("backend 'w' runs `/bin/sh -c 'touch marker\\x1b]0;title\\x07'`, a command "
                       "from session file s.json"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("`open s.json --trust`"), std::string::npos) << error;
  // Another set takes it over as untrusted as it was; detaching needs no trust.
  BackendSet other;
  other.adopt_attached(set);
  EXPECT_EQ(other.untrusted().size(), 1u);
  other.detach("w");
  set.trust("w");
  EXPECT_TRUE(set.untrusted().empty());
  EXPECT_EQ(set.get("w").info().name, "w");
}

}  // namespace
}  // namespace retort
