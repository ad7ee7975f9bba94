// SQLite through its C API. Statements are prepared per call: the database is written once per
// case, far below the cost of a case, so there is nothing to gain from caching them.
#include "core/findings/findings_db.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

#include "core/base/error.h"
#include "core/base/user_dirs.h"

namespace retort {

namespace {

// "Retr": marks the file as Retort's (PRAGMA application_id), so another application's SQLite
// database is recognised and left alone.
constexpr int32_t kApplicationId = 0x52657472;
// Tries at switching a new file to WAL while another opener holds it, 10 ms apart.
constexpr int kWalAttempts = 500;

const char* const kSchema = R"SQL(
CREATE TABLE retort_schema (version INTEGER NOT NULL, db_id TEXT NOT NULL);
CREATE TABLE merged (db_id TEXT PRIMARY KEY, path TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE campaigns (
  id INTEGER PRIMARY KEY,
  started TEXT NOT NULL,
  options TEXT NOT NULL,
  retort_version TEXT NOT NULL,
  backends TEXT NOT NULL,
  seed INTEGER NOT NULL,
  shard INTEGER NOT NULL,
  shards INTEGER NOT NULL,
  origin TEXT NOT NULL DEFAULT ''
);
CREATE TABLE cases (
  campaign INTEGER NOT NULL REFERENCES campaigns(id),
  idx INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  nodes INTEGER NOT NULL,
  graphs INTEGER NOT NULL,
  gen_ms REAL NOT NULL,
  saturate_ms REAL NOT NULL,
  extract_ms REAL NOT NULL,
  compare_ms REAL NOT NULL,
  findings INTEGER NOT NULL,
  error TEXT NOT NULL,
  PRIMARY KEY (campaign, idx)
);
CREATE TABLE findings (
  id INTEGER PRIMARY KEY,
  signature TEXT NOT NULL UNIQUE,
  family TEXT NOT NULL, oracle TEXT NOT NULL, verdict TEXT NOT NULL,
  op TEXT NOT NULL, dtype TEXT NOT NULL, rule TEXT NOT NULL,
  backend_a TEXT NOT NULL, graph_a TEXT NOT NULL, backend_b TEXT NOT NULL, graph_b TEXT NOT NULL,
  backends TEXT NOT NULL,
  original TEXT NOT NULL,
  variants TEXT NOT NULL,
  trace TEXT NOT NULL,
  case_seed INTEGER NOT NULL,
  inputs_seed INTEGER NOT NULL,
  verdicts TEXT NOT NULL,
  diverging TEXT NOT NULL,
  count INTEGER NOT NULL,
  first_seen TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  campaign INTEGER NOT NULL,
  case_idx INTEGER NOT NULL
);
)SQL";

// Made on the first write, like reviews (below), so that older databases open and read as they
// are: the label of the known bug that explains a signature (FindingRecord::known), and the roots
// people added.
const char* const kKnownTable =
    "CREATE TABLE IF NOT EXISTS known (signature TEXT PRIMARY KEY, label TEXT NOT NULL)";
const char* const kUserRootsTable = R"SQL(
CREATE TABLE IF NOT EXISTS user_roots (
  id INTEGER PRIMARY KEY,
  finding INTEGER NOT NULL,
  family TEXT NOT NULL, backend TEXT NOT NULL, release TEXT NOT NULL, verdict TEXT NOT NULL,
  graph TEXT NOT NULL,
  trigger TEXT NOT NULL,
  summary TEXT NOT NULL,
  added TEXT NOT NULL
);
)SQL";

const char* const kFindingColumns =
    "id, family, oracle, verdict, op, dtype, rule, backend_a, graph_a, backend_b, graph_b, "
    "backends, original, variants, trace, case_seed, inputs_seed, verdicts, diverging, count, "
    "first_seen, last_seen, campaign, case_idx, signature";

// SQLite stores 64-bit signed integers; seeds use the full unsigned range, so they travel as
// their two's-complement bit pattern.
int64_t to_db(uint64_t v) {
  return static_cast<int64_t>(v);
}
uint64_t from_db(int64_t v) {
  return static_cast<uint64_t>(v);
}

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
      fail("{}: {}", path_, sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement& bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  // True while there is a row.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("{}: {}", path_, sqlite3_errmsg(db_));
  }
  std::string text(int col) const {
    auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))) : "";
  }
  int64_t i64(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }

 private:
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Rolls back unless committed, so an Error inside a case leaves the database as it was.
class Transaction {
 public:
  explicit Transaction(const std::function<void(const std::string&)>& exec) : exec_(exec) {
    exec_("BEGIN IMMEDIATE");
  }
  ~Transaction() {
    if (!done_) {
      try {
        exec_("ROLLBACK");
      } catch (const Error&) {
        // The rollback of a failed transaction can only fail when SQLite already rolled back.
      }
    }
  }
  void commit() {
    exec_("COMMIT");
    done_ = true;
  }

 private:
  std::function<void(const std::string&)> exec_;
  bool done_ = false;
};

bool starts_like_sqlite(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[16] = {};
  in.read(header, sizeof header);
  if (in.gcount() == 0) return true;  // an empty file is an empty database
  return in.gcount() == 16 && std::string(header, 16) == std::string("SQLite format 3\0", 16);
}

FindingRecord finding_from_row(const Statement& s) {
  FindingRecord f;
  f.id = s.i64(0);
  f.signature = {s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6), ""};
  if (auto keyed = FailureSignature::parse(s.text(24))) f.signature.text = keyed->text;
  f.backend_a = s.text(7);
  f.graph_a = s.text(8);
  f.backend_b = s.text(9);
  f.graph_b = s.text(10);
  f.backends = s.text(11);
  f.original = s.text(12);
  f.variants = s.text(13);
  // One damaged row must not hide the others (`findings list`): its error travels with it.
  try {
    f.trace = FindingTrace::from_json(s.text(14), fmt::format("finding #{}", f.id));
  } catch (const Error& e) {
    f.unreadable = e.message();
  }
  f.case_seed = from_db(s.i64(15));
  f.inputs_seed = from_db(s.i64(16));
  f.verdicts = s.text(17);
  f.diverging = s.text(18);
  f.count = s.i64(19);
  f.first_seen = s.text(20);
  f.last_seen = s.text(21);
  f.campaign = s.i64(22);
  f.case_index = from_db(s.i64(23));
  return f;
}

CampaignRecord campaign_from_row(const Statement& s) {
  return {s.i64(0),          s.text(1),         s.text(2),         s.text(3), s.text(4),
          from_db(s.i64(5)), from_db(s.i64(6)), from_db(s.i64(7)), s.text(8)};
}

const char* const kCampaignColumns =
    "id, started, options, retort_version, backends, seed, shard, shards, origin";

int64_t schema_version(sqlite3* raw, const std::string& path) {
  Statement s(raw, "SELECT max(version) FROM retort_schema", path);
  s.step();
  return s.i64(0);
}

}  // namespace

std::string utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string FindingsDb::default_path() {
  return (required_user_dir(UserDir::Data, "choose a file with --db") / "findings.db").string();
}

FindingsDb FindingsDb::open(const std::string& path, bool create) {
  namespace fs = std::filesystem;
  std::error_code ec;
  bool exists = fs::exists(path, ec);
  if (!exists && !create) fail("{}: no findings database there", path);
  if (exists && fs::is_directory(path, ec))
    fail("{}: is a directory, not a findings database", path);
  if (exists && !starts_like_sqlite(path))
    fail("{}: not a SQLite database (left untouched; choose another file with --db)", path);
  if (!exists) {
    fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
  }
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(path.c_str(), &raw, flags, nullptr) != SQLITE_OK) {
    std::string why = raw ? sqlite3_errmsg(raw) : "out of memory";
    sqlite3_close(raw);
    fail("{}: cannot open the findings database: {}", path, why);
  }
  FindingsDb db(path, raw);
  sqlite3_busy_timeout(raw, 30000);  // shards and jobs may share one file
  int64_t tables = 0, app_id = 0;
  {
    Statement s(raw, "SELECT count(*) FROM sqlite_master", db.path_);
    s.step();
    tables = s.i64(0);
  }
  {
    Statement s(raw, "PRAGMA application_id", db.path_);
    s.step();
    app_id = s.i64(0);
  }
  // An empty file to read or merge from is nobody's database yet: making the schema in it would
  // write Retort's into a file the person named for another purpose.
  if (tables == 0 && !create)
    fail("{}: an empty file, not a findings database (left untouched)", path);
  if (tables > 0 && app_id != kApplicationId)
    fail("{}: another application's SQLite database, not Retort's findings (left untouched)", path);
  if (tables > 0) {
    int64_t version = schema_version(raw, db.path_);
    if (version > kFindingsSchemaVersion)
      fail("{}: findings schema version {} is newer than this Retort's ({}); left untouched", path,
           version, kFindingsSchemaVersion);
    db.switch_to_wal();
    if (version < kFindingsSchemaVersion) db.upgrade_schema(version);
  } else {
    db.switch_to_wal();
    Transaction t([&](const std::string& sql) { db.exec(sql); });
    // Another process (a shard, `findings` polling a new file) may have made the schema since
    // the count: count again under the write lock.
    {
      Statement again(raw, "SELECT count(*) FROM sqlite_master", db.path_);
      again.step();
      tables = again.i64(0);
    }
    if (tables == 0) {
      db.exec(kSchema);
      Statement id(raw, "INSERT INTO retort_schema VALUES (?, lower(hex(randomblob(16))))",
                   db.path_);
      id.bind(1, static_cast<int64_t>(kFindingsSchemaVersion));
      id.step();
      db.exec(fmt::format("PRAGMA application_id={}", kApplicationId));
    }
    t.commit();
  }
  // WAL with synchronous=NORMAL: a committed case survives the process being killed (the OS
  // holds the written pages); only a power cut can lose the last few.
  db.exec("PRAGMA synchronous=NORMAL");
  return db;
}

FindingsDb::FindingsDb(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
FindingsDb::FindingsDb(FindingsDb&& o) noexcept : path_(std::move(o.path_)), db_(o.db_) {
  o.db_ = nullptr;
}
FindingsDb& FindingsDb::operator=(FindingsDb&& o) noexcept {
  if (this != &o) {
    sqlite3_close(db_);
    path_ = std::move(o.path_);
    db_ = o.db_;
    o.db_ = nullptr;
  }
  return *this;
}
FindingsDb::~FindingsDb() {
  sqlite3_close(db_);
}

void FindingsDb::exec(const std::string& sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    if (sqlite3_errcode(db_) == SQLITE_NOTADB || sqlite3_errcode(db_) == SQLITE_CORRUPT)
      fail("{}: the findings database is damaged ({}); left untouched", path_, why);
    fail("{}: {}", path_, why);
  }
}

// WAL is a property of the file, so one opener's switch serves all. It must run outside any
// transaction (no statement of this connection may be open), and a file in another mode needs
// the file to itself, which SQLite's busy handler does not wait for: an opener that finds it in
// use (another one creating the schema, a reader of a copied file) tries again.
void FindingsDb::switch_to_wal() {
  for (int attempt = 1;; ++attempt) {
    try {
      exec("PRAGMA journal_mode=WAL");
      return;
    } catch (const Error&) {
      if (sqlite3_errcode(db_) != SQLITE_BUSY || attempt == kWalAttempts) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void FindingsDb::upgrade_schema(int64_t from_version) {
  Transaction t([&](const std::string& sql) { exec(sql); });
  // Another opener may have upgraded it since the version was read: read it under the lock.
  if (schema_version(db_, path_) == from_version) {
    if (from_version < 2) exec("ALTER TABLE campaigns ADD COLUMN origin TEXT NOT NULL DEFAULT ''");
    exec(fmt::format("UPDATE retort_schema SET version = {}", kFindingsSchemaVersion));
  }
  t.commit();
}

int64_t FindingsDb::add_campaign(CampaignRecord c) {
  Statement s(db_,
              "INSERT INTO campaigns (started, options, retort_version, backends, seed, shard, "
              "shards, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
              path_);
  s.bind(1, c.started).bind(2, c.options).bind(3, c.retort_version).bind(4, c.backends);
  s.bind(5, to_db(c.seed)).bind(6, to_db(c.shard)).bind(7, to_db(c.shards)).bind(8, c.origin);
  s.step();
  return sqlite3_last_insert_rowid(db_);
}

void FindingsDb::set_campaign_backends(int64_t id, const std::string& backends) {
  Statement s(db_, "UPDATE campaigns SET backends = ? WHERE id = ?", path_);
  s.bind(1, backends).bind(2, id);
  s.step();
}

std::optional<CampaignRecord> FindingsDb::campaign(int64_t id) const {
  Statement s(db_, fmt::format("SELECT {} FROM campaigns WHERE id = ?", kCampaignColumns), path_);
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return campaign_from_row(s);
}

std::optional<CampaignRecord> FindingsDb::last_campaign() const {
  Statement s(db_,
              fmt::format("SELECT {} FROM campaigns WHERE origin = '' ORDER BY id DESC LIMIT 1",
                          kCampaignColumns),
              path_);
  if (!s.step()) return std::nullopt;
  return campaign_from_row(s);
}

size_t FindingsDb::campaign_count() const {
  Statement s(db_, "SELECT count(*) FROM campaigns", path_);
  s.step();
  return static_cast<size_t>(s.i64(0));
}

std::set<uint64_t> FindingsDb::done_cases(int64_t campaign) const {
  Statement s(db_, "SELECT idx FROM cases WHERE campaign = ?", path_);
  s.bind(1, campaign);
  std::set<uint64_t> done;
  while (s.step()) done.insert(from_db(s.i64(0)));
  return done;
}

std::vector<CaseRecord> FindingsDb::cases(int64_t campaign) const {
  Statement s(db_,
              "SELECT campaign, idx, seed, nodes, graphs, gen_ms, saturate_ms, extract_ms, "
              "compare_ms, findings, error FROM cases WHERE campaign = ? ORDER BY idx",
              path_);
  s.bind(1, campaign);
  std::vector<CaseRecord> out;
  while (s.step())
    out.push_back({s.i64(0), from_db(s.i64(1)), from_db(s.i64(2)), static_cast<size_t>(s.i64(3)),
                   static_cast<size_t>(s.i64(4)), s.real(5), s.real(6), s.real(7), s.real(8),
                   static_cast<size_t>(s.i64(9)), s.text(10)});
  return out;
}

void FindingsDb::upsert_finding(const FindingRecord& f) {
  Statement s(db_,
              "INSERT INTO findings (signature, family, oracle, verdict, op, dtype, rule, "
              "backend_a, graph_a, backend_b, graph_b, backends, original, variants, trace, "
              "case_seed, inputs_seed, verdicts, diverging, count, first_seen, last_seen, "
              "campaign, case_idx) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
              "?, ?, ?, ?, ?, ?, ?) ON CONFLICT (signature) DO UPDATE SET "
              "count = count + excluded.count, "
              "first_seen = min(first_seen, excluded.first_seen), "
              "last_seen = max(last_seen, excluded.last_seen)",
              path_);
  const FailureSignature& g = f.signature;
  s.bind(1, g.key()).bind(2, g.family).bind(3, g.oracle).bind(4, g.verdict).bind(5, g.op);
  s.bind(6, g.dtype).bind(7, g.rule).bind(8, f.backend_a).bind(9, f.graph_a).bind(10, f.backend_b);
  s.bind(11, f.graph_b).bind(12, f.backends).bind(13, f.original).bind(14, f.variants);
  s.bind(15, f.trace.to_json()).bind(16, to_db(f.case_seed)).bind(17, to_db(f.inputs_seed));
  s.bind(18, f.verdicts).bind(19, f.diverging).bind(20, f.count).bind(21, f.first_seen);
  s.bind(22, f.last_seen).bind(23, f.campaign).bind(24, to_db(f.case_index));
  s.step();
}

void FindingsDb::insert_case(const CaseRecord& c) {
  Statement s(db_,
              "INSERT INTO cases (campaign, idx, seed, nodes, graphs, gen_ms, saturate_ms, "
              "extract_ms, compare_ms, findings, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              path_);
  s.bind(1, c.campaign).bind(2, to_db(c.index)).bind(3, to_db(c.seed));
  s.bind(4, static_cast<int64_t>(c.nodes)).bind(5, static_cast<int64_t>(c.graphs));
  s.bind(6, c.gen_ms).bind(7, c.saturate_ms).bind(8, c.extract_ms).bind(9, c.compare_ms);
  s.bind(10, static_cast<int64_t>(c.findings)).bind(11, c.error);
  s.step();
}

void FindingsDb::record_case(const CaseRecord& c, const std::vector<FindingRecord>& findings) {
  Transaction t([&](const std::string& sql) { exec(sql); });
  insert_case(c);
  for (const FindingRecord& f : findings) {
    upsert_finding(f);
    if (!f.known.empty()) insert_known(f.signature.key(), f.known);
  }
  t.commit();
}

// The first decision about a signature stays: a later sighting judged otherwise (a deadline cut
// its check short) changes nothing.
void FindingsDb::insert_known(const std::string& signature, const std::string& label) {
  exec(kKnownTable);
  Statement s(db_, "INSERT OR IGNORE INTO known VALUES (?, ?)", path_);
  s.bind(1, signature).bind(2, label);
  s.step();
}

void FindingsDb::set_known(const std::string& signature, const std::string& label) {
  Transaction t([&](const std::string& sql) { exec(sql); });
  insert_known(signature, label);
  t.commit();
}

bool FindingsDb::has_table(const char* name) const {
  Statement has(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", path_);
  has.bind(1, std::string(name));
  has.step();
  return has.i64(0) > 0;
}

std::map<std::string, std::string> FindingsDb::known_labels() const {
  std::map<std::string, std::string> out;
  if (!has_table("known")) return out;
  Statement s(db_, "SELECT signature, label FROM known", path_);
  while (s.step()) out[s.text(0)] = s.text(1);
  return out;
}

std::vector<FindingRecord> FindingsDb::findings() const {
  Statement s(
      db_, fmt::format("SELECT {} FROM findings ORDER BY last_seen DESC, id DESC", kFindingColumns),
      path_);
  std::map<std::string, std::string> known = known_labels();
  std::vector<FindingRecord> out;
  while (s.step()) {
    out.push_back(finding_from_row(s));
    if (auto it = known.find(out.back().signature.key()); it != known.end())
      out.back().known = it->second;
  }
  return out;
}

FindingRecord FindingsDb::finding(int64_t id) const {
  Statement s(db_, fmt::format("SELECT {} FROM findings WHERE id = ?", kFindingColumns), path_);
  s.bind(1, id);
  if (s.step()) {
    FindingRecord f = finding_from_row(s);
    std::map<std::string, std::string> known = known_labels();
    if (auto it = known.find(f.signature.key()); it != known.end()) f.known = it->second;
    return f;
  }
  Statement n(db_, "SELECT count(*), min(id), max(id) FROM findings", path_);
  n.step();
  if (n.i64(0) == 0) fail("no finding {}: {} holds no findings", id, path_);
  fail("no finding {}: {} holds {} (ids {}..{}; see `findings`)", id, path_, n.i64(0), n.i64(1),
       n.i64(2));
}

std::string FindingsDb::db_id() const {
  Statement s(db_, "SELECT db_id FROM retort_schema", path_);
  s.step();
  return s.text(0);
}

MergeResult FindingsDb::merge(const std::string& other_path) {
  if (std::filesystem::equivalent(other_path, path_))
    fail("{}: cannot merge a findings database into itself", other_path);
  FindingsDb other = open(other_path, false);
  std::string other_id = other.db_id();
  if (other_id == db_id()) fail("{}: is this same database (a copy of it)", other_path);
  Transaction t([&](const std::string& sql) { exec(sql); });
  {
    Statement seen(db_, "SELECT at FROM merged WHERE db_id = ?", path_);
    seen.bind(1, other_id);
    if (seen.step())
      fail("{}: already merged into {} at {} (counts would add twice)", other_path, path_,
           seen.text(0));
    Statement note(db_, "INSERT INTO merged VALUES (?, ?, ?)", path_);
    note.bind(1, other_id).bind(2, other_path).bind(3, utc_now());
    note.step();
  }
  Statement campaigns(other.db_,
                      fmt::format("SELECT {} FROM campaigns ORDER BY id", kCampaignColumns),
                      other.path_);
  std::map<int64_t, int64_t> new_id;
  MergeResult result;
  while (campaigns.step()) {
    CampaignRecord c = campaign_from_row(campaigns);
    int64_t old = c.id;
    if (c.origin.empty()) c.origin = other_id;
    new_id[old] = add_campaign(c);
    result.campaigns.emplace_back(old, new_id[old]);
    for (CaseRecord cr : other.cases(old)) {
      cr.campaign = new_id[old];
      insert_case(cr);
    }
  }
  for (FindingRecord f : other.findings()) {
    if (!f.unreadable.empty()) fail("{}: {}; nothing was merged", other_path, f.unreadable);
    f.campaign = new_id.count(f.campaign) ? new_id[f.campaign] : 0;
    upsert_finding(f);
    // A root of the other database's own (`user N`) means nothing here: only the library's rows
    // travel.
    if (f.known.rfind("row ", 0) == 0) insert_known(f.signature.key(), f.known);
    ++result.findings;
  }
  t.commit();
  return result;
}

CampaignLock::CampaignLock(const std::string& db_path, int64_t campaign) {
  std::string path = db_path + "-lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("{}: cannot open the campaigns' lock file: {}", path, std::strerror(errno));
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = campaign;
  lock.l_len = 1;
  if (fcntl(fd_, F_SETLK, &lock) == 0) return;
  int why = errno;
  struct flock holder = lock;
  bool known = fcntl(fd_, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK;
  ::close(fd_);
  fd_ = -1;
  if (why != EACCES && why != EAGAIN)
    fail("{}: cannot lock campaign {}: {}", path, campaign, std::strerror(why));
  if (known)
    fail("{}: campaign {} is being resumed by process {}", db_path, campaign, holder.l_pid);
  fail("{}: campaign {} is being resumed by another process", db_path, campaign);
}

CampaignLock::~CampaignLock() {
  if (fd_ >= 0) ::close(fd_);
}

const char* const kReviewsTable = R"SQL(
CREATE TABLE IF NOT EXISTS reviews (
  signature TEXT PRIMARY KEY,
  agreement TEXT NOT NULL,
  disputed INTEGER NOT NULL,
  reduced TEXT NOT NULL,
  reduced_b TEXT NOT NULL,
  root TEXT NOT NULL,
  merged_into INTEGER NOT NULL
);
)SQL";

void FindingsDb::set_review(const std::string& signature, const FindingReview& r) {
  Transaction t([&](const std::string& sql) { exec(sql); });
  exec(kReviewsTable);
  Statement s(db_, "INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?, ?, ?, ?)", path_);
  s.bind(1, signature)
      .bind(2, r.agreement)
      .bind(3, static_cast<int64_t>(r.disputed))
      .bind(4, r.reduced)
      .bind(5, r.reduced_b)
      .bind(6, r.root)
      .bind(7, r.merged_into);
  s.step();
  t.commit();
}

std::map<std::string, FindingReview> FindingsDb::reviews() const {
  std::map<std::string, FindingReview> out;
  if (!has_table("reviews")) return out;
  Statement s(db_,
              "SELECT signature, agreement, disputed, reduced, reduced_b, root, merged_into "
              "FROM reviews",
              path_);
  while (s.step())
    out[s.text(0)] = {s.text(1), s.i64(2) != 0, s.text(3), s.text(4), s.text(5), s.i64(6)};
  return out;
}

const char* const kBlamesTable = R"SQL(
CREATE TABLE IF NOT EXISTS blames (
  signature TEXT PRIMARY KEY,
  backend TEXT NOT NULL,
  passes TEXT NOT NULL,
  minimal INTEGER NOT NULL,
  runs INTEGER NOT NULL,
  at TEXT NOT NULL
);
)SQL";

void FindingsDb::set_blame(const std::string& signature, const PassBlame& b) {
  std::string passes;
  for (const std::string& p : b.passes) {
    // A pass name never holds the separator: a family declares its names, and workers refuse
    // others.
    if (p.empty() || p.find(',') != std::string::npos) fail("'{}' is no pass name", p);
    passes += (passes.empty() ? "" : ",") + p;
  }
  Transaction t([&](const std::string& sql) { exec(sql); });
  exec(kBlamesTable);
  Statement s(db_, "INSERT OR REPLACE INTO blames VALUES (?, ?, ?, ?, ?, ?)", path_);
  s.bind(1, signature)
      .bind(2, b.backend)
      .bind(3, passes)
      .bind(4, static_cast<int64_t>(b.minimal))
      .bind(5, b.runs)
      .bind(6, b.at);
  s.step();
  t.commit();
}

std::map<std::string, PassBlame> FindingsDb::blames() const {
  std::map<std::string, PassBlame> out;
  if (!has_table("blames")) return out;
  Statement s(db_, "SELECT signature, backend, passes, minimal, runs, at FROM blames", path_);
  while (s.step()) {
    PassBlame b{.backend = s.text(1), .minimal = s.i64(3) != 0, .runs = s.i64(4), .at = s.text(5)};
    std::string passes = s.text(2);
    for (size_t start = 0; start < passes.size();) {
      size_t comma = std::min(passes.find(',', start), passes.size());
      b.passes.push_back(passes.substr(start, comma - start));
      start = comma + 1;
    }
    out[s.text(0)] = std::move(b);
  }
  return out;
}

int64_t FindingsDb::add_user_root(const UserRoot& r) {
  Transaction t([&](const std::string& sql) { exec(sql); });
  exec(kUserRootsTable);
  Statement s(db_,
              "INSERT INTO user_roots (finding, family, backend, release, verdict, graph, trigger, "
              "summary, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
              path_);
  s.bind(1, r.finding).bind(2, r.family).bind(3, r.backend).bind(4, r.release);
  s.bind(5, r.verdict).bind(6, r.graph).bind(7, r.trigger).bind(8, r.summary).bind(9, r.added);
  s.step();
  int64_t id = sqlite3_last_insert_rowid(db_);
  t.commit();
  return id;
}

std::vector<UserRoot> FindingsDb::user_roots() const {
  std::vector<UserRoot> out;
  if (!has_table("user_roots")) return out;
  Statement s(db_,
              "SELECT id, finding, family, backend, release, verdict, graph, trigger, summary, "
              "added FROM user_roots ORDER BY id",
              path_);
  while (s.step())
    out.push_back({s.i64(0), s.i64(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6),
                   s.text(7), s.text(8), s.text(9)});
  return out;
}

}  // namespace retort
