// Where commands write: a terminal stream, a string (tests, the journal), later a curses pane.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace retort {

class Output {
 public:
  virtual ~Output() = default;
  virtual void write(std::string_view text) = 0;
  // True when a progress line can be redrawn in place with '\r' (a terminal); else a long
  // command prints its progress as separate lines.
  virtual bool in_place() const { return false; }

  void line(std::string_view text) {
    write(text);
    write("\n");
  }
  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    line(fmt::format(format, std::forward<Args>(args)...));
  }
};

// Writes to a stdio stream and flushes, so that stdout and stderr interleave in the order
// things happened when both go to the same file.
class StreamOutput : public Output {
 public:
  explicit StreamOutput(std::FILE* stream) : stream_(stream) {}
  void write(std::string_view text) override {
    std::fwrite(text.data(), 1, text.size(), stream_);
    std::fflush(stream_);
  }
  bool in_place() const override { return isatty(fileno(stream_)); }

 private:
  std::FILE* stream_;
};

class StringOutput : public Output {
 public:
  void write(std::string_view text) override { text_ += text; }
  const std::string& text() const { return text_; }
  void clear() { text_.clear(); }

 private:
  std::string text_;
};

}  // namespace retort
