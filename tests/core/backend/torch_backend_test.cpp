// The built-in torch backends through WorkerBackend against the reference interpreter. Needs the
// torch family's workers and its default release (scripts/setup.sh installs it); skipped without.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/backend/ref_backend.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

bool torch_available() {
  namespace fs = std::filesystem;
  const FamilyDef& torch = *find_family("torch");
  for (const auto& mode : torch.modes)
    if (!fs::exists(scripts_dir() + "/backends/" +
                    (mode.worker.empty() ? torch.worker : mode.worker)))
      return false;
  return is_installed(torch, "");
}

class TorchBackendTest : public ::testing::TestWithParam<const char*> {};

TEST_P(TorchBackendTest, GivesTheReferenceOutputsAndIntermediates) {
  if (!torch_available()) GTEST_SKIP() << "the torch family's workers or release are missing";
  // Small integers in f32: exact in every mode.
  Graph g = parse_rtg(
      "input x : f32[2,3]\ninput w : f32[3,2]\na = matmul(x, w)\nb = relu(a)\n"
      "c = add(b, b)\ny = neg(c)\nz = greater(a, b)\noutput y\noutput z\n",
      "test.rtg");
  infer_graph(g);
  RunRequest request{
      .graph = &g,
      .onnx = {},
      .inputs = {{"x", Tensor::from_doubles(DType::f32, {2, 3}, {1, -2, 3, 0, 4, -1})},
                 {"w", Tensor::from_doubles(DType::f32, {3, 2}, {2, -1, 1, 0, -3, 5})}},
      .outputs = {"a", "y", "z"}};
  BackendSet set;
  Backend& torch = set.get(GetParam());
  RunResult r = torch.run(request);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message << "\n" << r.stderr_tail;
  RunResult ref = RefBackend().run(request);
  // Equal values: the TensorExpr fuser may give +0.0 where the reference gives -0.0 (neg of 0).
  for (const char* name : {"a", "y", "z"}) {
    const Tensor& got = r.outputs.at(name);
    const Tensor& want = ref.outputs.at(name);
    ASSERT_EQ(got.type(), want.type()) << name;
    for (int64_t i = 0; i < got.numel(); ++i)
      EXPECT_EQ(got.get(i), want.get(i)) << name << "[" << i << "]";
  }
  // torch:eager runs in the Inductor worker of the same torch release, the TorchScript modes in
  // the TorchScript worker: each names itself, then the release.
  std::string version = torch.info().version;
  EXPECT_TRUE(version.starts_with("torch ") || version.starts_with("inductor ")) << version;
}

INSTANTIATE_TEST_SUITE_P(Modes, TorchBackendTest,
                         ::testing::Values("torch:eager", "torch:script-frozen", "torch:script-te"),
                         [](const auto& info) {
                           std::string name = std::string(info.param).substr(6);
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace retort
