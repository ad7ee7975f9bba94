// Where commands write: a terminal stream, a string (tests, the journal), later a curses pane.
#pragma once

#include <cstdint>
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
  // Where a long command is now: `status` says what it does ("cells", "cases, 2 findings"),
  // `done` of `total` units so far (total 0: not known). The front end shows it while the
  // command runs (app/progress_line.h, the workbench's status bar) with the rate, the elapsed
  // time and an ETA; it is never part of the command's output. Nothing shows it by default.
  virtual void progress(std::string_view status, uint64_t done = 0, uint64_t total = 0) {
    (void)status, (void)done, (void)total;
  }
  // A line to be seen as it comes rather than when the command ends (an installer's output).
  // Where nothing shows lines live it is part of the output.
  virtual void live(std::string_view text) { line(text); }

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

 private:
  std::FILE* stream_;
};

// Collects text; `log` is the log the text is headed for, if any (see Shell::run), `shown` the
// front end that shows progress and live lines while the text is held.
class StringOutput : public Output {
 public:
  explicit StringOutput(OutputLog* log = nullptr, Output* shown = nullptr)
      : log_(log), shown_(shown) {}
  void write(std::string_view text) override { text_ += text; }
  OutputLog* log() override { return log_; }
  void show_on(Output* shown) { shown_ = shown; }
  void progress(std::string_view status, uint64_t done, uint64_t total) override {
    if (shown_) shown_->progress(status, done, total);
  }
  void live(std::string_view text) override {
    if (shown_)
      shown_->live(text);
    else
      line(text);
  }
  const std::string& text() const { return text_; }
  void clear() { text_.clear(); }

 private:
  std::string text_;
  OutputLog* log_;
  Output* shown_;
};

}  // namespace retort
