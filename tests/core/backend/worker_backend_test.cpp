#include "core/backend/worker_backend.h"

#include <signal.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "core/backend/ref_backend.h"
#include "core/base/terminal_text.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

const char* kGraph = "input x : f32[2,3]\nt = exp(x)\ny = add(t, x)\noutput y\n";

class WorkerBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = parse_rtg(kGraph, "test.rtg");
    infer_graph(graph_);
    request_ = {.graph = &graph_,
                .onnx = {},
                .inputs = {{"x", Tensor::from_doubles(DType::f32, {2, 3}, {0, 1, -1, 0.5, 2, 3})}},
                .outputs = {}};
    dir_ = fs::temp_directory_path() /
           fmt::format("retort_worker_test_{}_{}", getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A worker that misbehaves on its first run only.
  BackendSpec faulty(const std::string& fault, double timeout_s = 30) {
    return {.name = "fault",
            .argv = {RETORT_FAULT_WORKER, "--fault", fault, "--once", (dir_ / "faulted").string(),
                     "--stderr", "about to " + fault},
            .timeout_s = timeout_s,
            .options = {{"k", "v"}}};
  }

  void expect_reference_result(const RunResult& r) {
    ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
    RunResult ref = RefBackend().run(request_);
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs.at("y"), ref.outputs.at("y"));
  }

  Graph graph_;
  RunRequest request_;
  fs::path dir_;
};

TEST_F(WorkerBackendTest, RunsLikeTheReference) {
  WorkerBackend w({.name = "w", .argv = {RETORT_FAULT_WORKER}, .timeout_s = 30, .options = {}});
  EXPECT_EQ(w.info().state, "not started");
  expect_reference_result(w.run(request_));
  BackendInfo info = w.info();
  EXPECT_EQ(info.state, "ready");
  EXPECT_EQ(info.version, "retort-fault-worker 1");
  EXPECT_EQ(info.kind, "worker");
  expect_reference_result(w.run(request_));  // the same warm worker again
}

TEST_F(WorkerBackendTest, ReturnsRequestedIntermediates) {
  WorkerBackend w({.name = "w", .argv = {RETORT_FAULT_WORKER}, .timeout_s = 30, .options = {}});
  request_.outputs = {"x", "t", "y"};  // an input comes back too, without asking the worker
  RunResult r = w.run(request_);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  RunResult ref = RefBackend().run(request_);
  EXPECT_EQ(r.outputs.size(), 3u);
  EXPECT_EQ(r.outputs.at("x"), request_.inputs.at("x"));
  EXPECT_EQ(r.outputs.at("t"), ref.outputs.at("t"));
  EXPECT_EQ(r.outputs.at("y"), ref.outputs.at("y"));
}

TEST_F(WorkerBackendTest, AnUnknownValueIsAnErrorResult) {
  WorkerBackend w({.name = "w", .argv = {RETORT_FAULT_WORKER}, .timeout_s = 30, .options = {}});
  request_.outputs = {"nope"};
  RunResult r = w.run(request_);
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("nope"), std::string::npos);
}

TEST_F(WorkerBackendTest, ACrashIsAResultAndTheNextRunRestarts) {
  WorkerBackend w(faulty("crash"));
  RunResult r = w.run(request_);
  EXPECT_EQ(r.status, RunStatus::Crash);
  EXPECT_NE(r.message.find("killed by signal 9"), std::string::npos) << r.message;
  EXPECT_NE(r.stderr_tail.find("about to crash"), std::string::npos) << r.stderr_tail;
  EXPECT_EQ(w.info().state, "dead");
  EXPECT_EQ(w.info().last_error, r.message);
  expect_reference_result(w.run(request_));
}

TEST_F(WorkerBackendTest, AHostileMessageAndStderrAreMadeSafeToPrint) {
  WorkerBackend w(faulty("hostile"));
  RunResult r = w.run(request_);
  EXPECT_EQ(r.status, RunStatus::Error);
  for (const std::string& text : {r.message, r.stderr_tail, w.info().last_error}) {
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text.substr(0, 80);
    EXPECT_EQ(text.find('\r'), std::string::npos);
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos);  // the one-character CSI
    EXPECT_LE(text.size(), 10000u);
  }
  EXPECT_NE(r.message.find("\\x1b]0;pwned\\x07"), std::string::npos) << r.message.substr(0, 80);
  EXPECT_NE(r.message.find("bytes left out"), std::string::npos);
  EXPECT_NE(r.message.find("AEND"), std::string::npos);
  // Issue 43: a message and a version are printed on a line (a report's, `backend list`'s),
  // where a newline in them would forge the next one.
  for (const std::string& line : {r.message, w.info().last_error, w.info().version})
    EXPECT_EQ(line.find('\n'), std::string::npos) << line.substr(0, 80);
  EXPECT_NE(w.info().version.find("1\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x0aFORGED line"),
            std::string::npos)
      << w.info().version;
  expect_reference_result(w.run(request_));
}

// OATest's trigger check asks for the ops of the optimized graph; a worker that sends nonsense
// there gets an error result, its op names are made safe to print.
TEST_F(WorkerBackendTest, ReportsTheOptimizedOpsWhenAsked) {
  WorkerBackend w(faulty("bad-ops"));
  request_.optimized_ops = true;
  RunResult bad = w.run(request_);
  EXPECT_EQ(bad.status, RunStatus::Error);
  EXPECT_NE(bad.message.find("optimized_ops"), std::string::npos) << bad.message;
  EXPECT_EQ(bad.message.find('\x1b'), std::string::npos);
  RunResult r = w.run(request_);
  expect_reference_result(r);
  ASSERT_TRUE(r.optimized_ops);
  EXPECT_EQ(*r.optimized_ops, (std::map<std::string, int64_t>{{"Exp", 1}, {"Add", 1}}));
  request_.optimized_ops = false;
  EXPECT_FALSE(w.run(request_).optimized_ops);
}

TEST_F(WorkerBackendTest, AHangIsATimeoutAndTheNextRunRestarts) {
  WorkerBackend w(faulty("hang", 0.5));
  RunResult r = w.run(request_);
  EXPECT_EQ(r.status, RunStatus::Timeout);
  EXPECT_NE(r.message.find("0.5 s"), std::string::npos) << r.message;
  EXPECT_NE(r.stderr_tail.find("about to hang"), std::string::npos) << r.stderr_tail;
  expect_reference_result(w.run(request_));
}

TEST_F(WorkerBackendTest, GarbageIsAnErrorAndTheNextRunRestarts) {
  WorkerBackend w(faulty("garbage"));
  RunResult r = w.run(request_);
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("malformed"), std::string::npos) << r.message;
  expect_reference_result(w.run(request_));
}

TEST_F(WorkerBackendTest, AWorkerThatDiedWhileIdleIsStartedAgain) {
  WorkerBackend w({.name = "w", .argv = {RETORT_FAULT_WORKER}, .timeout_s = 30, .options = {}});
  expect_reference_result(w.run(request_));
  int pid = w.worker_pid();
  ASSERT_GT(pid, 0);
  kill(pid, SIGKILL);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT),
            0);  // dead, not reaped
  expect_reference_result(w.run(request_));
  EXPECT_NE(w.worker_pid(), pid);
  EXPECT_EQ(w.info().last_error,
            "the worker was killed by signal 9 (Killed) while idle; started it again");
}

TEST_F(WorkerBackendTest, PerturbChangesTheValuesOfOneOp) {
  WorkerBackend w({.name = "w",
                   .argv = {RETORT_FAULT_WORKER, "--fault", "perturb", "--perturb-op", "exp"},
                   .timeout_s = 30,
                   .options = {}});
  request_.outputs = {"t", "y"};
  RunResult r = w.run(request_);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  RunResult ref = RefBackend().run(request_);
  EXPECT_EQ(r.outputs.at("t").get(0), ref.outputs.at("t").get(0) + 1.0);
  EXPECT_EQ(r.outputs.at("t").get(1), ref.outputs.at("t").get(1));
  EXPECT_EQ(r.outputs.at("y").get(0), ref.outputs.at("y").get(0) + 1.0);
}

// A generated program becomes a reproducer's model_a.py: it must arrive whole, however much
// longer than a message it is (it was once cut at 2000 bytes, into a file Python cannot read).
TEST_F(WorkerBackendTest, AProgramArrivesWhole) {
  std::string text = "input x : f32[2,3]\nt0 = exp(x)\n";
  for (int i = 1; i < 200; ++i) text += fmt::format("t{} = add(t{}, x)\n", i, i - 1);
  text += "output t199\n";
  Graph big = parse_rtg(text, "big.rtg");
  infer_graph(big);
  request_.graph = &big;
  WorkerBackend w({.name = "w", .argv = {RETORT_FAULT_WORKER}, .timeout_s = 30, .options = {}});
  ProgramSource program = w.program_source(request_);
  EXPECT_GT(program.text.size(), 2 * kWorkerMessageBytes);
  EXPECT_EQ(program.text, print_rtg(big));
}

// Beyond the frame limit a program is an error, never a file cut short.
TEST_F(WorkerBackendTest, AProgramOverTheFrameLimitIsAnError) {
  WorkerBackend w({.name = "w",
                   .argv = {RETORT_FAULT_WORKER, "--fault", "huge-program"},
                   .timeout_s = 30,
                   .options = {}});
  try {
    w.program_source(request_);
    ADD_FAILURE() << "a program over the frame limit was taken";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("wrote no program: malformed frame: a header length of"),
              std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("over the limit of 16 MiB"), std::string::npos) << e.message();
  }
}

// A missing environment is Retort's set-up failing, not the compiler crashing: an error, which a
// campaign records as the case's error, never as a crash finding.
TEST_F(WorkerBackendTest, AMissingProgramIsAnErrorNotACrash) {
  WorkerBackend w(
      {.name = "w", .argv = {(dir_ / "no_such_worker").string()}, .timeout_s = 30, .options = {}});
  try {
    w.run(request_);
    ADD_FAILURE() << "a worker that cannot start gave a result";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("backend w: cannot start its worker"), std::string::npos)
        << e.message();
  }
  EXPECT_EQ(w.info().state, "failed to start");
}

TEST_F(WorkerBackendTest, AWorkerThatExitsAtStartIsACrashWithItsStderr) {
  WorkerBackend w(
      {.name = "w", .argv = {RETORT_FAULT_WORKER, "--bogus", "x"}, .timeout_s = 30, .options = {}});
  RunResult r = w.run(request_);
  EXPECT_EQ(r.status, RunStatus::Crash);
  EXPECT_NE(r.message.find("exited with status 2"), std::string::npos) << r.message;
  EXPECT_NE(r.stderr_tail.find("unknown argument --bogus"), std::string::npos) << r.stderr_tail;
}

}  // namespace
}  // namespace retort
