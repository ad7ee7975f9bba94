#include "core/backend/worker_backend.h"

#include <algorithm>
#include <set>

#include "core/backend/family.h"
#include "core/base/terminal_text.h"
#include "core/graph/graph_dot.h"
#include "core/io/onnx_io.h"

namespace retort {

namespace {

using nlohmann::json;

constexpr auto kByeGrace = std::chrono::milliseconds(500);
constexpr auto kExitGrace = std::chrono::milliseconds(1000);

Clock::time_point deadline_after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// The values to return, each once: the requested ones, or the graph outputs. `inspect` asks for
// one value several times when several values of the other graph share its e-class, and a model
// that lists an output twice is invalid.
std::vector<std::string> wanted_outputs(const RunRequest& request) {
  const std::vector<std::string>& asked =
      request.outputs.empty() ? request.graph->outputs : request.outputs;
  std::vector<std::string> once;
  std::set<std::string> seen;
  for (const auto& v : asked)
    if (seen.insert(v).second) once.push_back(v);
  return once;
}

// The value of a graph input or constant, which the workbench knows without asking the worker
// (an ONNX graph output may not name an initializer); null for values that nodes compute.
const Tensor* known_value(const RunRequest& request, const std::string& name) {
  if (const Constant* c = request.graph->find_constant(name)) return &c->value;
  if (request.graph->find_input(name)) {
    auto it = request.inputs.find(name);
    if (it == request.inputs.end()) fail("no value was given for the input '{}'", name);
    return &it->second;
  }
  return nullptr;
}

// The model to send: the caller's export when it already has every wanted value as an output,
// else an export of a copy of the graph with the missing ones marked as outputs.
std::string model_bytes(const RunRequest& request, const std::vector<std::string>& computed) {
  const Graph& g = *request.graph;
  auto is_output = [&](const std::string& v) {
    return std::find(g.outputs.begin(), g.outputs.end(), v) != g.outputs.end();
  };
  if (std::all_of(computed.begin(), computed.end(), is_output))
    return request.onnx.empty() ? export_onnx(g) : request.onnx;
  Graph marked = g;
  for (const auto& v : computed)
    if (!is_output(v)) marked.outputs.push_back(v);
  // A value inside a call becomes one of its results; calls of the same function that no longer
  // return alike are inlined (core/graph/functions.h).
  drop_broken_calls(marked);
  return export_onnx(marked);
}

// Every text a worker sends enters here (and its stderr in WorkerProcess::stderr_tail): made
// safe to print, since messages reach the terminal.
std::string text_member(const json& header, const char* key) {
  auto it = header.find(key);
  if (it == header.end() || !it->is_string()) return {};
  return terminal_safe(it->get_ref<const std::string&>(), kWorkerMessageBytes);
}

// A worker's message, name or version: one line (its newlines shown as \x0a), since it is
// printed on a line of a report, of an error or of `backend list`, where a newline would forge
// the next one.
std::string line_member(const json& header, const char* key) {
  return terminal_name(text_member(header, key));
}

// A result's optimized_ops: op names (made safe to print, as all worker text) to counts.
std::map<std::string, int64_t> optimized_ops_from(const json& ops) {
  constexpr size_t kMaxOps = 10000;  // distinct op names; a real graph has a few dozen
  if (!ops.is_object() || ops.size() > kMaxOps)
    fail("'optimized_ops' is not an object of at most {} op counts", kMaxOps);
  std::map<std::string, int64_t> out;
  for (const auto& [op, count] : ops.items()) {
    if (!count.is_number_integer() || count.get<int64_t>() < 0)
      fail("'optimized_ops' has a count that is no non-negative integer");
    out[terminal_name(op)] += count.get<int64_t>();
  }
  return out;
}

}  // namespace

WorkerBackend::WorkerBackend(BackendSpec spec) : spec_(std::move(spec)) {}

WorkerBackend::~WorkerBackend() {
  stop();
}

BackendInfo WorkerBackend::info() const {
  return {.name = spec_.name,
          .kind = "worker",
          .version = version_,
          .options = spec_.options,
          .state = spec_.unavailable.empty() ? state_ : "unavailable",
          .last_error = last_error_,
          .unavailable = spec_.unavailable,
          .environment = spec_.environment};
}

int WorkerBackend::worker_pid() const {
  return process_ && !process_->exited() ? process_->pid() : -1;
}

void WorkerBackend::stop() {
  if (!process_) return;
  try {
    Frame bye;
    bye.header = {{"type", "bye"}};
    process_->write_all(encode_frame(bye), Clock::now() + kByeGrace);
  } catch (const Error&) {
    // A worker that cannot take "bye" is killed below all the same.
  }
  process_->close_stdin();
  process_->wait_exit(Clock::now() + kByeGrace);
  process_.reset();
  state_ = "not started";
}

Frame WorkerBackend::exchange(const Frame& request, std::optional<uint64_t> id) {
  Clock::time_point deadline = request_deadline();
  process_->write_all(encode_frame(request), deadline);
  Frame response = read_frame([&](char* dst, size_t n) { process_->read_exact(dst, n, deadline); });
  if (id) {
    auto it = response.header.find("id");
    if (it == response.header.end() || !it->is_number_integer() || it->get<uint64_t>() != *id)
      fail("the worker answered request {} with a response for {}", *id,
           it == response.header.end() ? "no id" : it->dump());
  }
  return response;
}

void WorkerBackend::fail_worker(RunResult& result, RunStatus status, const std::string& message) {
  result.status = status;
  result.outputs.clear();
  result.message = message;
  if (process_) {
    process_->kill();
    result.stderr_tail = process_->stderr_tail();
    process_.reset();
  }
  state_ = "dead";
  last_error_ = message;
}

Clock::time_point WorkerBackend::request_deadline() const {
  Clock::time_point own = deadline_after(spec_.timeout_s);
  return limits_.deadline ? std::min(own, *limits_.deadline) : own;
}

bool WorkerBackend::timed_out(RunResult& result, const std::string& what) {
  if (limits_.deadline && Clock::now() >= *limits_.deadline) {
    trouble_.cut = true;
    fail_worker(result, RunStatus::Timeout,
                fmt::format("{}: stopped at the campaign's deadline; killed the worker", what));
    return true;
  }
  fail_worker(result, RunStatus::Timeout,
              fmt::format("{} within {} s; killed the worker", what, spec_.timeout_s));
  return false;
}

void WorkerBackend::begin_case(const CaseLimits& limits) {
  limits_ = limits;
  trouble_ = {};
  case_timeouts_ = 0;
}

WorkerBackend::Start WorkerBackend::start_once(RunResult& result) {
  try {
    process_ = std::make_unique<WorkerProcess>(spec_.argv);
  } catch (const Error& e) {
    // A program that is not there (a family whose environment is missing, a wrong path) is a
    // fault of the set-up, not of the compiler: an error, never a crash finding.
    state_ = "failed to start";
    fail("backend {}: cannot start its worker: {}", spec_.name, e.message());
  }
  Frame hello;
  hello.header = {{"type", "hello"}, {"options", spec_.options}};
  try {
    Frame answer = exchange(hello, std::nullopt);
    std::string type = line_member(answer.header, "type");
    if (type == "error") {
      // `unsupported`: the worker cannot run this mode here (a device its framework lacks).
      fail_worker(
          result,
          text_member(answer.header, "kind") == "unsupported" ? RunStatus::Unsupported
                                                              : RunStatus::Error,
          fmt::format("the worker refused hello: {}", line_member(answer.header, "message")));
      return Start::Failed;
    }
    if (type != "hello") fail("the worker answered hello with a '{}' frame", type);
    std::string name = line_member(answer.header, "name");
    std::string version = line_member(answer.header, "version");
    version_ = name.empty() ? version : version.empty() ? name : name + " " + version;
    state_ = "ready";
    return Start::Ready;
  } catch (const WorkerFailure& e) {
    if (e.kind() == WorkerFailure::Kind::Timeout) {
      timed_out(result, "the worker did not answer hello");
      return Start::Slow;
    }
    std::string how = process_->wait_exit(Clock::now() + kExitGrace);
    fail_worker(result, RunStatus::Crash, fmt::format("the worker {} at start-up", how));
  } catch (const std::exception& e) {
    fail_worker(result, RunStatus::Error,
                fmt::format("the worker's answer to hello is not valid: {}; killed it",
                            terminal_name(e.what())));
  }
  return Start::Failed;
}

bool WorkerBackend::ensure_started(RunResult& result) {
  if (process_ && !process_->poll_exit()) return true;
  if (process_) {
    // It died between runs: not this model's doing, so start a new one and say so only here.
    last_error_ = fmt::format("the worker {} while idle; started it again",
                              process_->wait_exit(Clock::now()));
    process_.reset();
  }
  // No model has been sent yet, so a slow hello is the machine's load (or a broken environment),
  // never the compiler's bug: one more try, then it is an infrastructure problem of the case.
  Start start = start_once(result);
  if (start == Start::Slow && !trouble_.cut) {
    start = start_once(result);
    if (start == Start::Slow && !trouble_.cut) {
      result.message = fmt::format("the worker did not answer hello within {} s, twice; killed it",
                                   spec_.timeout_s);
      last_error_ = trouble_.infrastructure = result.message;
    }
  }
  return start == Start::Ready;
}

Frame WorkerBackend::model_frame(const char* type, uint64_t id, const RunRequest& request,
                                 const std::vector<std::string>& computed) const {
  Frame frame;
  frame.header = {
      {"type", type}, {"id", id}, {"model", frame.add_blob(model_bytes(request, computed))}};
  json inputs = json::array();
  for (const auto& in : request.graph->inputs) {
    auto it = request.inputs.find(in.name);
    if (it != request.inputs.end()) inputs.push_back(tensor_entry(in.name, it->second, frame));
  }
  frame.header["inputs"] = std::move(inputs);
  frame.header["outputs"] = computed;
  json mutations = json::array();
  for (const ProgramMutation& m : request.mutations)
    if (applies_mutation(spec_.name, m.kind))
      mutations.push_back({{"kind", m.kind}, {"seed", m.seed}});
  if (!mutations.empty()) frame.header["mutations"] = std::move(mutations);
  return frame;
}

ProgramSource WorkerBackend::program_source(const RunRequest& request) {
  RunResult started;
  if (!spec_.unavailable.empty()) fail("{} is unavailable here: {}", spec_.name, spec_.unavailable);
  if (!ensure_started(started)) fail("{}: {}", spec_.name, started.message);
  uint64_t id = next_id_++;
  Frame answer;
  try {
    answer = exchange(model_frame("program", id, request, wanted_outputs(request)), id);
  } catch (const std::exception& e) {  // a timeout, a closed pipe, a malformed frame
    std::string why = terminal_name(e.what());
    RunResult failed;
    fail_worker(failed, RunStatus::Error, "no program: " + why);
    fail("{}: the worker wrote no program: {}", spec_.name, why);
  }
  std::string type = line_member(answer.header, "type");
  if (type == "error")
    fail("{} cannot write its program: {}", spec_.name, line_member(answer.header, "message"));
  if (type != "program") fail("{} answered a program request with a '{}' frame", spec_.name, type);
  ProgramSource program;
  // The source is taken whole, never through text_member's cut for messages: it becomes a file
  // that must run. Its size is bounded by the frame header's (kMaxFrameHeaderBytes).
  if (auto source = answer.header.find("source");
      source != answer.header.end() && source->is_string())
    program.text = source->get<std::string>();
  // The text becomes a file a person runs: only what the workers generate (ASCII identifiers,
  // literals, repr'd strings), never a byte that could hide a line from its reader.
  bool plain = std::all_of(program.text.begin(), program.text.end(),
                           [](char c) { return c == '\n' || (c >= 0x20 && c < 0x7f); });
  if (program.text.empty() || !plain)
    fail("{} wrote a program that is not plain ASCII text", spec_.name);
  auto consts = answer.header.find("consts");
  if (consts == answer.header.end() || !consts->is_array())
    fail("{}'s program names no 'consts'", spec_.name);
  for (const json& entry : *consts) program.consts.push_back(tensor_from_entry(entry, answer));
  return program;
}

RunResult WorkerBackend::run_started(const RunRequest& request) {
  RunResult result;
  std::vector<std::string> wanted = wanted_outputs(request);
  std::vector<std::string> computed;  // the wanted values that the worker computes
  Frame frame;
  uint64_t id = next_id_++;
  for (const auto& name : wanted) {
    if (request.graph->defines(name)) continue;
    result.status = RunStatus::Error;
    result.message = fmt::format("the graph has no value named '{}'", name);
    return result;
  }
  try {
    for (const auto& name : wanted) {
      if (const Tensor* value = known_value(request, name))
        result.outputs.emplace(name, *value);
      else
        computed.push_back(name);
    }
    frame = model_frame("run", id, request, computed);
    if (request.optimized_ops) frame.header["optimized_ops"] = true;
    if (request.want_program) frame.header["program"] = true;
  } catch (const Error& e) {
    // Retort could not make the model (an export the ONNX checker rejects): the compiler never
    // saw it, so this is no finding against it.
    result.status = RunStatus::Unsupported;
    result.outputs.clear();
    result.message = fmt::format("Retort cannot send the model: {}", e.message());
    return result;
  }
  try {
    Frame answer = exchange(frame, id);
    std::string type = line_member(answer.header, "type");
    if (type == "error") {
      std::string kind = text_member(answer.header, "kind");
      result.status = kind == "unsupported" ? RunStatus::Unsupported : RunStatus::Error;
      result.outputs.clear();
      // The worker's compiler names nodes as the exported model does; the user reads the panes.
      result.message = with_node_titles(line_member(answer.header, "message"), *request.graph);
      result.stderr_tail = with_node_titles(process_->stderr_tail(), *request.graph);
      last_error_ = result.message;
      return result;
    }
    if (type != "result") fail("the worker answered a run with a '{}' frame", type);
    auto found = answer.header.find("outputs");
    if (found == answer.header.end()) fail("the result has no 'outputs'");
    const json& outputs = *found;
    if (!outputs.is_array()) fail("'outputs' is not an array");
    for (const json& entry : outputs) {
      auto [name, value] = tensor_from_entry(entry, answer);
      if (std::find(computed.begin(), computed.end(), name) != computed.end())
        result.outputs.insert_or_assign(name, std::move(value));
    }
    for (const auto& name : computed)
      if (!result.outputs.count(name)) fail("the result lacks the output '{}'", name);
    for (auto [key, field] :
         {std::pair{"compile_ms", &result.compile_ms}, std::pair{"run_ms", &result.run_ms}}) {
      auto it = answer.header.find(key);
      if (it != answer.header.end() && it->is_number() && it->get<double>() >= 0)
        *field = it->get<double>();
    }
    if (auto it = answer.header.find("optimized_ops"); it != answer.header.end())
      result.optimized_ops = optimized_ops_from(*it);
    if (auto it = answer.header.find("program"); it != answer.header.end() && it->is_string())
      result.program = terminal_safe(it->get_ref<const std::string&>(), kWorkerProgramBytes);
  } catch (const WorkerFailure& e) {
    if (e.kind() == WorkerFailure::Kind::Timeout) {
      if (!timed_out(result, "no answer")) ++case_timeouts_;
    } else {
      std::string how = process_->wait_exit(Clock::now() + kExitGrace);
      fail_worker(result, RunStatus::Crash, fmt::format("the worker {} during the run", how));
      result.stderr_tail = with_node_titles(result.stderr_tail, *request.graph);
    }
  } catch (const std::exception& e) {
    fail_worker(result, RunStatus::Error,
                fmt::format("malformed response: {}; killed the worker", terminal_name(e.what())));
  }
  return result;
}

RunResult WorkerBackend::run(const RunRequest& request) {
  auto start = Clock::now();
  RunResult result;
  if (!spec_.unavailable.empty()) {
    result.status = RunStatus::Unsupported;
    result.message = "unavailable here: " + spec_.unavailable;
  } else if (limits_.deadline && start >= *limits_.deadline) {
    trouble_.cut = true;
    result.status = RunStatus::Timeout;
    result.message = "not run: the campaign's deadline has passed";
  } else if (limits_.timeouts && !trouble_.infrastructure.empty()) {
    result.status = RunStatus::Timeout;
    result.message = "not run: " + trouble_.infrastructure;
  } else if (limits_.timeouts && case_timeouts_ >= *limits_.timeouts) {
    result.status = RunStatus::Timeout;
    result.message = fmt::format("not run: the worker timed out {} times in this case (each {} s)",
                                 case_timeouts_, spec_.timeout_s);
  } else if (ensure_started(result)) {
    result = run_started(request);
  }
  result.millis = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return result;
}

}  // namespace retort
