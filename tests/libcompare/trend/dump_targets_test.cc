// Target ids as msprobe's flushes give them, and the rows that wait for them: the same database
// whether they wait in memory or spill to the temporary table; the first of two rows with one key wins.
#include "trend/dump_targets_internal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace msprobe::compare::internal {
namespace {

using testing::TempDir;

std::vector<std::string> Dump(const std::string& path, const char* query) {
  Result<SqliteDb> db = SqliteDb::Open(path, SqliteDb::Mode::kReadOnly);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  Result<SqliteStatement> q = db->Prepare(query);
  EXPECT_TRUE(q.ok());
  std::vector<std::string> rows;
  while (*q->Step()) {
    std::string row;
    for (int c = 0; c < 4; ++c) row += (q->IsNull(c) ? "NULL" : std::string(q->Text(c))) + "|";
    rows.push_back(row);
  }
  return rows;
}

// Two files' worth of rows: targets met under forward and backward, a flush after the first, and
// a row repeated with another value before any flush.
std::string Write(const std::string& path, size_t waiting_in_memory) {
  Result<TrendDb> db = TrendDb::Create(path);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_TRUE(db->CreateTrendData(kDumpStats).ok());
  for (std::string_view m : kDumpMetrics) EXPECT_TRUE(db->AddMetric(m).ok());
  DumpTargets targets(&*db, waiting_in_memory);
  auto add = [&](int64_t step, const std::string& name, int metric, double norm) {
    EXPECT_TRUE(targets.AddRow(0, step, name, 0, metric, {norm, std::nullopt, -1.0, 2.0}).ok());
  };
  for (int i = 0; i < 20; ++i) add(0, "Module.m" + std::to_string(i) + ".Linear.input.0", 1 + i % 2, i);
  add(0, "Module.m0.Linear.input.0", 1, 99);  // same key as the first row: ignored
  add(0, "Module.m1.Linear.input.0", 1, 7);   // met under forward after backward: spends an id
  EXPECT_TRUE(targets.Flush().ok());
  for (int i = 0; i < 25; ++i) add(1, "Module.m" + std::to_string(i) + ".Linear.input.0", 2, 100 + i);
  EXPECT_TRUE(targets.Flush().ok());
  EXPECT_TRUE(targets.WriteTags().ok());
  EXPECT_EQ(db->rows(), 20u + 1u + 25u);
  const Status finished = db->Finish({}).status();
  EXPECT_TRUE(finished.ok()) << finished.ToString();
  return path;
}

TEST(DumpTargets, SpillingChangesNothing) {
  TempDir dir;
  const std::string memory = Write(dir.Path("memory.db"), 1 << 16), spilled = Write(dir.Path("spilled.db"), 3);
  for (const char* query : {"SELECT rank, step, target_id, norm FROM trend_data ORDER BY rank, step, target_id, metric_id",
                            "SELECT target_id, target_name, vpp_stage, micro_step FROM monitoring_targets ORDER BY 1",
                            "SELECT tag_id, tag_name, category, metric_id FROM monitoring_tags ORDER BY 1",
                            "SELECT name, seq, 0, 0 FROM sqlite_sequence ORDER BY 1"}) {
    EXPECT_EQ(Dump(memory, query), Dump(spilled, query)) << query;
  }
  // The first flush inserts forward's new targets, then backward's: m0, m2, ..., m18 and m1 (met under
  // forward last) take 1-11; backward's m1 spends 12 and m3, ..., m19 take 13-21. The second flush's
  // backward m0, m2, ..., m18 (ids already) spend 22-31, and m20-m24 take 32-36.
  const auto first = Dump(memory, "SELECT target_id, target_name, norm, 0 FROM trend_data JOIN monitoring_targets "
                                  "USING (target_id) WHERE step = 0 AND target_name LIKE 'Module.m0.%'");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], "1|Module.m0.Linear.input.0|0.0|0|");
  EXPECT_EQ(Dump(memory, "SELECT target_id, target_name, 0, 0 FROM monitoring_targets WHERE target_id IN (11, 13, 32)"),
            (std::vector<std::string>{"11|Module.m1.Linear.input.0|0|0|", "13|Module.m3.Linear.input.0|0|0|",
                                      "32|Module.m20.Linear.input.0|0|0|"}));
  EXPECT_EQ(Dump(memory, "SELECT seq, 0, 0, 0 FROM sqlite_sequence WHERE name = 'monitoring_targets'"),
            (std::vector<std::string>{"36|0|0|0|"}));
}

TEST(TrendDb, NothingUnderTheFinalNameUntilFinished) {
  TempDir dir;
  const std::string path = dir.Path("x.trend.db");
  {
    Result<TrendDb> db = TrendDb::Create(path);
    ASSERT_TRUE(db.ok());
    EXPECT_FALSE(std::filesystem::exists(path));
  }  // dropped unfinished: its temporary file goes too
  EXPECT_TRUE(std::filesystem::is_empty(dir.root()));
}

}  // namespace
}  // namespace msprobe::compare::internal
