// The log pane's lines: written by the command thread (through an Output in app/), read by the
// screen thread. The only state the two threads share besides the cancel flag.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "views/canvas.h"

namespace retort {

class LogBuffer {
 public:
  // Appends text; a line is complete at its '\n'. Output and error text interleave per line.
  void append(std::string_view text, Style style);
  // The lines so far, the unfinished one last.
  std::vector<StyledLine> lines() const;
  uint64_t version() const;  // changes with every append
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<StyledLine> lines_;
  StyledLine partial_;
  uint64_t version_ = 0;
};

}  // namespace retort
