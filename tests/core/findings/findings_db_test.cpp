#include "core/findings/findings_db.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class FindingsDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("retort_findings_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  static FindingRecord finding(const std::string& op, int64_t campaign, uint64_t index) {
    FindingRecord f;
    f.signature = {"ort", "reference", "mismatch", op, "f32", "", ""};
    f.backend_a = "ort:O3";
    f.graph_a = "max";
    f.backend_b = "ref";
    f.graph_b = "max";
    f.original = "graph g(x: f32[2]) { y = neg(x) } -> (y)\n";
    f.variants = "{}";
    f.first_seen = f.last_seen = utc_now();
    f.campaign = campaign;
    f.case_index = index;
    f.case_seed = 0xfedcba9876543210ull;  // above INT64_MAX: seeds keep all 64 bits
    return f;
  }
  static CaseRecord a_case(int64_t campaign, uint64_t index) {
    return {campaign, index, index * 7, 10, 4, 1, 2, 3, 4, 1, ""};
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  fs::path dir_;
};

TEST_F(FindingsDbTest, RecordsCasesAndFindingsAndKeepsThemAcrossReopening) {
  std::string path = file("sub/dir/f.db");
  {
    FindingsDb db = FindingsDb::open(path);
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 5, 0, 1});
    db.record_case(a_case(c, 0), {finding("mul", c, 0)});
    db.record_case(a_case(c, 1), {});
  }
  FindingsDb db = FindingsDb::open(path, false);
  ASSERT_TRUE(db.last_campaign());
  EXPECT_EQ(db.last_campaign()->seed, 5u);
  EXPECT_EQ(db.done_cases(db.last_campaign()->id), (std::set<uint64_t>{0, 1}));
  auto all = db.findings();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].signature.op, "mul");
  EXPECT_EQ(all[0].case_seed, 0xfedcba9876543210ull);
  EXPECT_EQ(db.finding(all[0].id).backend_a, "ort:O3");
  EXPECT_EQ(db.cases(db.last_campaign()->id)[1].seed, 7u);
}

// Two processes (here: connections on two threads) creating the same new file: one makes the
// schema, the other finds it made (a campaign and `findings` polling its file raced before).
TEST_F(FindingsDbTest, TwoOpenersOfANewFileBothGetTheDatabase) {
  for (int round = 0; round < 20; ++round) {
    std::string path = file(fmt::format("race{}.db", round));
    std::string errors;
    std::mutex m;
    auto open = [&] {
      try {
        FindingsDb::open(path);
      } catch (const Error& e) {
        std::lock_guard<std::mutex> lock(m);
        errors += e.message() + "\n";
      }
    };
    std::thread a(open), b(open);
    a.join();
    b.join();
    EXPECT_EQ(errors, "") << round;
    EXPECT_TRUE(FindingsDb::open(path, false).findings().empty());
  }
}

TEST_F(FindingsDbTest, ARepeatedSignatureCountsInsteadOfAddingARow) {
  FindingsDb db = FindingsDb::open(file("f.db"));
  int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
  db.record_case(a_case(c, 0), {finding("mul", c, 0)});
  db.record_case(a_case(c, 1), {finding("mul", c, 1), finding("add", c, 1)});
  db.record_case(a_case(c, 2), {finding("mul", c, 2)});
  auto all = db.findings();
  ASSERT_EQ(all.size(), 2u);
  std::map<std::string, int64_t> counts;
  for (const auto& f : all) counts[f.signature.op] = f.count;
  EXPECT_EQ(counts["mul"], 3);
  EXPECT_EQ(counts["add"], 1);
  // The first case that showed it stays the finding's example.
  for (const auto& f : all) EXPECT_EQ(f.case_index, f.signature.op == "mul" ? 0u : 1u);
}

TEST_F(FindingsDbTest, AFailedCaseWritesNothing) {
  FindingsDb db = FindingsDb::open(file("f.db"));
  int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
  db.record_case(a_case(c, 0), {});
  // The same case index again breaks the cases key: its finding must not stay either.
  EXPECT_THROW(db.record_case(a_case(c, 0), {finding("mul", c, 0)}), Error);
  EXPECT_TRUE(db.findings().empty());
  EXPECT_EQ(db.done_cases(c).size(), 1u);
}

TEST_F(FindingsDbTest, UnknownFindingNamesTheIdsThereAre) {
  FindingsDb db = FindingsDb::open(file("f.db"));
  int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
  db.record_case(a_case(c, 0), {finding("mul", c, 0)});
  try {
    db.finding(9);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ids 1..1"), std::string::npos) << e.what();
  }
}

TEST_F(FindingsDbTest, ATextFileIsRefusedAndLeftAsItWas) {
  std::string path = file("notes.db");
  std::ofstream(path) << "my notes, not a database\n";
  EXPECT_THROW(FindingsDb::open(path), Error);
  EXPECT_EQ(slurp(path), "my notes, not a database\n");
}

TEST_F(FindingsDbTest, AnotherApplicationsDatabaseIsRefusedAndLeftAsItWas) {
  std::string path = file("other.db");
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(raw, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(raw);
  std::string before = slurp(path);
  try {
    FindingsDb::open(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another application"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), before);
}

TEST_F(FindingsDbTest, ANewerSchemaIsRefused) {
  std::string path = file("new.db");
  { FindingsDb::open(path); }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "UPDATE retort_schema SET version = 99", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  try {
    FindingsDb::open(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
  }
}

TEST_F(FindingsDbTest, ADamagedFileGivesAnErrorNotACrash) {
  std::string path = file("damaged.db");
  { FindingsDb::open(path); }
  std::string bytes = slurp(path);
  // Keep the header, scribble over the schema page.
  for (size_t i = 100; i < bytes.size() && i < 4096; ++i) bytes[i] = '\x5a';
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_THROW(FindingsDb::open(path), Error);
  EXPECT_EQ(slurp(path), bytes);
}

TEST_F(FindingsDbTest, MissingFileWithoutCreateIsAnError) {
  EXPECT_THROW(FindingsDb::open(file("none.db"), false), Error);
  EXPECT_FALSE(fs::exists(file("none.db")));
}

// An empty file named to merge from (or to read) is not made a database: nothing is written
// into it, and the database merged into is unchanged.
TEST_F(FindingsDbTest, MergingAnEmptyFileIsRefusedAndLeavesItEmpty) {
  FindingsDb a = FindingsDb::open(file("a.db"));
  std::ofstream(file("empty.db")).flush();
  try {
    a.merge(file("empty.db"));
    FAIL() << "an empty file was merged";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("an empty file, not a findings database"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fs::file_size(file("empty.db")), 0u);
  EXPECT_FALSE(fs::exists(file("empty.db-wal")));
  EXPECT_THROW(FindingsDb::open(file("empty.db"), false), Error);
  EXPECT_EQ(fs::file_size(file("empty.db")), 0u);
  EXPECT_TRUE(a.findings().empty());
  // An empty file named to write to (a new campaign's --db) still becomes the database.
  EXPECT_NO_THROW(FindingsDb::open(file("empty.db")));
}

// One finding whose stored trace cannot be read is still listed, with why, beside the others;
// merging it is refused, whole.
TEST_F(FindingsDbTest, AnUnreadableTraceSpoilsOnlyItsOwnRow) {
  std::string path = file("damaged.db");
  {
    FindingsDb db = FindingsDb::open(path);
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    db.record_case(a_case(c, 0), {finding("mul", c, 0), finding("add", c, 0)});
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "UPDATE findings SET trace = '{\"steps\": [' WHERE id = 1", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  FindingsDb db = FindingsDb::open(path, false);
  std::vector<FindingRecord> all = db.findings();
  ASSERT_EQ(all.size(), 2u);
  std::map<int64_t, std::string> unreadable;
  for (const FindingRecord& f : all) unreadable[f.id] = f.unreadable;
  EXPECT_EQ(unreadable[1],
            "finding #1: its trace is not JSON of a rewrite trace or program mutations");
  EXPECT_EQ(unreadable[2], "");
  EXPECT_EQ(db.finding(1).unreadable, unreadable[1]);
  FindingsDb into = FindingsDb::open(file("into.db"));
  EXPECT_THROW(into.merge(path), Error);
  EXPECT_TRUE(into.findings().empty());
}

TEST_F(FindingsDbTest, MergeUnionsFindingsAndAddsCountsOnce) {
  FindingsDb a = FindingsDb::open(file("a.db"));
  FindingsDb b = FindingsDb::open(file("b.db"));
  int64_t ca = a.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 2});
  int64_t cb = b.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 1, 2});
  a.record_case(a_case(ca, 0), {finding("mul", ca, 0)});
  b.record_case(a_case(cb, 1), {finding("mul", cb, 1), finding("add", cb, 1)});
  b.record_case(a_case(cb, 3), {finding("add", cb, 3)});
  MergeResult merged = a.merge(file("b.db"));
  EXPECT_EQ(merged.findings, 2u);
  ASSERT_EQ(merged.campaigns.size(), 1u);
  EXPECT_EQ(merged.campaigns[0].first, cb);
  int64_t brought = merged.campaigns[0].second;
  std::map<std::string, int64_t> counts;
  for (const auto& f : a.findings()) counts[f.signature.op] = f.count;
  EXPECT_EQ(counts, (std::map<std::string, int64_t>{{"add", 2}, {"mul", 2}}));
  EXPECT_THROW(a.merge(file("b.db")), Error);
  EXPECT_THROW(a.merge(file("a.db")), Error);
  // The shard brought in is kept, with where it came from; the one to resume stays a's own
  // (issue 27: --resume ran the merged shard's campaign, and its stored command).
  EXPECT_EQ(a.done_cases(brought), (std::set<uint64_t>{1, 3}));
  EXPECT_FALSE(a.campaign(brought)->origin.empty());
  ASSERT_TRUE(a.last_campaign());
  EXPECT_EQ(a.last_campaign()->id, ca);
  EXPECT_EQ(a.last_campaign()->shard, 0u);
}

TEST_F(FindingsDbTest, ADatabaseOnlyOfMergedCampaignsHasNoneToResume) {
  FindingsDb b = FindingsDb::open(file("b.db"));
  b.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
  FindingsDb a = FindingsDb::open(file("a.db"));
  a.merge(file("b.db"));
  EXPECT_EQ(a.campaign_count(), 1u);
  EXPECT_FALSE(a.last_campaign());
  // Merged on: a campaign merged from a merge keeps its first origin.
  FindingsDb c = FindingsDb::open(file("c.db"));
  c.merge(file("a.db"));
  EXPECT_FALSE(c.last_campaign());
  EXPECT_EQ(c.campaign(1)->origin, a.campaign(1)->origin);
}

// Issue 27: a copy made with VACUUM INTO (or the sqlite3 shell: any database not in WAL mode)
// failed with "cannot change into wal mode from within a transaction".
TEST_F(FindingsDbTest, ACopyInAnotherJournalModeOpensAndBecomesWal) {
  {
    FindingsDb db = FindingsDb::open(file("a.db"));
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    db.record_case(a_case(c, 0), {finding("mul", c, 0)});
  }
  for (const std::string mode : {"delete", "truncate", "persist"}) {
    std::string copy = file("copy-" + mode + ".db");
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(file("a.db").c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, ("VACUUM INTO '" + copy + "'").c_str(), nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
    ASSERT_EQ(sqlite3_open(copy.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, ("PRAGMA journal_mode=" + mode).c_str(), nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
    FindingsDb db = FindingsDb::open(copy, false);
    EXPECT_EQ(db.findings().size(), 1u) << mode;
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    db.record_case(a_case(c, 0), {});
    EXPECT_EQ(slurp(copy).substr(18, 2), std::string("\x02\x02", 2)) << mode;  // WAL's versions
  }
}

TEST_F(FindingsDbTest, AVersion1FileIsUpgraded) {
  {
    FindingsDb db = FindingsDb::open(file("old.db"));
    db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(file("old.db").c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw,
                         "ALTER TABLE campaigns DROP COLUMN origin; "
                         "UPDATE retort_schema SET version = 1",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  FindingsDb db = FindingsDb::open(file("old.db"), false);
  ASSERT_TRUE(db.last_campaign());
  EXPECT_EQ(db.last_campaign()->origin, "");
  EXPECT_EQ(db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1}), 2);
}

// The lock of a campaign is the process's: another process that tries it is told who holds it,
// and it is free again once the holder ends, whatever way it ends.
TEST_F(FindingsDbTest, ACampaignIsRunByOneProcessAtATime) {
  std::string db = file("a.db");
  int ready[2], done[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(done), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    CampaignLock lock(db, 7);
    char c = 1;
    if (write(ready[1], &c, 1) != 1) _exit(1);
    if (read(done[0], &c, 1) != 1) _exit(1);  // holds it until the parent says
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  try {
    CampaignLock second(db, 7);
    ADD_FAILURE() << "a second process took the campaign";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find(fmt::format("campaign 7 is being resumed by process {}", child)),
              std::string::npos)
        << e.message();
  }
  { CampaignLock other(db, 8); }  // another campaign of the same file is free
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  CampaignLock after(db, 7);
  for (int fd : {ready[0], ready[1], done[0], done[1]}) close(fd);
}

// Reviews live in a table of their own, made on the first write: a database written before
// reviews existed reads as having none and takes them without a schema change.
TEST_F(FindingsDbTest, ReviewsAreAddedToOlderDatabasesAndReplacedBySignature) {
  std::string path = file("old.db");
  std::string key;
  {
    FindingsDb db = FindingsDb::open(path);
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    db.record_case(a_case(c, 0), {finding("mul", c, 0)});
    key = db.findings()[0].signature.key();
  }
  FindingsDb db = FindingsDb::open(path, false);
  EXPECT_TRUE(db.reviews().empty());
  db.set_review(key, {.agreement = "{}",
                      .disputed = true,
                      .reduced = "",
                      .reduced_b = "",
                      .root = "",
                      .merged_into = 0});
  db.set_review(key, {.agreement = "{\"agree\":[]}",
                      .disputed = false,
                      .reduced = "graph g(x: f32[1]) { y = neg(x) } -> (y)\n",
                      .reduced_b = "",
                      .root = "ort: neg",
                      .merged_into = 3});
  auto reviews = FindingsDb::open(path, false).reviews();
  ASSERT_EQ(reviews.size(), 1u);
  EXPECT_FALSE(reviews[key].disputed);
  EXPECT_EQ(reviews[key].root, "ort: neg");
  EXPECT_EQ(reviews[key].merged_into, 3);
  EXPECT_EQ(db.findings().size(), 1u);
}

// Blames (core/campaign/blame.h) live in a table of their own too: an older database opens as
// it is, reads as having none, and keeps the passes in their order.
TEST_F(FindingsDbTest, BlamesAreAddedToOlderDatabasesAndReplacedBySignature) {
  std::string path = file("old.db");
  std::string key;
  {
    FindingsDb db = FindingsDb::open(path);
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    db.record_case(a_case(c, 0), {finding("matmul", c, 0)});
    key = db.findings()[0].signature.key();
  }
  FindingsDb db = FindingsDb::open(path, false);
  EXPECT_TRUE(db.blames().empty());
  db.set_blame(key, {.backend = "ort:O3", .passes = {}, .minimal = true, .runs = 1, .at = "t0"});
  PassBlame two{.backend = "ort:O3",
                .passes = {"MatmulTransposeFusion", "Pad_Fusion"},
                .minimal = false,
                .runs = 9,
                .at = "t1"};
  db.set_blame(key, two);
  auto blames = FindingsDb::open(path, false).blames();
  ASSERT_EQ(blames.size(), 1u);
  EXPECT_EQ(blames[key], two);
  EXPECT_TRUE(db.reviews().empty());
  EXPECT_THROW(db.set_blame(key, {.backend = "ort:O3", .passes = {"a,b"}}), Error);
  EXPECT_EQ(FindingsDb::open(path, false).blames()[key], two);
}

// A database written before known bugs (no `known` or `user_roots` table) opens, reads its
// findings as new and no roots, and takes labels and roots afterwards; the first label of a
// signature stays, and a merge brings the library's labels along but not the other database's
// own roots.
TEST_F(FindingsDbTest, KnownLabelsAndUserRootsAreAddedToOlderDatabases) {
  std::string path = file("old.db");
  {
    FindingsDb db = FindingsDb::open(path);
    int64_t c = db.add_campaign({0, utc_now(), "{}", "0.1.0", "{}", 1, 0, 1});
    db.record_case(a_case(c, 0), {finding("mul", c, 0)});
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "DROP TABLE IF EXISTS known; DROP TABLE IF EXISTS user_roots",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  FindingsDb db = FindingsDb::open(path, false);
  ASSERT_EQ(db.findings().size(), 1u);
  EXPECT_EQ(db.findings()[0].known, "");
  EXPECT_TRUE(db.user_roots().empty());

  FindingRecord known = finding("max_pool", 1, 1);
  known.known = "row 1";
  FindingRecord user = finding("abs", 1, 1);
  user.known = "user 1";
  db.record_case(a_case(1, 1), {known, user});
  FindingRecord again = known;
  again.known = "row 2";  // a later sighting judged otherwise
  db.record_case(a_case(1, 2), {again});
  db.set_known(db.findings().back().signature.key(), "row 3");  // the oldest, mul
  std::map<std::string, std::string> labels;
  for (const FindingRecord& f : FindingsDb::open(path, false).findings())
    labels[f.signature.op] = f.known;
  EXPECT_EQ(labels, (std::map<std::string, std::string>{
                        {"max_pool", "row 1"}, {"abs", "user 1"}, {"mul", "row 3"}}));
  for (const FindingRecord& f : db.findings()) EXPECT_EQ(db.finding(f.id).known, f.known);

  UserRoot root{.id = 0,
                .finding = 2,
                .family = "ort",
                .backend = "ort:O3",
                .release = "1.30.0",
                .verdict = "mismatch",
                .graph = "graph g\ninput x : f32[2]\ny = abs(x)\noutput y\n",
                .trigger = R"({"op":"abs"})",
                .summary = "ort reference mismatch at abs (f32)",
                .added = utc_now()};
  EXPECT_EQ(db.add_user_root(root), 1);
  EXPECT_EQ(db.add_user_root(root), 2);
  std::vector<UserRoot> roots = FindingsDb::open(path, false).user_roots();
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_EQ(roots[1].id, 2);
  EXPECT_EQ(roots[0].graph, root.graph);
  EXPECT_EQ(roots[0].release, "1.30.0");

  FindingsDb merged = FindingsDb::open(file("merged.db"));
  merged.merge(path);
  labels.clear();
  for (const FindingRecord& f : merged.findings()) labels[f.signature.op] = f.known;
  EXPECT_EQ(labels, (std::map<std::string, std::string>{
                        {"max_pool", "row 1"}, {"abs", ""}, {"mul", "row 3"}}));
  EXPECT_TRUE(merged.user_roots().empty());
}

}  // namespace
}  // namespace retort
