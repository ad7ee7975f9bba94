// A deliberately wrong backend for the compare tests: it runs the reference and adds 1.0 to
// element 0 of the listed values (a miscompiled kernel and everything computed from it).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/backend/ref_backend.h"
#include "core/compare/precision.h"

namespace retort {

// The reference under a worker's name: the test backends below change what it gives.
class NamedRefBackend : public Backend {
 public:
  explicit NamedRefBackend(std::string name) : name_(std::move(name)) {}
  BackendInfo info() const override {
    BackendInfo i = ref_.info();
    i.name = name_;
    i.kind = "worker";
    return i;
  }
  RunResult run(const RunRequest& request) override { return ref_.run(request); }

 protected:
  std::string name_;
  RefBackend ref_;
};

class WrongBackend : public NamedRefBackend {
 public:
  WrongBackend(std::string name, std::set<std::string> wrong_values)
      : NamedRefBackend(std::move(name)), wrong_(std::move(wrong_values)) {}
  RunResult run(const RunRequest& request) override {
    RunResult r = ref_.run(request);
    for (auto& [name, t] : r.outputs)
      if (wrong_.count(name)) t.set(0, t.get(0) + 1.0);
    return r;
  }

 private:
  std::set<std::string> wrong_;
};

// A backend whose kernels of some ops are wrong: the reference with a delta added to element 0
// of every result of each listed op (NaN makes it NaN), and everything computed from it.
class WrongOpBackend : public NamedRefBackend {
 public:
  WrongOpBackend(std::string name, std::map<std::string, double> deltas)
      : NamedRefBackend(std::move(name)), deltas_(std::move(deltas)) {}
  RunResult run(const RunRequest& request) override {
    RunResult r;
    EvalOptions wrong{.adjust = [this](const Node& n, const std::vector<const Tensor*>&,
                                       std::vector<Tensor>& results) {
      auto delta = deltas_.find(n.op);
      if (delta != deltas_.end() && results[0].numel() > 0)
        results[0].set(0, results[0].get(0) + delta->second);
    }};
    r.outputs = evaluate(*request.graph, request.inputs, wrong);
    return r;
  }

 private:
  std::map<std::string, double> deltas_;
};

// A backend that runs the reference and gives the listed outputs the listed values instead: a
// compiler's result known from a real case.
class ValuesBackend : public NamedRefBackend {
 public:
  ValuesBackend(std::string name, TensorMap values)
      : NamedRefBackend(std::move(name)), values_(std::move(values)) {}
  RunResult run(const RunRequest& request) override {
    RunResult r = ref_.run(request);
    for (const auto& [name, t] : values_) r.outputs.insert_or_assign(name, t);
    return r;
  }

 private:
  TensorMap values_;
};

// A backend whose first run adds 1.0 to element 0 of one output and whose later runs are right:
// the same run giving other values when repeated.
class FlakyBackend : public NamedRefBackend {
 public:
  // every_run: wrong by another amount each run (a kernel reading uninitialised memory).
  FlakyBackend(std::string name, std::string output, bool every_run = false)
      : NamedRefBackend(std::move(name)), output_(std::move(output)), every_run_(every_run) {}
  RunResult run(const RunRequest& request) override {
    RunResult r = ref_.run(request);
    if (runs_++ == 0 || every_run_)
      for (auto& [name, t] : r.outputs)
        if (name == output_) t.set(0, t.get(0) + static_cast<double>(runs_));
    return r;
  }
  size_t runs() const { return runs_; }

 private:
  std::string output_;
  bool every_run_;
  size_t runs_ = 0;
};

// A backend that evaluates every float op narrower than `to` in `to` and rounds only the outputs
// to their declared dtypes, and the inputs of explicit casts up (widened_graph): a compiler that
// skips intermediate roundings (ONNX Runtime computes f16 math in f32). With `only_with_node`, only
// graphs that have a node of that name run wide, as when a compiler fuses the ops of one graph and
// not those of an equivalent one.
class WideBackend : public NamedRefBackend {
 public:
  explicit WideBackend(std::string name, DType to = DType::f64, std::string only_with_node = "")
      : NamedRefBackend(std::move(name)), to_(to), only_with_(std::move(only_with_node)) {}
  RunResult run(const RunRequest& request) override {
    std::optional<Graph> wide = widened_graph(*request.graph, to_);
    if (!wide || (!only_with_.empty() && !request.graph->find_node(only_with_)))
      return ref_.run(request);
    RunResult r;
    TensorMap values = evaluate(*wide, widen_inputs(*wide, request.inputs));
    for (const auto& o : request.graph->outputs)
      r.outputs.emplace(o, values.at(o).cast(request.graph->types.at(o).dtype));
    return r;
  }

 private:
  DType to_;
  std::string only_with_;
};

// A backend that fails every run with a fixed status.
class FailingBackend : public Backend {
 public:
  FailingBackend(std::string name, RunStatus status, std::string message = "test failure")
      : name_(std::move(name)), status_(status), message_(std::move(message)) {}
  BackendInfo info() const override {
    BackendInfo i;
    i.name = name_;
    i.kind = "worker";
    return i;
  }
  RunResult run(const RunRequest&) override {
    RunResult r;
    r.status = status_;
    r.message = message_;
    return r;
  }

 private:
  std::string name_;
  RunStatus status_;
  std::string message_;
};

}  // namespace retort
