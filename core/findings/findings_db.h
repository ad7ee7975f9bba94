// The findings database: one SQLite file (WAL journal, one transaction per case) holding the
// campaigns, every case they ran and the distinct failures they found, keyed by signature
// (core/compare/signature.h). A repeat of a signature adds to the existing finding's count.
// Schema and file rules: docs/campaigns.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/compare/signature.h"
#include "core/findings/finding_trace.h"

struct sqlite3;

namespace retort {

// 2: campaigns.origin (which database a merged campaign came from). Version 1 files are
// upgraded when opened.
inline constexpr int kFindingsSchemaVersion = 2;

struct CampaignRecord {
  int64_t id = 0;
  std::string started;         // UTC, "2026-11-23T22:50:01Z"
  std::string options;         // the campaign's options as JSON (core/campaign/campaign.h)
  std::string retort_version;  // kRetortVersion
  std::string backends;        // JSON object: backend name -> version
  uint64_t seed = 0;
  uint64_t shard = 0, shards = 1;  // this campaign runs cases i with i % shards == shard
  // Empty for a campaign started in this database; for one brought in by `findings merge`, the
  // id of the database it was started in. Only a campaign of one's own is resumed.
  std::string origin{};
};

// What `findings merge` brought in.
struct MergeResult {
  size_t findings = 0;
  std::vector<std::pair<int64_t, int64_t>> campaigns;  // (id there, id here)
};

// One case a campaign ran: its seed and where its time went.
struct CaseRecord {
  int64_t campaign = 0;
  uint64_t index = 0, seed = 0;
  size_t nodes = 0, graphs = 0;  // the generated graph's op nodes; graphs compared
  double gen_ms = 0, saturate_ms = 0, extract_ms = 0, compare_ms = 0;
  size_t findings = 0;  // distinct findings seen in this case (each adds 1 to its finding's count)
  std::string error;    // why Retort itself could not finish the case (empty when it did)
};

struct FindingRecord {
  int64_t id = 0;
  FailureSignature signature;
  std::string backend_a, graph_a, backend_b, graph_b;  // as the compare Finding names them
  std::string backends;  // the backends compared, comma-separated ("ref,ort:O0,ort:O3")
  std::string original;  // the original graph as .rtg text
  std::string variants;  // JSON object: variant name -> .rtg text (graph_a among them)
  FindingTrace trace;    // how the variants were made
  // Why its stored trace cannot be read (then `trace` is empty): the finding is still listed,
  // but cannot be replayed or merged. Empty when it was read.
  std::string unreadable;
  uint64_t case_seed = 0, inputs_seed = 0;
  std::string verdicts;   // JSON: [{backend, graph, verdict, message}] of the failing cells
  std::string diverging;  // the compare Finding's line (which output, how far off)
  int64_t count = 1;
  std::string first_seen, last_seen;  // UTC
  int64_t campaign = 0;
  uint64_t case_index = 0;
  // The known bug that explains it, decided when it was first recorded
  // (core/campaign/known_bugs.h): "row 1" (docs/bugs.md), "user 2" (a root of this database's);
  // empty: a new root, or recorded before the check existed.
  std::string known{};
};

// A root a person added from a finding (`findings known add N`): its graph, the backend and
// verdict it shows, and the trigger pattern taken from the node its signature names.
struct UserRoot {
  int64_t id = 0;                        // "user ID"
  int64_t finding = 0;                   // the finding it was made from
  std::string family, backend, release;  // release: "" when the campaign did not record it
  std::string verdict;                   // as verdict_name prints it
  std::string graph;                     // .rtg text: the reduced graph, else the graph under test
  std::string trigger;                   // JSON of core/gen/node_pattern.h's NodePattern
  std::string summary;                   // the finding's signature, for people
  std::string added;                     // UTC
};

// What the end of a campaign learnt about a finding (core/campaign/review.h): who agrees with
// whom on its case, its reduced graph, and the finding it was merged into. Kept in a table of
// its own (reviews, keyed by signature) made on the first write, so that databases written
// before it open and read as they are.
struct FindingReview {
  std::string agreement;    // JSON of core/campaign/review.h's Agreement; empty: not asked
  bool disputed = false;    // the two references disagree on its case: not a compiler bug
  std::string reduced;      // .rtg text of the reduced graph under test; empty: not reduced
  std::string reduced_b;    // of the graph it had to agree with (an equivalence finding)
  std::string root;         // what the reduced graph comes down to: one root, one finding
  int64_t merged_into = 0;  // the finding it was merged into; 0: none
};

// Which of its compiler's own passes a finding's difference needs (core/campaign/blame.h): the
// passes of `backend` whose turning off makes it go. Kept in a table of its own (blames, keyed by
// signature) made on the first write, so that databases written before it open as they are.
struct PassBlame {
  std::string backend{};              // whose passes were turned off: "ort:O3"
  std::vector<std::string> passes{};  // empty: the difference stays with every switch off
  bool minimal = true;  // no pass of `passes` may stay on; false: the time ran out before
  int64_t runs = 0;     // compares run to find them
  std::string at{};     // UTC

  bool operator==(const PassBlame&) const = default;
};

class FindingsDb {
 public:
  // Opens (and with create, makes) the database. Throws Error, leaving the file untouched, when
  // it is not a SQLite file, is another application's database or has a newer schema. A file in
  // another journal mode (a copy made with VACUUM INTO, the sqlite3 shell's) is switched to WAL.
  static FindingsDb open(const std::string& path, bool create = true);
  // ${XDG_DATA_HOME:-~/.local/share}/retort/findings.db
  static std::string default_path();

  FindingsDb(FindingsDb&&) noexcept;
  FindingsDb& operator=(FindingsDb&&) noexcept;
  ~FindingsDb();

  const std::string& path() const { return path_; }

  int64_t add_campaign(CampaignRecord c);  // returns its id
  // The backends' versions are known once their workers have started (after the first case).
  void set_campaign_backends(int64_t id, const std::string& backends);
  std::optional<CampaignRecord> campaign(int64_t id) const;
  // The newest campaign started in this database (not one brought in by merge).
  std::optional<CampaignRecord> last_campaign() const;
  size_t campaign_count() const;
  std::set<uint64_t> done_cases(int64_t campaign) const;
  std::vector<CaseRecord> cases(int64_t campaign) const;

  // One transaction: the case and its findings; a finding whose signature is known adds its
  // count to the existing one and moves its last-seen time. Nothing is written on an Error.
  void record_case(const CaseRecord& c, const std::vector<FindingRecord>& findings);

  std::vector<FindingRecord> findings() const;  // newest (last seen) first
  // Throws Error naming the ids there are when there is no finding `id`.
  FindingRecord finding(int64_t id) const;

  // Copies the campaigns, cases and findings of another findings database into this one (one
  // transaction); known signatures add their counts. Refuses a database merged before (by its
  // id, so a copy counts too). The campaigns brought in keep where they came from (origin), so
  // that `fuzz --resume` goes on with this database's own campaign.
  MergeResult merge(const std::string& other_path);

  // Stores (replaces) the review of the finding with this signature key.
  void set_review(const std::string& signature, const FindingReview& review);
  // Every stored review, by signature key; none for a database without the table.
  std::map<std::string, FindingReview> reviews() const;

  // Stores (replaces) the blame of the finding with this signature key.
  void set_blame(const std::string& signature, const PassBlame& blame);
  // Every stored blame, by signature key; none for a database without the table.
  std::map<std::string, PassBlame> blames() const;
  // Labels the finding with this signature key as explained by a known bug
  // (FindingRecord::known); a finding labelled before keeps its label. record_case does this for
  // the findings it is given with a label.
  void set_known(const std::string& signature, const std::string& label);

  // The roots people added (`findings known add`), oldest first; add_user_root returns its id.
  // Kept in a table of their own (user_roots), made on the first write like reviews.
  int64_t add_user_root(const UserRoot& root);
  std::vector<UserRoot> user_roots() const;

 private:
  FindingsDb(std::string path, sqlite3* db);
  void exec(const std::string& sql) const;
  void switch_to_wal();
  void upgrade_schema(int64_t from_version);
  void upsert_finding(const FindingRecord& f);
  void insert_case(const CaseRecord& c);
  std::string db_id() const;  // random at creation: recognises a database merged before
  bool has_table(const char* name) const;
  void insert_known(const std::string& signature, const std::string& label);
  std::map<std::string, std::string> known_labels() const;  // signature key -> FindingRecord::known

  std::string path_;
  sqlite3* db_ = nullptr;
};

// The current time as the database stores it.
std::string utc_now();

// Marks campaign `campaign` of a database as run by this process while it lives: an fcntl lock
// on one byte of FILE-lock beside the database, which the system releases when the process ends,
// however it ends (kill -9 included). Throws Error "campaign N is being resumed by process P"
// when another process holds it.
class CampaignLock {
 public:
  CampaignLock(const std::string& db_path, int64_t campaign);
  ~CampaignLock();
  CampaignLock(const CampaignLock&) = delete;
  CampaignLock& operator=(const CampaignLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace retort
