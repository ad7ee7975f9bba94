// A deliberately wrong backend for the compare tests: it runs the reference and adds 1.0 to
// element 0 of the listed values (a miscompiled kernel and everything computed from it).
#pragma once

#include <set>
#include <string>

#include "core/backend/ref_backend.h"

namespace retort {

class WrongBackend : public Backend {
 public:
  WrongBackend(std::string name, std::set<std::string> wrong_values)
      : name_(std::move(name)), wrong_(std::move(wrong_values)) {}
  BackendInfo info() const override {
    BackendInfo i = ref_.info();
    i.name = name_;
    i.kind = "worker";
    return i;
  }
  RunResult run(const RunRequest& request) override {
    RunResult r = ref_.run(request);
    for (auto& [name, t] : r.outputs)
      if (wrong_.count(name)) t.set(0, t.get(0) + 1.0);
    return r;
  }

 private:
  std::string name_;
  std::set<std::string> wrong_;
  RefBackend ref_;
};

// A backend that fails every run with a fixed status.
class FailingBackend : public Backend {
 public:
  FailingBackend(std::string name, RunStatus status) : name_(std::move(name)), status_(status) {}
  BackendInfo info() const override {
    BackendInfo i;
    i.name = name_;
    i.kind = "worker";
    return i;
  }
  RunResult run(const RunRequest&) override {
    RunResult r;
    r.status = status_;
    r.message = "test failure";
    return r;
  }

 private:
  std::string name_;
  RunStatus status_;
};

}  // namespace retort
