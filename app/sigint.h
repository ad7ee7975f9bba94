// Lets Ctrl-C stop a long command (saturate, reduce) through a cancellation flag instead of
// ending the program; the previous handler comes back when the guard goes.
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
