// The journal file: every command of a session appended and synced as it runs, so that a crash
// or a killed terminal loses nothing and the next start can restore the session. JSON lines
// (docs/formats.md): a header {"format": "retort-journal", "version": 1, "seed": N}, one
// {"command": "...", "ok": true, "restorable": true} per command, and {"finished": true} when
// the session ended cleanly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace retort {

inline constexpr int kJournalVersion = 1;

struct JournalEntry {
  std::string command;     // the line as it was run
  bool ok = true;          // false when it ended in an error
  bool restorable = true;  // re-run when the session is restored (see Session::record)
};

class JournalFile {
 public:
  // Starts a fresh journal at `path` (replacing an old one; its folder is created) with the
  // session's seed in the header. Throws Error when the file cannot be written.
  static std::unique_ptr<JournalFile> create(const std::string& path, uint64_t seed);
  ~JournalFile();
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;

  // Appends one line and syncs it to disk; false when it could not be written. After the first
  // failure nothing more is written (a restore must not replay a sequence with a hole), every
  // later append returns false, and error() says why.
  bool append(const JournalEntry& entry);
  // Why the journal stopped being written (empty while it is fine).
  const std::string& error() const { return error_; }
  // Marks the journal finished: no restore will be offered for it.
  void finish();
  const std::string& path() const { return path_; }

 private:
  JournalFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  bool write_line(const std::string& line);

  std::string path_;
  int fd_ = -1;
  std::string error_;
};

// A journal left by a session that did not end cleanly.
struct UnfinishedJournal {
  std::string path;
  uint64_t seed = 0;
  std::vector<JournalEntry> entries;
  // The commands a restore re-runs: those that succeeded and change the session.
  std::vector<std::string> restorable() const;
};

// The journal at `path` when it exists and is not finished. A last line cut short (the process
// was killed while writing it) is dropped; any other bad line is an Error naming path:line.
std::optional<UnfinishedJournal> read_unfinished_journal(const std::string& path);

}  // namespace retort
