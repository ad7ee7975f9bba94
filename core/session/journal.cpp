#include "core/session/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/io/json_reader.h"

namespace retort {

using nlohmann::json;

std::unique_ptr<JournalFile> JournalFile::create(const std::string& path, uint64_t seed) {
  std::error_code ec;
  if (auto dir = std::filesystem::path(path).parent_path(); !dir.empty())
    std::filesystem::create_directories(dir, ec);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail("cannot write the journal {}: {}", path, std::strerror(errno));
  std::unique_ptr<JournalFile> file(new JournalFile(path, fd));
  json header = {{"format", "retort-journal"}, {"version", kJournalVersion}, {"seed", seed}};
  if (!file->write_line(header.dump()))
    fail("cannot write the journal {}: {}", path, file->error());
  return file;
}

JournalFile::~JournalFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool JournalFile::write_line(const std::string& line) {
  if (!error_.empty()) return false;
  std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = n == 0 ? "nothing was written" : std::strerror(errno);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd_) != 0) error_ = std::strerror(errno);
  return error_.empty();
}

bool JournalFile::append(const JournalEntry& entry) {
  json line = {{"command", entry.command}, {"ok", entry.ok}, {"restorable", entry.restorable}};
  return write_line(line.dump(-1, ' ', false, json::error_handler_t::replace));
}

void JournalFile::finish() {
  write_line(json{{"finished", true}}.dump());
}

std::vector<std::string> UnfinishedJournal::restorable() const {
  std::vector<std::string> lines;
  for (const auto& e : entries)
    if (e.ok && e.restorable) lines.push_back(e.command);
  return lines;
}

std::optional<UnfinishedJournal> read_unfinished_journal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  UnfinishedJournal j;
  j.path = path;
  bool have_header = false;
  size_t start = 0;
  for (size_t number = 1; start < text.size(); ++number) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut short by a kill: the command never finished
    std::string line = text.substr(start, end - start);
    start = end + 1;
    json value = parse_json_or_discarded(line);
    auto bad = [&](std::string_view what) {
      throw Error(fmt::format("bad journal line: {}", what),
                  SourceLoc{path, static_cast<int>(number)});
    };
    if (value.is_discarded() || !value.is_object()) bad("not a JSON object");
    if (number == 1) {
      if (value.value("format", "") != "retort-journal") bad("not a retort journal");
      if (value.value("version", 0) != kJournalVersion)
        bad(fmt::format("version {} (this retort reads {})", value.value("version", 0),
                        kJournalVersion));
      if (!value.contains("seed") || !value["seed"].is_number_unsigned()) bad("no seed");
      j.seed = value["seed"].get<uint64_t>();
      have_header = true;
      continue;
    }
    if (value.value("finished", false)) return std::nullopt;
    if (!value.contains("command") || !value["command"].is_string()) bad("no command");
    j.entries.push_back({value["command"].get<std::string>(), value.value("ok", true),
                         value.value("restorable", true)});
  }
  if (!have_header) return std::nullopt;
  return j;
}

}  // namespace retort
