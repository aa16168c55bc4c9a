// A run whose launcher (the student's code) was not isolated from the lab program says so: the
// lab program appends "not isolated: why" to the file LAB_ISOLATION_FILE names
// (harness/runtime/src/student/launcher_isolation.hpp), `labgrade run` notes it on every record,
// and `labgrade report` puts it at the top of the report and into ctest's summary. The fake lab
// programs are shell scripts that speak the channel like the harness.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "contract/record.hpp"
#include "test_support.hpp"

namespace {

using grader_test::run_shell;
using grader_test::scratch;
using grader_test::write_file;

constexpr const char* kNotIsolated =
    "this run was not isolated: its verdicts are a self-check (no bubblewrap on this machine, "
    "and the lab program is not root)";

// The grader's message on fd 3; `record VERDICT REASON` sends a stamped record on fd 4.
constexpr const char* kChannel = R"sh(
message=$(cat <&3)
nonce=$(printf '%s' "$message" | sed 's/.*"nonce":"\([0-9a-f]*\)".*/\1/')
record() {
  printf '{"nonce":"%s","started":"Fake.Correctness"}\n' "$nonce" >&4
  printf '{"nonce":"%s","record":{"schema":1,"lab":"lab1","check":"Fake.Correctness","verdict":"%s","fraction":1,"reason":"%s"}}\n' "$nonce" "$1" "$2" >&4
}
)sh";

std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Run {
  std::filesystem::path dir;
  grader_test::Result result;
};

// `labgrade run` of a fake lab program whose launcher was isolated as `line` says.
Run run_saying(const std::string& name, const std::string& line) {
  Run run{scratch(name), {}};
  write_file(run.dir / "spec.json", grader_test::kSpec);
  const auto program = run.dir / "fake_lab.sh";
  write_file(program,
             "#!/bin/sh\n" + std::string(kChannel) + "[ -n \"$LAB_ISOLATION_FILE\" ] || exit 3\n" +
                 "echo '" + line + "' >> \"$LAB_ISOLATION_FILE\"\nrecord pass fine\n",
             true);
  run.result =
      run_shell(std::string(LABGRADE_PATH) + " run --spec " + (run.dir / "spec.json").string() +
                " --results " + (run.dir / "results").string() + " -- " + program.string());
  return run;
}

contract::CheckRecord the_record(const Run& run) {
  return contract::read_record(contract::record_path(run.dir / "results", "Fake.Correctness"));
}

bool has_note(const contract::CheckRecord& record, const std::string& note) {
  for (const auto& n : record.notes) {
    if (n == note) return true;
  }
  return false;
}

TEST(LabgradeIsolation, ARunNotIsolatedIsNotedOnEveryRecord) {
  const auto run =
      run_saying("not-isolated",
                 "not isolated: no bubblewrap on this machine, and the lab program is not root");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
  EXPECT_NE(run.result.output.find(kNotIsolated), std::string::npos) << run.result.output;
  const auto record = the_record(run);
  EXPECT_EQ(record.verdict, contract::Verdict::pass);
  EXPECT_TRUE(has_note(record, kNotIsolated)) << run.result.output;
}

TEST(LabgradeIsolation, AnIsolatedRunSaysNothing) {
  for (const std::string how : {"bubblewrap", "uid 200003 in a PID namespace of its own"}) {
    const auto run = run_saying("isolated", "isolated: " + how);
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(run.result.output.find("not isolated"), std::string::npos) << run.result.output;
    EXPECT_TRUE(the_record(run).notes.empty()) << run.result.output;
  }
}

// The launcher, isolated under another uid, must find no results folder it could write into,
// even one an earlier run left open to all.
TEST(LabgradeIsolation, TheResultsFolderIsWritableByItsOwnerAlone) {
  const auto dir = scratch("results-mode");
  std::filesystem::create_directories(dir / "results");
  ::chmod((dir / "results").c_str(), 0777);
  write_file(dir / "spec.json", grader_test::kSpec);
  write_file(dir / "fake_lab.sh", "#!/bin/sh\n" + std::string(kChannel) + "record pass fine\n",
             true);
  const auto r = run_shell(std::string(LABGRADE_PATH) + " run --spec " +
                           (dir / "spec.json").string() + " --results " +
                           (dir / "results").string() + " -- " + (dir / "fake_lab.sh").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  struct stat info {};
  ASSERT_EQ(::stat((dir / "results").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 022, 0U) << std::oct << info.st_mode;
  ASSERT_EQ(::stat(contract::record_path(dir / "results", "Fake.Correctness").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 022, 0U) << std::oct << info.st_mode;
}

TEST(LabgradeIsolation, TheReportAndTheSummarySaySo) {
  const auto run = run_saying(
      "report", "not isolated: no bubblewrap on this machine, and the lab program is not root");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
  const auto r = run_shell(
      std::string(LABGRADE_PATH) + " report --spec " + (run.dir / "spec.json").string() +
      " --results " + (run.dir / "results").string() + " --out " +
      (run.dir / "lab1.html").string() + " --summary " + (run.dir / "lab1.summary").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto summary = read_all(run.dir / "lab1.summary");
  EXPECT_NE(summary.find("10 / 10 points"), std::string::npos) << summary;
  EXPECT_NE(summary.find(std::string("\nlab1: ") + kNotIsolated + "\n"), std::string::npos)
      << summary;
  const auto html = read_all(run.dir / "lab1.html");
  const auto problems = html.find("Problems with the results");
  ASSERT_NE(problems, std::string::npos);
  EXPECT_NE(html.find("this run was not isolated: its verdicts are a self-check", problems),
            std::string::npos);
}

}  // namespace
