// A backend that runs models in a worker process speaking docs/backend-protocol.md. The worker
// starts on the first run (and again after it died or was killed); whatever it does wrong comes
// back as a RunResult, never as an exception.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/backend/frame.h"
#include "core/backend/worker_process.h"

namespace retort {

inline constexpr double kDefaultWorkerTimeout = 30.0;

// How a worker backend is attached: what the session saves and restores.
struct BackendSpec {
  std::string name;                            // "ort:O3", or the name given to `backend attach`
  std::vector<std::string> argv;               // run directly, argv[0] looked up on PATH
  double timeout_s = kDefaultWorkerTimeout;    // per request (hello or run)
  std::map<std::string, std::string> options;  // sent in hello
  // A family mode whose device is missing here: why (its runs are `unsupported`, unsent).
  std::string unavailable{};
  // `backend use`: the Python environment it runs in and its versions; empty: Retort's own.
  std::string environment{};

  bool operator==(const BackendSpec&) const = default;
};

class WorkerBackend : public Backend {
 public:
  explicit WorkerBackend(BackendSpec spec);
  ~WorkerBackend() override;  // sends bye, then kills a worker that does not exit

  const BackendSpec& spec() const { return spec_; }
  BackendInfo info() const override;
  RunResult run(const RunRequest& request) override;
  ProgramSource program_source(const RunRequest& request) override;
  void begin_case(const CaseLimits& limits) override;
  CaseTrouble case_trouble() const override { return trouble_; }
  // Ends the worker (bye, then SIGKILL after a short grace); the next run starts a new one.
  void stop();
  // The worker's pid, or -1 when none runs (tests kill it to simulate a crash).
  int worker_pid() const;

 private:
  // Starts the worker and exchanges hello; returns false (with `result` filled) on failure. A
  // hello that times out is tried once more, then is the case's infrastructure trouble.
  bool ensure_started(RunResult& result);
  enum class Start { Ready, Failed, Slow };  // slow: hello timed out
  Start start_once(RunResult& result);
  // A request/response round trip. Throws WorkerFailure (timeout, closed) or Error (a response
  // that is not a frame or answers another id).
  Frame exchange(const Frame& request, std::optional<uint64_t> id);
  // Turns a failure of the worker into the result, kills it and records the error.
  void fail_worker(RunResult& result, RunStatus status, const std::string& message);
  RunResult run_started(const RunRequest& request);
  // A request of `type` ("run", "program") for the `computed` values of the request's graph:
  // the model, the inputs and the mutations the family applies.
  Frame model_frame(const char* type, uint64_t id, const RunRequest& request,
                    const std::vector<std::string>& computed) const;
  // When the request now sent must be answered: its timeout, or the case's deadline if sooner.
  Clock::time_point request_deadline() const;
  // The result of a request that missed request_deadline(): a `timeout`; true when the case's
  // deadline cut it rather than the backend's own timeout.
  bool timed_out(RunResult& result, const std::string& what);

  BackendSpec spec_;
  std::unique_ptr<WorkerProcess> process_;
  std::string version_;  // "NAME VERSION" from hello
  std::string state_ = "not started";
  std::string last_error_;
  uint64_t next_id_ = 1;
  CaseLimits limits_;
  CaseTrouble trouble_;
  int case_timeouts_ = 0;
};

}  // namespace retort
