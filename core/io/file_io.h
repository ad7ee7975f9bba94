// Whole-file reads and writes. Every file Retort writes (graphs, sessions, pictures, reproducer
// bundles, saved logs) goes through write_file or write_file_in, so every writer keeps the same
// rules (docs/architecture.md, "Writing files"):
// - the data goes to a temporary file beside the target, is synced, and is then moved into place,
//   so a failed write (a full disk, a read-only folder) never leaves a half-written file and is
//   always an Error;
// - a symbolic link at the target is never written through: it counts as an existing file, and
//   replacing it (when asked) replaces the link itself;
// - an existing file is replaced only when `overwrite` is set (--force), and a file that appears
//   between the check and the write is still kept.
#pragma once

#include <string>
#include <string_view>

namespace retort {

std::string read_file(const std::string& path);  // throws Error

// Writes `data` to `path`. The folders leading to `path` are the caller's (they must exist).
void write_file(const std::string& path, const std::string& data, bool overwrite);

// Writes `data` to `relative` inside the folder `dir` (which must exist), creating the folders of
// `relative` as needed. No part of `relative` may be a symbolic link, so nothing lands outside
// `dir`.
void write_file_in(const std::string& dir, const std::string& relative, const std::string& data,
                   bool overwrite);

// A folder filled as a whole (a reproducer bundle): its files are written into a temporary
// folder, then moved into `dir` by commit(). A failure before (a full disk, an Error) removes the
// temporary folder, so `dir` is left as it was, never half filled. The temporary folder is beside
// `dir` when `dir` does not exist (commit renames it into place), else inside it (commit moves
// the files in one by one, replacing those of the same name, never through a symbolic link).
class StagedFolder {
 public:
  // Refuses a `dir` that is a file, or a folder that is not empty unless `force`.
  StagedFolder(std::string dir, bool force);
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  // Where the files are written until commit().
  const std::string& path() const { return temp_; }
  void commit();

 private:
  std::string dir_, temp_;
  bool existed_ = false, committed_ = false;
};

// A file name part made from untrusted text (a graph or variant name from a loaded model, a
// backend name or version): only letters, digits, '_' and '-' pass, anything else (a '/', "..",
// a control character) becomes '_', and at most 64 characters are kept.
std::string file_name_part(std::string_view text);

}  // namespace retort
