// Which checks the speed run carries and which of them run once more (batch/run_plan.hpp): the
// checks the hosted memcheck run left over ride in the speed run's process, and a failure of
// theirs must not cost a speed check what it would not have cost in a process of its own.
#include "batch/run_plan.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace batch {
namespace {

using contract::Verdict;
using Ids = std::vector<std::string>;

contract::LabSpec spec_with(const std::string& checks) {
  return contract::parse_spec(
      nlohmann::json::parse(R"({"lab": "lab0", "title": "Fake", "checks": [)" + checks + "]}"),
      "fake-spec.json");
}

// A function, not a global: the spec schema's tables are other files' statics.
contract::LabSpec with_speed() {
  return spec_with(R"(
  {"id": "Lab.Small", "kind": "correctness", "title": "s", "points": 1},
  {"id": "Lab.Large", "kind": "correctness", "title": "l", "points": 1},
  {"id": "Lab.Shared", "kind": "structure", "title": "m", "points": 1},
  {"id": "Lab.Speed", "kind": "speed", "title": "v", "points": 1, "reference": "naive"},
  {"id": "Lab.SpeedBig", "kind": "speed", "title": "w", "points": 1, "reference": "naive"})");
}

contract::CheckRecord record(const std::string& check, Verdict verdict) {
  contract::CheckRecord made;
  made.check = check;
  made.verdict = verdict;
  return made;
}

// A speed check's record with a measured time (slow: failed, but timed).
contract::CheckRecord timed(const std::string& check, Verdict verdict) {
  auto made = record(check, verdict);
  made.timing = contract::Timing{};
  return made;
}

TEST(RunPlan, TheSpeedRunCarriesTheLeftChecksInSpecOrder) {
  EXPECT_EQ(speed_run_checks(with_speed(), {"Lab.Shared", "Lab.Large"}),
            (Ids{"Lab.Large", "Lab.Shared", "Lab.Speed", "Lab.SpeedBig"}));
  EXPECT_EQ(speed_run_checks(with_speed(), {}), (Ids{"Lab.Speed", "Lab.SpeedBig"}));
  EXPECT_EQ(checks_of_kind(with_speed(), false), (Ids{"Lab.Small", "Lab.Large", "Lab.Shared"}));
}

// A lab without speed checks has no turn alone to carry them in: they keep a shared run.
TEST(RunPlan, WithoutASpeedCheckTheLeftChecksAreNotCarried) {
  const auto no_speed = spec_with(R"(
    {"id": "Lab.Small", "kind": "correctness", "title": "s", "points": 1},
    {"id": "Lab.Shared", "kind": "structure", "title": "m", "points": 1})");
  EXPECT_TRUE(speed_run_checks(no_speed, {"Lab.Shared"}).empty());
}

// A left check that failed (its launcher stopped answering, say) may have taken the speed
// checks after it down: one the grader failed unmeasured ("not run: ...") runs again; one that
// passed keeps its record.
TEST(RunPlan, AfterALeftCheckFailedAnUnmeasuredSpeedCheckRunsAgain) {
  const std::vector<contract::CheckRecord> records{
      record("Lab.Large", Verdict::fail), record("Lab.Shared", Verdict::pass),
      record("Lab.Speed", Verdict::fail), timed("Lab.SpeedBig", Verdict::pass)};
  EXPECT_EQ(speed_checks_to_run_again(with_speed(), {"Lab.Large", "Lab.Shared"}, records),
            (Ids{"Lab.Speed"}));
}

// A slow kernel's timed speed records stand: a second timing would be a second chance that
// students whose left checks passed do not get.
TEST(RunPlan, ATimedSpeedCheckIsNotRunAgain) {
  const std::vector<contract::CheckRecord> records{record("Lab.Shared", Verdict::fail),
                                                   timed("Lab.Speed", Verdict::fail),
                                                   timed("Lab.SpeedBig", Verdict::inconclusive)};
  EXPECT_TRUE(speed_checks_to_run_again(with_speed(), {"Lab.Shared"}, records).empty());
}

// Only what ran after the failed left check: a speed check before it shared nothing with it.
TEST(RunPlan, ASpeedCheckBeforeTheFailedLeftCheckIsNotRunAgain) {
  const std::vector<contract::CheckRecord> records{record("Lab.Speed", Verdict::fail),
                                                   record("Lab.Shared", Verdict::fail),
                                                   record("Lab.SpeedBig", Verdict::error)};
  EXPECT_EQ(speed_checks_to_run_again(with_speed(), {"Lab.Shared"}, records),
            (Ids{"Lab.SpeedBig"}));
}

TEST(RunPlan, WhenTheLeftChecksPassedNothingRunsAgain) {
  const std::vector<contract::CheckRecord> records{
      record("Lab.Large", Verdict::pass), record("Lab.Shared", Verdict::skipped),
      record("Lab.Speed", Verdict::fail), record("Lab.SpeedBig", Verdict::fail)};
  EXPECT_TRUE(
      speed_checks_to_run_again(with_speed(), {"Lab.Large", "Lab.Shared"}, records).empty());
  // A failed check that was not left over (none were) is the speed run's own: no second run.
  EXPECT_TRUE(speed_checks_to_run_again(with_speed(), {}, records).empty());
}

}  // namespace
}  // namespace batch
