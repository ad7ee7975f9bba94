// A backend worker for tests: it speaks docs/backend-protocol.md and runs models on the reference
// interpreter, and can misbehave on purpose.
//   --fault none|crash|hang|garbage|hostile|perturb   what to do on a run (default none)
//     crash: SIGKILL itself; hang: sleep forever; garbage: answer with bytes that are no frame;
//     hang-hello: sleep forever instead of answering hello (a worker slow to start);
//     hostile: answer with an error whose message (and stderr) holds terminal escape sequences,
//     a line break that would forge a line and 100 kB of text; and say hello with such a version;
//     perturb: add 1.0 to element 0 of every value produced by nodes of --perturb-op OP (a
//     Retort op name such as exp), like a miscompiled kernel;
//     bad-ops: answer a request for optimized_ops with a negative count and an escape sequence;
//     huge-program: answer a program request with a header over the frame limit (17 MiB).
//   A request with optimized_ops gets the op counts of the model as it came (no optimizer).
//   A program request gets the model as it came, as .rtg text (the program this worker runs),
//   and no constants.
//   --once PATH   misbehave only while PATH does not exist (the first fault creates it), so that
//                 the restarted worker behaves.
//   --stderr TEXT  write TEXT to stderr before each fault (crash reports show it).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "core/backend/frame.h"
#include "core/base/error.h"
#include "core/exec/interpreter.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"

namespace retort {
namespace {

struct Options {
  std::string fault = "none";
  std::string perturb_op;
  std::string once;
  std::string stderr_text;
};

struct EndOfInput {};

void read_stdin(char* dst, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = read(0, dst + done, n - done);
    if (got > 0) {
      done += static_cast<size_t>(got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      if (done == 0) throw EndOfInput{};
      fail("the request ends early");
    }
  }
}

void write_stdout(const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(1, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::exit(1);
    done += static_cast<size_t>(n);
  }
}

// True when this run should misbehave (and, with --once, marks that it did).
bool fault_now(const Options& o) {
  if (o.fault == "none") return false;
  if (o.once.empty()) return true;
  if (std::ifstream(o.once)) return false;
  std::ofstream(o.once) << "faulted\n";
  return true;
}

// Makes every value produced by a node of `op` come out 1.0 too large at element 0.
void perturb(Graph& g, const std::string& op) {
  std::vector<Node> added;
  std::vector<Constant> deltas;
  for (Node& n : g.nodes) {
    if (n.op != op) continue;
    for (std::string& out : n.outputs) {
      TensorType type = g.type_of(out);
      if (type.dtype == DType::boolean || numel(type.shape) == 0) continue;
      std::string wanted = out;
      out = fresh_value_name(g, wanted + "_raw");
      Tensor delta(type);
      delta.set(0, 1.0);
      std::string delta_name = fresh_value_name(g, wanted + "_delta");
      g.constants.push_back({delta_name, delta, ""});
      g.types[out] = type;
      g.types[delta_name] = type;
      added.push_back({.name = fresh_value_name(g, "perturb_" + wanted),
                       .op = "add",
                       .inputs = {out, delta_name},
                       .outputs = {wanted},
                       .attrs = {},
                       .opaque = std::nullopt});
    }
  }
  for (auto& n : added) g.nodes.push_back(std::move(n));
  infer_graph(g);
}

Frame run_model(const Frame& request, const Options& o, bool faulty) {
  const nlohmann::json& h = request.header;
  Frame reply;
  reply.header = {{"type", "result"}, {"id", h.at("id")}};
  try {
    Graph g = import_onnx(request.blobs.at(h.at("model").get<size_t>()), "model.onnx");
    if (h.value("optimized_ops", false)) {
      nlohmann::json ops = nlohmann::json::object();
      for (const Node& n : g.nodes) {
        const std::string& op_type = OpRegistry::instance().get(n.op).onnx.op_type;
        ops[op_type] = ops.value(op_type, 0) + 1;
      }
      if (faulty && o.fault == "bad-ops") ops = {{"\x1b]0;pwned\x07Relu", 1}, {"Neg", -2}};
      reply.header["optimized_ops"] = std::move(ops);
    }
    if (faulty && o.fault == "perturb") perturb(g, o.perturb_op);
    TensorMap inputs;
    for (const auto& entry : h.at("inputs")) inputs.insert(tensor_from_entry(entry, request));
    TensorMap values = evaluate(g, inputs, {.keep_intermediates = true});
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& name : h.at("outputs")) {
      auto it = values.find(name.get<std::string>());
      if (it == values.end()) fail("the model has no value named {}", name.dump());
      outputs.push_back(tensor_entry(it->first, it->second, reply));
    }
    reply.header["outputs"] = std::move(outputs);
  } catch (const OnnxUnsupported& e) {
    reply = {};
    reply.header = {
        {"type", "error"}, {"id", h.at("id")}, {"kind", "unsupported"}, {"message", e.what()}};
  } catch (const Error& e) {
    reply = {};
    reply.header = {
        {"type", "error"}, {"id", h.at("id")}, {"kind", "error"}, {"message", e.what()}};
  }
  return reply;
}

Frame program_of(const Frame& request) {
  const nlohmann::json& h = request.header;
  Frame reply;
  try {
    Graph g = import_onnx(request.blobs.at(h.at("model").get<size_t>()), "model.onnx");
    reply.header = {{"type", "program"},
                    {"id", h.at("id")},
                    {"source", print_rtg(g)},
                    {"consts", nlohmann::json::array()}};
  } catch (const Error& e) {
    reply.header = {
        {"type", "error"}, {"id", h.at("id")}, {"kind", "error"}, {"message", e.what()}};
  }
  return reply;
}

// A program answer whose header is over the frame limit, written as it is: encode_frame would
// refuse it, and the workbench's reader is what must.
std::string huge_program_answer(const Frame& request) {
  std::string header =
      nlohmann::json{{"type", "program"},
                     {"id", request.header.at("id")},
                     {"source", std::string(kMaxFrameHeaderBytes + (1 << 20), 'x')},
                     {"consts", nlohmann::json::array()},
                     {"blobs", nlohmann::json::array()}}
          .dump();
  uint32_t n = static_cast<uint32_t>(header.size());
  std::string out;
  for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  return out + header;
}

void misbehave(const Options& o) {
  if (!o.stderr_text.empty()) std::fprintf(stderr, "%s\n", o.stderr_text.c_str());
  std::fflush(stderr);
  if (o.fault == "crash") raise(SIGKILL);
  if (o.fault == "hang" || o.fault == "hang-hello")
    for (;;) pause();
  if (o.fault == "garbage") write_stdout("this is not a frame\n");
}

// Text meant to take over the terminal: set its title, clear it, forge a line.
const std::string kHostileText = "\x1b]0;pwned\x07\x1b[2J\r\nFORGED line\xc2\x9b";

// An error answer meant to take over the terminal, and flood it.
Frame hostile_answer(const Frame& request) {
  std::string text = kHostileText + std::string(100000, 'A') + "END";
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  Frame reply;
  reply.header = {
      {"type", "error"}, {"id", request.header.at("id")}, {"kind", "error"}, {"message", text}};
  return reply;
}

int serve(const Options& o) {
  for (;;) {
    Frame request;
    try {
      request = read_frame(read_stdin);
    } catch (const EndOfInput&) {
      return 0;
    }
    std::string type = request.header.value("type", "");
    if (type == "bye") return 0;
    Frame reply;
    if (type == "hello") {
      if (o.fault == "hang-hello" && fault_now(o)) misbehave(o);
      reply.header = {{"type", "hello"},
                      {"name", "retort-fault-worker"},
                      {"version", o.fault == "hostile" ? "1" + kHostileText : "1"},
                      {"options", request.header.value("options", nlohmann::json::object())}};
    } else if (type == "run") {
      bool faulty = o.fault != "hang-hello" && o.fault != "huge-program" && fault_now(o);
      if (faulty && o.fault == "hostile") {
        write_stdout(encode_frame(hostile_answer(request)));
        continue;
      }
      if (faulty && o.fault != "perturb" && o.fault != "bad-ops") {
        misbehave(o);
        continue;
      }
      reply = run_model(request, o, faulty);
    } else if (type == "program") {
      if (o.fault == "huge-program" && fault_now(o)) {
        write_stdout(huge_program_answer(request));
        continue;
      }
      reply = program_of(request);
    } else {
      reply.header = {{"type", "error"}, {"kind", "error"}, {"message", "unknown request " + type}};
    }
    write_stdout(encode_frame(reply));
  }
}

}  // namespace
}  // namespace retort

int main(int argc, char** argv) {
  retort::Options o;
  // Every option takes a value: the arguments come in pairs.
  for (int i = 1; i < argc; i += 2) {
    std::string arg = argv[i];
    std::string value = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--fault")
      o.fault = value;
    else if (arg == "--perturb-op")
      o.perturb_op = value;
    else if (arg == "--once")
      o.once = value;
    else if (arg == "--stderr")
      o.stderr_text = value;
    else {
      std::fprintf(stderr, "retort_fault_worker: unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  const char* faults[] = {"none",    "crash",      "hang",    "garbage",     "hostile",
                          "perturb", "hang-hello", "bad-ops", "huge-program"};
  if (std::find(std::begin(faults), std::end(faults), o.fault) == std::end(faults) ||
      (o.fault == "perturb" && o.perturb_op.empty())) {
    std::fprintf(stderr, "retort_fault_worker: bad --fault %s (or perturb without --perturb-op)\n",
                 o.fault.c_str());
    return 2;
  }
  try {
    return retort::serve(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "retort_fault_worker: %s\n", e.what());
    return 1;
  }
}
