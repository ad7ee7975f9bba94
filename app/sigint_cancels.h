// Lets Ctrl-C stop a long command (a saturation, an install) through a cancellation flag instead
// of ending the program; the previous handler comes back when the command ends.
#pragma once

#include <atomic>
#include <csignal>

namespace retort {

class SigintCancels {
 public:
  explicit SigintCancels(std::atomic<bool>& flag);
  ~SigintCancels();
  SigintCancels(const SigintCancels&) = delete;
  SigintCancels& operator=(const SigintCancels&) = delete;

 private:
  void (*previous_)(int) = SIG_DFL;
};

}  // namespace retort
