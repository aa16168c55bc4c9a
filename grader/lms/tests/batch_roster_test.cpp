// labgrade batch --roster (and labgrade shard plan --roster) end to end, on the CPU and without
// bubblewrap: a grading kit whose lab program is the batch tests' fake_lab (every check passes) and
// whose compiler only makes the file it is asked for, so that what is checked is the roster's part:
// who is graded under which name, the LMS files, the report, and that a batch without --roster is
// as it always was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "roster_samples.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

// A kit as cmake/GradingKit.cmake writes one, with fake_lab as the lab program (lab0, two
// correctness checks of 10 points) and a compiler that only makes its output.
void make_fake_kit(const fs::path& kit) {
  for (const char* library : {"libharness.a", "libharness_core.a", "liblabs_contract.a"}) {
    write(kit / "lib" / library, "");
  }
  fs::create_directories(kit / "bin");
  fs::copy_file(FAKE_LAB_PATH, kit / "bin" / "lab0");
  grader_test::write_file(
      kit / "bin" / "fakecc",
      "#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = -o ]; then : > \"$2\"; "
      "chmod +x \"$2\"; exit 0; fi\n  shift\ndone\nexit 1\n",
      true);
  write(kit / "spec.json", R"({"lab": "lab0", "title": "Fake", "checks": [
      {"id": "Lab.First", "kind": "correctness", "title": "first", "points": 10, "timeout_s": 30},
      {"id": "Lab.Second", "kind": "correctness", "title": "second", "points": 10,
       "timeout_s": 30}]})");
  write(kit / "kit.json",
        R"({"lab": "lab0", "folder": "lab0-fake", "backend": "emulation", "spec": ")" +
            (kit / "spec.json").string() + R"(", "handout": "README.md", "program": ")" +
            (kit / "bin" / "lab0").string() + R"(", "nvcc": ")" +
            (kit / "bin" / "fakecc").string() + R"(", "cxx": ")" +
            (kit / "bin" / "fakecc").string() +
            R"(", "compile": [], "link": [], "read_only": [], "optional_sources": ["bonus.cu"]})");
}

const std::string kZoe =
    "\xC3\xB8"
    "deg\xC3\xA5rdzo\xC3\xAB";

class BatchWithRoster : public ::testing::Test {
 protected:
  void SetUp() override {
    make_fake_kit(dir / "kit");
    const std::string kernel = "__global__ void copy(const float* a, float* b) {}\n";
    write(canvas / "smithjohn_12345_678_kernel.cu", kernel);
    write(canvas / "smithjohn_late_12345_679_kernel-1.cu", kernel);
    write(canvas / (kZoe + "_12346_681_kernel.cu"), kernel);
    write(canvas / (kZoe + "_12346_682_bonus.cu"), "// bonus\n");
    write(canvas / "mysterystudent_99999_700_kernel.cu", kernel);
    write(dir / "grades.csv", lms::testing::kCanvasExport);
  }

  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }

  grader_test::Result batch(const fs::path& submissions, const std::string& options) {
    return grader_test::run_shell(
        std::string(LABGRADE_PATH) + " batch lab0 '" + submissions.string() + "' '" + out.string() +
        "' --kit '" + (dir / "kit").string() + "' --unsandboxed --no-reference -j 1 " + options);
  }

  fs::path dir = grader_test::scratch("roster");
  fs::path canvas = dir / "canvas-download";
  fs::path out = dir / "out";
};

TEST_F(BatchWithRoster, ACanvasClassIsGradedUnderCanvasNamesAndImportable) {
  const auto result =
      batch(canvas, "--roster '" + (dir / "grades.csv").string() + "' --lms-assignment 4242");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read(out / "canvas.csv"),
            "Student,ID,SIS User ID,SIS Login ID,Section,Lab 6: Tiled matmul (4242)\r\n"
            "\"Smith, John\",12345,S001,jsmith,CS 401 Section 1,100\r\n"
            "\"\xC3\x98"
            "deg\xC3\xA5rd, Zo\xC3\xAB\",12346,S002,zodegard,CS 401 Section 1,100\r\n");
  const std::string gradebook = read(out / "gradebook.csv");
  EXPECT_NE(gradebook.find("\n\"Smith, John (12345)\",10,10,20,20,graded"), std::string::npos)
      << gradebook;
  EXPECT_NE(gradebook.find("\nmysterystudent_99999_700_kernel,10,10,20,20,graded"),
            std::string::npos)
      << gradebook;
  EXPECT_EQ(gradebook.find("smithjohn_12345_678_kernel"), std::string::npos) << gradebook;
  // The batch's output and the report beside the gradebook list what needs a look.
  const std::string report = read(out / "roster-report.txt");
  for (const std::string& text : {result.output, report}) {
    for (const char* line :
         {"  mysterystudent_99999_700_kernel.cu: Canvas user id 99999 is not in the roster",
          "  Doe, Jane (ID 12347)", "  Smith, John (ID 12348)",
          "graded smithjohn_late_12345_679_kernel-1.cu, the newest upload",
          "not graded: smithjohn_12345_678_kernel.cu"}) {
      EXPECT_NE(text.find(line), std::string::npos) << line << "\nin:\n" << text;
    }
  }
  EXPECT_NE(report.find("bonus.cu from " + kZoe + "_12346_682_bonus.cu"), std::string::npos)
      << report;
}

TEST_F(BatchWithRoster, WithoutARosterEverySubmissionIsItsOwnStudentAsBefore) {
  const auto result = batch(canvas, "");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* file : {"canvas.csv", "moodle.csv", "roster-report.txt"}) {
    EXPECT_FALSE(fs::exists(out / file)) << file;
  }
  const std::string gradebook = read(out / "gradebook.csv");
  EXPECT_NE(gradebook.find("\nsmithjohn_12345_678_kernel,"), std::string::npos) << gradebook;
  EXPECT_NE(gradebook.find("\nsmithjohn_late_12345_679_kernel-1,"), std::string::npos);
  EXPECT_EQ(gradebook.find("Smith, John"), std::string::npos) << gradebook;
}

// A roster that cannot be used stops the batch before anything is graded or written.
TEST_F(BatchWithRoster, ABadRosterStopsTheBatchWithOneLine) {
  write(dir / "bad.csv", "name,id\nAnn,7\nBob,7\n");
  const auto result = batch(canvas, "--roster '" + (dir / "bad.csv").string() + "'");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("labgrade batch: " + (dir / "bad.csv").string() +
                               ":3: id 7 is also on line 2"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(out / "gradebook.csv"));
}

TEST_F(BatchWithRoster, ACanvasExportWithSeveralAssignmentsNeedsOneNamed) {
  const auto result = batch(canvas, "--roster '" + (dir / "grades.csv").string() + "'");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("cannot tell which assignment column is lab0 (its assignment "
                               "columns: Lab 5 (4241), Lab 6: Tiled matmul (4242))"),
            std::string::npos)
      << result.output;
}

// A plain roster of Canvas user ids: canvas.csv keyed by the ids the download names carry, in the
// lab's own points (the roster does not say Canvas's).
TEST_F(BatchWithRoster, APlainRosterOfCanvasIdsWritesCanvasCsvToo) {
  write(dir / "class.csv", "name,id,sis_login_id\nJohn Smith,12345,jsmith\nAnn Lee,777,alee\n");
  const auto result = batch(
      canvas, "--roster '" + (dir / "class.csv").string() + "' --lms-assignment 'Lab 6 (4242)'");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read(out / "canvas.csv"),
            "Student,ID,SIS User ID,SIS Login ID,Section,Lab 6 (4242)\r\n"
            "John Smith,12345,,jsmith,,20\r\n");
  EXPECT_NE(result.output.find("  Ann Lee (ID 777)"), std::string::npos) << result.output;
}

// labgrade shard: the plan matches the class to the roster (its report, its one-line errors),
// each shard grades its part of the matched class, and the merge writes the files one batch
// writes.
TEST_F(BatchWithRoster, ShardsWithARosterMergeIntoWhatOneBatchWrites) {
  const std::string roster = "--roster '" + (dir / "grades.csv").string() + "'";
  ASSERT_EQ(batch(canvas, roster + " --lms-assignment 4242").exit_code, 0);
  const fs::path batch_out = dir / "batch-out";
  fs::rename(out, batch_out);
  const std::string labgrade = LABGRADE_PATH;
  const std::string shards = "'" + out.string() + "'";
  const auto plan = grader_test::run_shell(labgrade + " shard plan lab0 '" + canvas.string() +
                                           "' " + shards + " --kit '" + (dir / "kit").string() +
                                           "' --unsandboxed --no-reference --shards 2 " + roster +
                                           " --lms-assignment 4242");
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("Canvas user id 99999 is not in the roster"), std::string::npos)
      << plan.output;
  EXPECT_EQ(read(out / "roster-report.txt"), read(batch_out / "roster-report.txt"));
  for (const char* index : {"0", "1"}) {
    const auto run =
        grader_test::run_shell(labgrade + " shard run " + shards + " --index " + index + " -j 1");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output.find("not in the roster"), std::string::npos)
        << "a shard says nothing more of the matching: " << run.output;
  }
  const auto merge = grader_test::run_shell(labgrade + " shard merge " + shards);
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  for (const char* file : {"canvas.csv", "gradebook.csv"}) {
    EXPECT_EQ(read(out / file), read(batch_out / file)) << file;
  }
  EXPECT_NE(read(out / "canvas.csv").find("\"Smith, John\",12345,S001"), std::string::npos);

  write(dir / "bad.csv", "name,id\nAnn,7\nBob,7\n");
  const auto bad = grader_test::run_shell(labgrade + " shard plan lab0 '" + canvas.string() + "' " +
                                          shards + " --kit '" + (dir / "kit").string() +
                                          "' --roster '" + (dir / "bad.csv").string() + "'");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("labgrade shard plan: " + (dir / "bad.csv").string() +
                            ":3: id 7 is also on line 2"),
            std::string::npos)
      << bad.output;
}

TEST_F(BatchWithRoster, AMoodleClassGetsTheWorksheetBackWithFeedback) {
  const fs::path moodle = dir / "moodle-download";
  const std::string kernel = "__global__ void copy(const float* a, float* b) {}\n";
  write(moodle /
            "Zo\xC3\xAB \xC3\x98"
            "deg\xC3\xA5rd_123456_assignsubmission_file/kernel.cu",
        kernel);
  write(moodle / "Jean-Luc Picard_123458_assignsubmission_file_kernel.cu", kernel);
  write(dir / "worksheet.csv", lms::testing::kMoodleWorksheet);
  const auto result = batch(moodle, "--roster '" + (dir / "worksheet.csv").string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string feedback = "lab0 (Fake): 20 / 20 points. Your grade report has the details.";
  // The worksheet's "-" (never graded in Moodle) comes back behind the formula guard as "'-":
  // Moodle reads neither as a date, so its check of grades changed since is the same.
  EXPECT_EQ(read(out / "moodle.csv"),
            "Identifier,Full name,Email address,Grade,Maximum Grade,Last modified (grade),"
            "Feedback comments\r\n"
            "Participant 123458,Jean-Luc Picard,jlp@example.edu,100,100,'-," +
                feedback +
                "\r\n"
                "Participant 123456,Zo\xC3\xAB \xC3\x98"
                "deg\xC3\xA5rd,zoe@example.edu,100,100,'-," +
                feedback + "\r\n");
  EXPECT_FALSE(fs::exists(out / "canvas.csv"));
}

}  // namespace
