// Where commands write: a terminal stream, a string (tests, the journal), later a curses pane.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace retort {

// What a front end keeps of the commands' output (the workbench's log pane), for `log`.
class OutputLog {
 public:
  virtual ~OutputLog() = default;
  // The lines the commands printed, output and errors, without the echoed command lines.
  virtual std::vector<std::string> output_lines() const = 0;
  virtual void clear() = 0;
};

class Output {
 public:
  virtual ~Output() = default;
  virtual void write(std::string_view text) = 0;
  // The log this output ends up in when the front end keeps one; null where it does not (a
  // terminal keeps its own scrollback).
  virtual OutputLog* log() { return nullptr; }
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

// Collects text; `log` is the log the text is headed for, if any (see Shell::run).
class StringOutput : public Output {
 public:
  explicit StringOutput(OutputLog* log = nullptr) : log_(log) {}
  void write(std::string_view text) override { text_ += text; }
  OutputLog* log() override { return log_; }
  const std::string& text() const { return text_; }
  void clear() { text_.clear(); }

 private:
  std::string text_;
  OutputLog* log_;
};

}  // namespace retort
