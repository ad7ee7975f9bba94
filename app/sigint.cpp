#include "app/sigint.h"

#include <csignal>

namespace retort {

namespace {

std::atomic<bool>* g_cancel = nullptr;

extern "C" void cancel_on_sigint(int) {
  if (g_cancel) g_cancel->store(true);
}

}  // namespace

SigintCancels::SigintCancels(std::atomic<bool>& flag) {
  g_cancel = &flag;
  previous_ = std::signal(SIGINT, cancel_on_sigint);
}

SigintCancels::~SigintCancels() {
  std::signal(SIGINT, previous_);
  g_cancel = nullptr;
}

}  // namespace retort
