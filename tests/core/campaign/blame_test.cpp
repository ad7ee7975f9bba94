#include "core/campaign/blame.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "core/backend/backend_set.h"
#include "core/backend/family.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/review.h"
#include "core/io/file_io.h"

namespace retort {
namespace {

using Names = std::vector<std::string>;

bool has(const Names& set, const std::string& name) {
  return std::find(set.begin(), set.end(), name) != set.end();
}

// ORT's passes, as `findings blame` searches them.
const Names& ort_passes() {
  return get_family("ort").passes.names;
}

// A compiler whose difference needs one pass: it goes as soon as that pass is off.
TEST(MinimalSwitches, FindsTheOnePassOfMany) {
  std::set<Names> asked;
  SwitchSearch s = minimal_switches(ort_passes(), [&](const Names& off) {
    EXPECT_TRUE(asked.insert(off).second) << "a set asked twice";
    return has(off, "MatmulTransposeFusion");
  });
  EXPECT_EQ(s.names, Names{"MatmulTransposeFusion"});
  EXPECT_TRUE(s.minimal);
  EXPECT_EQ(s.asked, asked.size());
  // Halving 59 names down to one: about two questions a level, far below one per pass.
  EXPECT_LE(s.asked, 14u);
}

// Two passes that each make the difference alone (both rewrite the same node wrongly): it goes
// only with both off, and neither may be left on.
TEST(MinimalSwitches, KeepsPassesThatAreNeededTogether) {
  Names names;
  for (int i = 0; i < 16; ++i) names.push_back(fmt::format("p{}", i));
  SwitchSearch s =
      minimal_switches(names, [](const Names& off) { return has(off, "p3") && has(off, "p12"); });
  EXPECT_EQ(s.names, (Names{"p3", "p12"}));
  EXPECT_TRUE(s.minimal);
}

// A difference that needs two passes to run (the second rewrites what the first made): turning
// either off removes it, and one of them is enough to name.
TEST(MinimalSwitches, NamesOneOfTwoPassesThatMustBothRun) {
  Names names{"a", "b", "c", "d", "e", "f", "g"};
  SwitchSearch s =
      minimal_switches(names, [](const Names& off) { return has(off, "b") || has(off, "f"); });
  ASSERT_EQ(s.names.size(), 1u);
  EXPECT_TRUE(s.names[0] == "b" || s.names[0] == "f") << s.names[0];
}

// Three passes needed together among names spread over both halves and the complements: the
// complement step (ddmin's, not plain halving) finds them.
TEST(MinimalSwitches, FindsThreeScatteredPasses) {
  Names names;
  for (int i = 0; i < 10; ++i) names.push_back(fmt::format("p{}", i));
  auto gone = [](const Names& off) { return has(off, "p0") && has(off, "p4") && has(off, "p9"); };
  SwitchSearch s = minimal_switches(names, gone);
  EXPECT_EQ(s.names, (Names{"p0", "p4", "p9"}));
  for (const auto& name : s.names) {
    Names fewer;
    for (const auto& n : s.names)
      if (n != name) fewer.push_back(n);
    EXPECT_FALSE(gone(fewer)) << name << " could be left on";
  }
}

// Out of time: the search stops with the last set for which the difference went.
TEST(MinimalSwitches, StoppedEarlyKeepsASetThatStillRemovesTheDifference) {
  size_t budget = 3;
  auto gone = [](const Names& off) { return has(off, "ConstantFolding"); };
  SwitchSearch s = minimal_switches(ort_passes(), gone, [&] { return budget-- > 0; });
  EXPECT_FALSE(s.minimal);
  EXPECT_EQ(s.asked, 3u);
  EXPECT_TRUE(gone(s.names));
  EXPECT_GT(s.names.size(), 1u);
}

TEST(PassBlameText, SaysWhatTurningThePassesOffDid) {
  PassBlame one{.backend = "ort:O3", .passes = {"MatmulTransposeFusion"}, .runs = 9};
  EXPECT_EQ(blame_text(one),
            "MatmulTransposeFusion (turning it off on ort:O3 removes the difference; 9 runs)");
  EXPECT_EQ(blame_root(one), "ort: MatmulTransposeFusion");
  PassBlame none{.backend = "ort@1.16.3:O3", .passes = {}, .runs = 1};
  EXPECT_EQ(blame_text(none),
            "none (the difference stays with every switchable pass of ort@1.16.3:O3 off; 1 run)");
  EXPECT_EQ(blame_root(none), "");
  PassBlame two{.backend = "ort@1.16.3:O2",
                .passes = {"DivMulFusion", "FuseReluClip"},
                .minimal = false,
                .runs = 4};
  EXPECT_EQ(blame_root(two), "ort@1.16.3: DivMulFusion + FuseReluClip");
  EXPECT_NE(blame_text(two).find("the time ran out"), std::string::npos);
}

// A blame read from a database is used only when its passes are the family's own.
TEST(PassBlameText, OnlyDeclaredPassesCount) {
  EXPECT_TRUE(declared_blame({.backend = "ort:O2", .passes = {"NotWhereFusion"}}));
  EXPECT_FALSE(declared_blame({.backend = "ort:O2", .passes = {"\x1b]2;x\x07"}}));
  EXPECT_FALSE(declared_blame({.backend = "mine", .passes = {"NotWhereFusion"}}));
  EXPECT_EQ(find_pass_switches("onnx-ref"), nullptr);
}

// The end of a campaign, on the real ONNX Runtime: with time left after the reviews, the review
// names the passes of docs/bugs.md row 15 as a campaign records it (MatMul of a Transpose and a
// 1-D input, wrong on ort:O3): MatmulTransposeFusion.
TEST(ReviewBlame, TheReviewNamesThePassesWithTheTimeLeft) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("retort_review_blame_{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  FindingsDb db = FindingsDb::open((dir / "f.db").string());
  CampaignOptions options;
  int64_t c = db.add_campaign({0, utc_now(), options.to_json().dump(), "0", "{}", 1, 0, 1});
  FindingRecord f;
  f.signature = {"ort", "reference", "mismatch", "matmul", "f32", "", ""};
  f.backend_a = "ort:O3";
  f.graph_a = f.graph_b = "original";
  f.backend_b = "ref";
  f.backends = "ref,ort:O3";
  f.original = read_file(RETORT_SOURCE_DIR "/samples/bugs/ort_transpose_matmul_1d.rtg");
  f.variants = "{}";
  f.inputs_seed = 1;
  f.first_seen = f.last_seen = utc_now();
  f.campaign = c;
  db.record_case({c, 0, 0, 2, 1, 0, 0, 0, 0, 1, ""}, {f});
  BackendSet set;
  std::vector<std::string> lines;
  ReviewOptions review;
  review.opinion = review.reduce = false;
  review.seconds = 300;
  review.progress = [&](const std::string& line) { lines.push_back(line); };
  review_campaign(
      db, c, options, [&](const std::string& n) -> Backend& { return set.get(n); }, review);
  auto blames = db.blames();
  ASSERT_EQ(blames.size(), 1u) << fmt::format("{}", fmt::join(lines, "\n"));
  PassBlame b = blames.begin()->second;
  EXPECT_EQ(b.backend, "ort:O3");
  EXPECT_EQ(b.passes, Names{"MatmulTransposeFusion"});
  EXPECT_TRUE(b.minimal);
  EXPECT_NE(lines.back().find("#1 pass MatmulTransposeFusion"), std::string::npos) << lines.back();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace retort
