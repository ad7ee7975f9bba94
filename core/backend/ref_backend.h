// The reference interpreter as a backend, run in process.
#pragma once

#include "core/backend/backend.h"

namespace retort {

class RefBackend : public Backend {
 public:
  BackendInfo info() const override;
  RunResult run(const RunRequest& request) override;
};

}  // namespace retort
