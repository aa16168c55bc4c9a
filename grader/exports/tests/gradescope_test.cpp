#include "exports/gradescope.hpp"

#include <set>

#include <gtest/gtest.h>

#include "class_fixture.hpp"

namespace exports {
namespace {

std::set<std::string> keys(const nlohmann::json& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

const std::set<std::string> kTopLevel{"score",         "execution_time", "output",
                                      "output_format", "tests",          "extra_data"};
const std::set<std::string> kTest{"score",  "max_score",     "status", "name",       "number",
                                  "output", "output_format", "tags",   "visibility", "extra_data"};

class Gradescope : public ::testing::Test {
 protected:
  contract::LabSpec spec = testing::make_spec();
  std::vector<StudentOutcome> outcomes = testing::make_class(spec);
};

TEST_F(Gradescope, DocumentedFieldsOnlyAndScoreIsTheSumOfTests) {
  for (const auto& outcome : outcomes) {
    const auto results = gradescope_results(spec, outcome);
    SCOPED_TRACE(outcome.student);
    EXPECT_EQ(keys(results), kTopLevel);
    EXPECT_EQ(results["output_format"], "text");
    ASSERT_TRUE(results["tests"].is_array());
    ASSERT_FALSE(results["tests"].empty());
    double sum = 0;
    for (const auto& test : results["tests"]) {
      // "status" is left out only where the check did not judge the submission.
      auto expected_keys = kTest;
      const std::string verdict = test["extra_data"].value("verdict", "");
      if (verdict == "skipped" || verdict == "not measured") expected_keys.erase("status");
      EXPECT_EQ(keys(test), expected_keys) << verdict;
      if (test.contains("status")) {
        EXPECT_TRUE(test["status"] == "passed" || test["status"] == "failed");
      }
      EXPECT_EQ(test["visibility"], "visible");
      EXPECT_EQ(test["output_format"], "text");
      EXPECT_TRUE(test["number"].is_string());
      EXPECT_TRUE(test["tags"].is_array());
      EXPECT_TRUE(test["extra_data"].is_object());
      EXPECT_LE(test["score"].get<double>(), test["max_score"].get<double>());
      sum += test["score"].get<double>();
    }
    EXPECT_EQ(results["score"].get<double>(), sum);
    EXPECT_NO_THROW((void)results.dump()) << "invalid UTF-8 would make dump() throw";
  }
}

TEST_F(Gradescope, OneTestPerCheckInSpecOrder) {
  const auto results = gradescope_results(spec, outcomes[1]);  // the <script> student
  ASSERT_EQ(results["tests"].size(), 3u);
  EXPECT_EQ(results["score"].get<double>(), 5);
  const auto& first = results["tests"][0];
  EXPECT_EQ(first["name"], "matmul_tiled is exact (Tiled.Correctness)");
  EXPECT_EQ(first["number"], "1");
  EXPECT_EQ(first["max_score"].get<double>(), 10);
  EXPECT_EQ(first["status"], "failed");
  EXPECT_EQ(first["tags"], nlohmann::json::array({"correctness"}));
  EXPECT_EQ(first["extra_data"]["verdict"], "fail");
  // Plain text: the reason is kept as written, and the "text" format shows it as such.
  EXPECT_NE(first["output"].get<std::string>().find("<img src=x onerror=alert(1)>"),
            std::string::npos);
  EXPECT_EQ(results["tests"][2]["extra_data"]["verdict"], "inconclusive");
  EXPECT_EQ(results["extra_data"]["student"], testing::kScriptName);
  EXPECT_EQ(results["extra_data"]["max_score"].get<double>(), 20);
}

TEST_F(Gradescope, UngradedStudentGetsZeroAndOneTestSayingWhy) {
  const auto results = gradescope_results(spec, outcomes[2]);
  EXPECT_EQ(results["score"].get<double>(), 0);
  ASSERT_EQ(results["tests"].size(), 1u);
  const auto& test = results["tests"][0];
  EXPECT_EQ(test["name"], "Submission: compile error");
  EXPECT_EQ(test["status"], "failed");
  EXPECT_EQ(test["max_score"].get<double>(), 20);
  const auto output = test["output"].get<std::string>();
  EXPECT_NE(output.find("could not be graded: compile error"), std::string::npos);
  EXPECT_NE(output.find("expected a \";\""), std::string::npos);
  EXPECT_EQ(output.find('\x1b'), std::string::npos) << "terminal colours removed";
  EXPECT_EQ(output.find('\x07'), std::string::npos);
  EXPECT_EQ(results["extra_data"]["status"], "compile error");
}

TEST_F(Gradescope, InvalidUtf8AndControlBytesAreCleaned) {
  const auto results = gradescope_results(spec, outcomes[4]);
  EXPECT_EQ(results["extra_data"]["student"], "badbytes\uFFFD end");
  const std::string dumped = results.dump();
  EXPECT_EQ(dumped.find("\\u0000"), std::string::npos);
  EXPECT_EQ(dumped.find("\\u0001"), std::string::npos);
  EXPECT_NE(results["tests"][0]["output"].get<std::string>().find("killed after 120 s tail"),
            std::string::npos);
}

// Graded without a GPU: the speed check was not measured. It earns nothing, and Gradescope must
// not show it as failed: no status (Gradescope's field is optional), and the name says why.
TEST_F(Gradescope, ANotMeasuredCheckIsNeitherPassedNorFailed) {
  const auto emulated = testing::make_emulated_class(spec);
  ASSERT_FALSE(emulated.empty());
  const auto results = gradescope_results(spec, emulated.front());
  ASSERT_EQ(results["tests"].size(), 3u);
  const auto& speed = results["tests"][2];
  EXPECT_FALSE(speed.contains("status")) << speed.dump();
  EXPECT_EQ(speed["score"].get<double>(), 0);
  EXPECT_NE(speed["name"].get<std::string>().find("(not measured)"), std::string::npos)
      << speed["name"];
  EXPECT_NE(speed["tags"].dump().find("not judged"), std::string::npos);
  EXPECT_EQ(speed["extra_data"]["verdict"], "not measured");
  EXPECT_EQ(results["tests"][0]["status"], "passed");
  EXPECT_EQ(results["tests"][1]["status"], "passed");
}

// A speed beyond the GPU's ceiling: a failed test, named and tagged so, with the record's reason
// and the figure against the ceiling in its output; it earns nothing.
TEST_F(Gradescope, AnImplausibleSpeedIsAFailedTestWithItsReason) {
  const auto results = gradescope_results(spec, testing::make_implausible_class(spec)[1]);
  ASSERT_EQ(results["tests"].size(), 3u);
  const auto& speed = results["tests"][2];
  EXPECT_EQ(speed["status"], "failed");
  EXPECT_EQ(speed["score"].get<double>(), 0);
  EXPECT_NE(speed["name"].get<std::string>().find("(implausible speed)"), std::string::npos)
      << speed["name"];
  EXPECT_NE(speed["tags"].dump().find("implausible speed"), std::string::npos);
  EXPECT_EQ(speed["extra_data"]["verdict"], "implausible");
  const auto output = speed["output"].get<std::string>();
  EXPECT_EQ(output.rfind(testing::kImplausibleReason, 0), 0u) << "worded once: " << output;
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 15);

  // A record without a reason: the figure against the ceiling, in the report's words.
  auto quiet = testing::graded(spec, "quiet", {testing::implausible_speed("")});
  const auto words = gradescope_results(spec, quiet)["tests"][2]["output"].get<std::string>();
  EXPECT_EQ(words.rfind("implausible: measured 90.1 TFLOP/s, beyond this GPU's FP32 peak (132 "
                        "SMs x 1980 MHz x 128 lanes x 2) of 66.9 TFLOP/s",
                        0),
            0u)
      << words;
}

// The spec's "visibility" reaches each check's test; the submission's own problem is always shown.
TEST_F(Gradescope, EachTestHasItsChecksVisibility) {
  auto document = nlohmann::json::parse(R"({
    "lab": "lab9", "title": "t",
    "checks": [
      {"id": "A.Shown", "kind": "correctness", "title": "a", "points": 10},
      {"id": "A.Later", "kind": "correctness", "title": "b", "points": 5,
       "visibility": "after_due_date"},
      {"id": "A.Published", "kind": "structure", "title": "c", "points": 5,
       "visibility": "after_published"},
      {"id": "A.Hidden", "kind": "structure", "title": "d", "points": 0, "visibility": "hidden"}
    ]})");
  const auto hiding = contract::parse_spec(document, "spec.json");
  using contract::Verdict;
  const auto results = gradescope_results(
      hiding, testing::graded(hiding, "alice",
                              {testing::record("A.Shown", Verdict::pass),
                               testing::record("A.Later", Verdict::fail, "wrong"),
                               testing::record("A.Published", Verdict::pass),
                               testing::record("A.Hidden", Verdict::pass)}));
  ASSERT_EQ(results["tests"].size(), 4u);
  EXPECT_EQ(results["tests"][0]["visibility"], "visible");
  EXPECT_EQ(results["tests"][1]["visibility"], "after_due_date");
  EXPECT_EQ(results["tests"][2]["visibility"], "after_published");
  EXPECT_EQ(results["tests"][3]["visibility"], "hidden");
  const auto ungraded =
      gradescope_results(hiding, testing::ungraded("bob", "compile error", "kernel.cu:3: error"));
  EXPECT_EQ(ungraded["tests"][0]["visibility"], "visible");
}

// How long the grading ran: the submission's whole seconds at the top (Gradescope's field), each
// check's own seconds in its test's extra_data.
TEST_F(Gradescope, ExecutionTimeIsTheChecksRuns) {
  using contract::Verdict;
  auto records =
      std::vector<contract::CheckRecord>{testing::record("Tiled.Correctness", Verdict::pass),
                                         testing::record("Tiled.SharedMemory", Verdict::pass)};
  records[0].duration_s = 61.7;
  records[1].duration_s = 3.25;
  const auto results = gradescope_results(spec, testing::graded(spec, "alice", records));
  EXPECT_EQ(results["execution_time"], 65);
  EXPECT_DOUBLE_EQ(results["tests"][0]["extra_data"]["execution_time"].get<double>(), 61.7);
  EXPECT_DOUBLE_EQ(results["tests"][1]["extra_data"]["execution_time"].get<double>(), 3.25);
  EXPECT_DOUBLE_EQ(results["tests"][2]["extra_data"]["execution_time"].get<double>(), 0);
  EXPECT_EQ(gradescope_results(spec, outcomes[2])["execution_time"], 0);
}

// A student on Gradescope sees no report: what the compiler said is in the test's output.
TEST_F(Gradescope, AFailedBuildShowsTheCompilersMessages) {
  auto outcome = testing::ungraded("frank", "compile error", "kernel.cu does not compile");
  outcome.build_output = "kernel.cu:25:73: error: 'PValue' was not declared in this scope";
  const auto output = gradescope_results(spec, outcome)["tests"][0]["output"].get<std::string>();
  EXPECT_NE(output.find("kernel.cu:25:73: error: 'PValue' was not declared"), std::string::npos)
      << output;
}

// The replay command names the student's own program, never where the grader's kit lies.
TEST_F(Gradescope, TheReplayCommandNamesNoGraderPath) {
  auto record = testing::record("Tiled.Correctness", contract::Verdict::fail, "wrong at (0, 0)");
  record.reproduce =
      "LAB_SEED=546994641 LAB_CASE='64 x 64' /srv/grader/build/grading-kit/lab9/bin/lab9 "
      "--gtest_filter=Tiled.Correctness";
  const auto results = gradescope_results(spec, testing::graded(spec, "alice", {record}));
  const auto output = results["tests"][0]["output"].get<std::string>();
  EXPECT_NE(output.find("Reproduce: LAB_SEED=546994641 LAB_CASE='64 x 64' ./labs/lab9 "
                        "--gtest_filter=Tiled.Correctness"),
            std::string::npos)
      << output;
  EXPECT_EQ(results.dump().find("/srv/grader"), std::string::npos);
}

TEST_F(Gradescope, LongMessagesAreCut) {
  auto outcome = testing::ungraded("x", "compile error", std::string(1 << 20, 'e'));
  const auto output = gradescope_results(spec, outcome)["tests"][0]["output"].get<std::string>();
  EXPECT_LT(output.size(), 20000u);
  EXPECT_NE(output.find("more bytes not shown"), std::string::npos);
}

}  // namespace
}  // namespace exports
