// How a front end shows the command that runs now: its progress (Output::progress) and the lines
// it wants seen as they come (Output::live), while Shell::run holds its output for the journal.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "app/output.h"

namespace retort {

// Shell::run begins a view with the command's name before the command runs and ends it after,
// also when the command fails; progress and live lines arrive in between, from the command's
// thread.
class ProgressView : public Output {
 public:
  virtual void begin(std::string_view command) = 0;
  virtual void end() = 0;
};

// "compare: 12/40 cells  3.1/s  4 s  ETA 9 s": the command, what it counts (done of total when
// the total is known), the rate, the elapsed time and the time left where it can be told.
std::string progress_text(std::string_view command, std::string_view status, uint64_t done,
                          uint64_t total, double elapsed_s);

// Progress on a stdio stream (standard error). On a terminal one line, redrawn in place every
// 0.2 s once the command has run a second, cut to the terminal's width and cleared when the
// command ends; elsewhere (a file, a pipe, CI) a line every 10 s. A command that reports nothing
// still shows its name and elapsed time. Live lines are written at once.
class ProgressLine : public ProgressView {
 public:
  struct Timing {
    double first_after_s = 1;  // nothing is shown for commands quicker than this
    double redraw_s = 0.2;     // on a terminal
    double every_s = 10;       // elsewhere
  };
  ProgressLine(std::FILE* stream, bool in_place, Timing timing);
  ProgressLine(std::FILE* stream, bool in_place) : ProgressLine(stream, in_place, Timing{}) {}
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void begin(std::string_view command) override;
  void end() override;
  void write(std::string_view text) override;  // live text
  void live(std::string_view text) override { write(std::string(text) + "\n"); }
  void progress(std::string_view status, uint64_t done, uint64_t total) override;

 private:
  using Clock = std::chrono::steady_clock;
  void tick();
  void clear_locked();

  std::FILE* stream_;
  bool in_place_;
  Timing timing_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread ticker_;
  bool running_ = false, drawn_ = false;
  std::string command_, status_;
  uint64_t done_ = 0, total_ = 0;
  Clock::time_point started_, last_line_;
};

}  // namespace retort
