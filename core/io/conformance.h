// Runs ONNX backend node tests (model.onnx + test_data_set_*/input_*.pb, output_*.pb) on the
// reference interpreter and compares with the outputs they ship.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace retort {

struct ConformanceCase {
  enum class Status { Passed, Failed, Skipped };
  std::string name;  // the test folder name, "test_add_bcast"
  Status status = Status::Skipped;
  std::string reason;  // why it failed or was skipped ("unsupported op 'Upsample'")
};

struct ConformanceReport {
  std::vector<ConformanceCase> cases;
  int passed = 0, failed = 0, skipped = 0;
  std::string summary_line() const;  // "N passed, M failed, K skipped"
};

inline constexpr const char* kDefaultConformanceDir = "/usr/share/libonnx-testdata/data/node";

// Runs every test folder under dir (sorted by name); on_case is called as each one finishes.
ConformanceReport run_conformance(const std::string& dir,
                                  const std::function<void(const ConformanceCase&)>& on_case = {});

}  // namespace retort
