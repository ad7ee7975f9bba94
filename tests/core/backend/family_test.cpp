#include "core/backend/family.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/backend/backend.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/compare/oracles.h"
#include "core/compare/release_bisect.h"

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

TEST(Family, EveryFamilyIsComplete) {
  std::set<std::string> names;
  for (const auto& f : families()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name << " twice";
    EXPECT_NE(find_mode(f, f.default_mode), nullptr) << f.name;
    EXPECT_FALSE(f.worker.empty()) << f.name;
    if (!f.baseline.empty()) {
      EXPECT_TRUE(parse_backend_name(f.baseline)) << f.baseline;
    }
    const FamilyDef& env = environment_family(f);
    EXPECT_FALSE(env.version_package.empty()) << f.name;
  }
  for (const char* name :
       {"ort", "inductor", "torch", "xla", "tf-xla", "tvm", "openvino", "iree", "onnx-ref"})
    EXPECT_TRUE(names.count(name)) << name;
}

// Each refusal of the table, with the message the compiler gave (as a worker reports it): the
// family's backends at any release and mode find it, other families and attached workers do not.
TEST(Family, RefusalsAreFoundInTheMessagesTheCompilersGive) {
  struct Case {
    const char* backend;
    const char* message;
  };
  const Case cases[] = {
      {"ort:O3",
       "Non-zero status code returned while running Conv node. Name:'n3' Status Message: "
       "Dilation not supported for AutoPadType::SAME_UPPER or AutoPadType::SAME_LOWER."},
      {"ort@1.16.3:O0",
       "pool_attributes.h:78 onnxruntime::PoolAttributes::PoolAttributes pads[dim] < "
       "kernel_shape[dim] was false. Pad should be smaller than kernel."},
      {"tvm:O3",
       "InternalError: Check failed: Prelu requires the input tensor to have float dtype. "
       "However, the given input dtype is int32"},
      {"tvm@0.27.0:passes", "ValueError: Node n4 cannot handle ShapeExpr inputs."},
  };
  std::set<std::string> found;
  for (const Case& c : cases) {
    const Refusal* r = find_refusal(c.backend, c.message);
    ASSERT_NE(r, nullptr) << c.backend << ": " << c.message;
    found.insert(r->text);
    EXPECT_EQ(find_refusal("xla:jit", c.message), nullptr);
    EXPECT_EQ(find_refusal("my-worker", c.message), nullptr);
  }
  size_t entries = 0;
  for (const auto& f : families()) {
    for (const Refusal& r : f.refusals) {
      ++entries;
      EXPECT_TRUE(found.count(r.text)) << f.name << ": no case for \"" << r.text << "\"";
      EXPECT_FALSE(r.why.empty()) << r.text;
    }
  }
  EXPECT_EQ(entries, found.size());
  EXPECT_EQ(find_refusal("ort:O3", "Dilation not supported"), nullptr);  // only the whole text
}

// ORT 1.16.3 wraps a kernel's error raised while loading in "Exception during initialization: ";
// another family's name keeps its text whole.
TEST(Family, TheCoreOfAnErrorIsItsTextAfterItsReleasesWrappers) {
  EXPECT_EQ(error_core("ort@1.16.3:O3", "Exception during initialization: data_rank > 0\n"),
            "data_rank > 0");
  EXPECT_EQ(error_core("ort:O0",
                       " Exception during initialization:  Exception during "
                       "initialization: Cannot slice scalars"),
            "Cannot slice scalars");
  EXPECT_EQ(error_core("ort:O3", "Cannot slice scalars: Exception during initialization: "),
            "Cannot slice scalars: Exception during initialization:");
  EXPECT_EQ(error_core("bad", "Exception during initialization: x"),
            "Exception during initialization: x");
}

TEST(Family, ParsesNamesVersionsAndModes) {
  EXPECT_EQ(parse_backend_name("inductor")->str(), "inductor:default");
  EXPECT_EQ(parse_backend_name("ort@1.16.3:O3")->str(), "ort@1.16.3:O3");
  EXPECT_EQ(parse_backend_name("ort@1.16.3")->str(), "ort@1.16.3:O3");
  EXPECT_EQ(parse_backend_name("tvm@0.27.0.post1:O0")->version, "0.27.0.post1");
  EXPECT_FALSE(parse_backend_name("mine:fast"));  // not a family: an attached backend's name
  EXPECT_FALSE(parse_backend_name("ref"));
  std::string m = error_of([] { parse_backend_name("ort:03"); });
  EXPECT_NE(m.find("did you mean ort:O3?"), std::string::npos) << m;
  // A version names a folder and is passed to npm and uv: nothing else gets through.
  for (const char* bad : {"ort@../../x", "ort@", "ort@1.0;rm", "ort@v1", "ort@1/2"})
    EXPECT_NE(error_of([&] { parse_backend_name(bad); }).find("a version starts with a digit"),
              std::string::npos)
        << bad;
}

TEST(Family, OracleGroupsAndBaselines) {
  EXPECT_EQ(oracle_group("torch@2.1.0:script"), "inductor@2.1.0");
  EXPECT_EQ(oracle_group("inductor:default"), "inductor");
  EXPECT_EQ(oracle_group("mine:fast"), "mine");
  EXPECT_EQ(oracle_baseline("inductor@2.1.0:default"), "torch@2.1.0:eager");
  EXPECT_EQ(oracle_baseline("xla:jit"), "xla:nojit");
  EXPECT_EQ(oracle_baseline("mine:fast"), "");
}

// A run sends a backend the program mutations its family's worker applies; an attached worker
// of no family gets them all (it ignores what it does not know).
TEST(Family, ProgramMutationsGoWhereTheyApply) {
  EXPECT_TRUE(applies_mutation("torch:eager", "tcb"));
  EXPECT_TRUE(applies_mutation("inductor@2.1.0:default", "resolve"));
  EXPECT_FALSE(applies_mutation("torch:eager", "sparse"));
  EXPECT_TRUE(applies_mutation("xla", "sparse"));
  EXPECT_TRUE(applies_mutation("xla:nojit", "functionalize"));
  EXPECT_FALSE(applies_mutation("ort:O3", "tcb"));
  EXPECT_FALSE(applies_mutation("tvm", "sparse"));
  EXPECT_TRUE(applies_mutation("mine:fast", "sparse"));
  // The program forms (issue 40) go to torch.compile only.
  EXPECT_TRUE(applies_mutation("inductor", "strided-input"));
  EXPECT_FALSE(applies_mutation("torch:eager", "dynamic"));
  EXPECT_FALSE(applies_mutation("xla", "in-place"));
  for (const auto& f : families())
    for (const auto& kind : f.program_mutations) {
      bool known = std::find(std::begin(kProgramMutationKinds), std::end(kProgramMutationKinds),
                             kind) != std::end(kProgramMutationKinds) ||
                   std::find(std::begin(kStorageMutationKinds), std::end(kStorageMutationKinds),
                             kind) != std::end(kStorageMutationKinds) ||
                   std::any_of(std::begin(kProgramForms), std::end(kProgramForms),
                               [&](const ProgramForm& p) { return p.kind == kind; });
      EXPECT_TRUE(known) << f.name << ": " << kind;
    }
}

TEST(Family, TheOptimizationOracleUsesTheBaseline) {
  // inductor is checked against torch:eager (listed later), the release 2.1.0 against its own.
  std::vector<std::string> backends = {"inductor:default",  "torch:eager", "inductor@2.1.0:default",
                                       "torch@2.1.0:eager", "ort:O3",      "ort:O0"};
  std::vector<std::pair<size_t, size_t>> pairs;
  for (const Check& c : plan_checks(backends, 1))
    if (c.oracle == Oracle::Optimization) pairs.push_back({c.backend_a, c.backend_b});
  std::vector<std::pair<size_t, size_t>> expected = {{0, 1}, {2, 3}, {4, 5}};
  EXPECT_EQ(pairs, expected);
}

// inductor:cuda, torch:cuda, xla:gpu and tvm:cuda tell their worker the device; on a machine
// without a GPU they are unavailable, with the reason, and a run is `unsupported` without
// starting a worker.
TEST(Family, DeviceModesAreUnavailableWithoutTheirDevice) {
  std::set<std::string> device_modes;
  for (const auto& f : families())
    for (const auto& m : f.modes)
      if (!m.device.empty()) {
        device_modes.insert(f.name + ":" + m.name);
        EXPECT_EQ(m.options.at("device"), m.device) << f.name << ":" << m.name;
      }
  EXPECT_EQ(device_modes,
            (std::set<std::string>{"inductor:cuda", "torch:cuda", "xla:gpu", "tvm:cuda"}));
  if (std::filesystem::exists("/dev/nvidiactl"))
    GTEST_SKIP() << "this machine has an NVIDIA GPU: the device modes are available";
  for (const std::string& name : device_modes) {
    WorkerBackend w(family_backend_spec(*parse_backend_name(name)));
    EXPECT_EQ(w.info().state, "unavailable") << name;
    EXPECT_EQ(w.info().unavailable, "no NVIDIA GPU here: /dev/nvidiactl is absent") << name;
    Graph g;
    RunResult r = w.run({.graph = &g, .onnx = {}, .inputs = {}, .outputs = {}});
    EXPECT_EQ(r.status, RunStatus::Unsupported) << name;
    EXPECT_NE(r.message.find("/dev/nvidiactl is absent"), std::string::npos) << r.message;
    EXPECT_EQ(w.worker_pid(), -1) << name;
  }
  EXPECT_EQ(family_backend_spec(*parse_backend_name("inductor")).unavailable, "");
}

TEST(Bisect, FindsTheFirstReleaseThatChanged) {
  std::vector<std::string> releases = {"1", "2", "3", "4", "5", "6", "7"};
  std::vector<std::string> asked;
  auto bad_from_5 = [&](const std::string& v) {
    asked.push_back(v);
    return v >= "5";
  };
  BisectOutcome o = bisect_releases(releases, bad_from_5);
  EXPECT_EQ(o.first_changed, "5");
  EXPECT_EQ(o.last_same, "4");
  EXPECT_FALSE(o.oldest_reproduces);
  EXPECT_EQ(asked.size(), o.tested);
  EXPECT_LE(o.tested, 5u);  // the two ends, then log2 of the rest
  o = bisect_releases(releases, [](const std::string& v) { return v < "3"; });
  EXPECT_EQ(o.first_changed, "3");
  EXPECT_TRUE(o.oldest_reproduces);
  EXPECT_NE(error_of([&] {
              bisect_releases(releases, [](const std::string&) { return true; });
            }).find("nothing to bisect"),
            std::string::npos);
}

}  // namespace
}  // namespace retort
