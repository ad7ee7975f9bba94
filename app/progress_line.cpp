#include "app/progress_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/base/terminal_text.h"

namespace retort {

namespace {

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.0f} s", s);
  auto whole = static_cast<uint64_t>(s);
  if (whole < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
  return fmt::format("{} h {:02} min", whole / 3600, whole / 60 % 60);
}

size_t terminal_width(std::FILE* stream) {
  winsize size{};
  if (ioctl(fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return size.ws_col;
  return 80;
}

}  // namespace

std::string progress_text(std::string_view command, std::string_view status, uint64_t done,
                          uint64_t total, double elapsed_s) {
  std::string out(command);
  out += ":";
  if (total > 0)
    out += fmt::format(" {}/{}", done, total);
  else if (done > 0)
    out += fmt::format(" {}", done);
  if (!status.empty()) out += fmt::format(" {}", terminal_name(status, 200));  // one line
  if (done > 0 && elapsed_s > 0) out += fmt::format("  {:.1f}/s", done / elapsed_s);
  out += "  " + duration_text(elapsed_s);
  if (total > done && done > 0)
    out += "  ETA " + duration_text(elapsed_s * static_cast<double>(total - done) / done);
  return out;
}

ProgressLine::ProgressLine(std::FILE* stream, bool in_place, Timing timing)
    : stream_(stream), in_place_(in_place), timing_(timing) {}

ProgressLine::~ProgressLine() {
  end();
}

void ProgressLine::begin(std::string_view command) {
  end();
  std::lock_guard lock(mutex_);
  command_ = command;
  status_.clear();
  done_ = total_ = 0;
  started_ = last_line_ = Clock::now();
  running_ = true;
  ticker_ = std::thread([this] { tick(); });
}

void ProgressLine::end() {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    running_ = false;
  }
  wake_.notify_all();
  ticker_.join();
  std::lock_guard lock(mutex_);
  clear_locked();
}

void ProgressLine::write(std::string_view text) {
  std::lock_guard lock(mutex_);
  clear_locked();
  std::fwrite(text.data(), 1, text.size(), stream_);
  std::fflush(stream_);
}

void ProgressLine::progress(std::string_view status, uint64_t done, uint64_t total) {
  std::lock_guard lock(mutex_);
  status_ = status;
  done_ = done;
  total_ = total;
}

void ProgressLine::clear_locked() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stream_);
  std::fflush(stream_);
  drawn_ = false;
}

void ProgressLine::tick() {
  auto period = std::chrono::duration<double>(timing_.redraw_s);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return !running_; })) {
    auto now = Clock::now();
    double elapsed = std::chrono::duration<double>(now - started_).count();
    if (elapsed < timing_.first_after_s) continue;
    std::string text = progress_text(command_, status_, done_, total_, elapsed);
    if (in_place_) {
      size_t width = terminal_width(stream_) - 1;
      if (text.size() > width) {
        while (width > 0 && (static_cast<unsigned char>(text[width]) & 0xC0) == 0x80) --width;
        text.resize(width);  // at a character's first byte
      }
      std::fputs(fmt::format("\r{}\x1b[K", text).c_str(), stream_);
      drawn_ = true;
    } else if (std::chrono::duration<double>(now - last_line_).count() >= timing_.every_s) {
      std::fputs((text + "\n").c_str(), stream_);
      last_line_ = now;
    }
    std::fflush(stream_);
  }
}

}  // namespace retort
