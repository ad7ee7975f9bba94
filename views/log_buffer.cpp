#include "views/log_buffer.h"

namespace retort {

void LogBuffer::append(std::string_view text, Style style) {
  std::lock_guard lock(mutex_);
  ++version_;
  for (char c : text) {
    if (c == '\n') {
      lines_.push_back(std::move(partial_));
      partial_ = {};
      continue;
    }
    if (partial_.text.empty()) partial_.style = style;
    partial_.text += c;
  }
}

std::vector<StyledLine> LogBuffer::lines() const {
  std::lock_guard lock(mutex_);
  std::vector<StyledLine> out = lines_;
  if (!partial_.text.empty()) out.push_back(partial_);
  return out;
}

uint64_t LogBuffer::version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

void LogBuffer::clear() {
  std::lock_guard lock(mutex_);
  ++version_;
  lines_.clear();
  partial_ = {};
}

}  // namespace retort
