#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/session/journal.h"

namespace retort {
namespace {

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("retort_journal_test_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    path_ = (dir_ / "state" / "journal.jsonl").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(JournalTest, UnfinishedJournalGivesItsCommands) {
  {
    auto j = JournalFile::create(path_, 7);
    j->append({"load a.rtg", true, true});
    j->append({"bogus", false, true});
    j->append({"render egraph", true, false});
    j->append({"egraph", true, true});
  }  // closed without finish(): the process was killed
  auto pending = read_unfinished_journal(path_);
  ASSERT_TRUE(pending.has_value());
  EXPECT_EQ(pending->seed, 7u);
  EXPECT_EQ(pending->entries.size(), 4u);
  EXPECT_EQ(pending->restorable(), (std::vector<std::string>{"load a.rtg", "egraph"}));
}

TEST_F(JournalTest, FinishedJournalOffersNothing) {
  {
    auto j = JournalFile::create(path_, 1);
    j->append({"egraph", true, true});
    j->finish();
  }
  EXPECT_FALSE(read_unfinished_journal(path_).has_value());
  EXPECT_FALSE(read_unfinished_journal((dir_ / "none.jsonl").string()).has_value());
}

TEST_F(JournalTest, LineCutShortIsDroppedOtherBadLinesAreErrors) {
  {
    auto j = JournalFile::create(path_, 1);
    j->append({"egraph", true, true});
  }
  {
    std::ofstream out(path_, std::ios::app);
    out << "{\"command\": \"sat";
  }
  auto pending = read_unfinished_journal(path_);
  ASSERT_TRUE(pending.has_value());
  EXPECT_EQ(pending->restorable(), std::vector<std::string>{"egraph"});
  {
    std::ofstream out(path_, std::ios::app);
    out << "\n";
  }
  try {
    read_unfinished_journal(path_);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 3) << e.what();
  }
}

}  // namespace
}  // namespace retort
