// Ctrl-C during a long command (saturate, fuzz) sets a cancellation flag instead of ending the
// program; the previous handler comes back when the guard goes out of scope.
#pragma once

#include <atomic>

namespace retort {

class SigintCancels {
 public:
  explicit SigintCancels(std::atomic<bool>& flag);
  ~SigintCancels();
  SigintCancels(const SigintCancels&) = delete;
  SigintCancels& operator=(const SigintCancels&) = delete;

 private:
  void (*previous_)(int);
};

}  // namespace retort
