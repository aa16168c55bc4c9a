// `labgrade package` and `labgrade autograder`, fast: what the packages hold (files, executable
// bits, the kit built where the platform's command looks for it) and the errors users meet. The
// packages' real run, in a clean Debian root, is scripts/packaging/test-in-clean-root.sh.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using grader_test::run_shell;
using grader_test::scratch;
using grader_test::write_file;

const std::string kLabgrade = LABGRADE_PATH;

std::string read_all(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A shell script with its continued lines joined: one command per line.
std::string joined(const std::string& script) {
  return std::regex_replace(script, std::regex(R"(\s*\\\n\s*)"), " ");
}

bool have(const char* program) {
  return run_shell(std::string("command -v ") + program).exit_code == 0;
}

// The zip's entries and their Unix modes, as python3's zipfile reads them.
std::map<std::string, unsigned> zip_modes(const fs::path& zip) {
  const auto listed = run_shell(
      "python3 -c 'import sys, zipfile\n"
      "for i in zipfile.ZipFile(sys.argv[1]).infolist(): print(i.external_attr >> 16, "
      "i.filename)' " +
      zip.string());
  std::map<std::string, unsigned> modes;
  std::istringstream lines(listed.output);
  unsigned mode = 0;
  std::string name;
  while (lines >> mode && std::getline(lines >> std::ws, name)) modes[name] = mode & 07777;
  return modes;
}

// The folder the one install script builds the lab in (its --build) and the paths a grading
// command runs labgrade and the kit from: they must be the same build.
std::string setup_build(const std::string& setup) {
  std::smatch found;
  EXPECT_TRUE(std::regex_search(
      setup, found,
      std::regex(R"(scripts/packaging/install-grader\.sh"? --lab lab6 --build (\S+))")))
      << setup;
  return found.size() > 1 ? found[1].str() : "?";
}

TEST(LabgradePackage, GradescopeZipHoldsExecutableScriptsAndTheLabsKitSources) {
  if (!have("python3")) GTEST_SKIP() << "python3 reads the zip";
  for (const std::string tool : {"zip", "python3"}) {
    if (!have(tool.c_str())) continue;
    SCOPED_TRACE(tool);
    const auto dir = scratch("package-gs-" + tool);
    const auto r = run_shell(kLabgrade + " package gradescope lab6 " + (dir / "lab6.zip").string() +
                             " --zip-tool " + tool);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto modes = zip_modes(dir / "lab6.zip");
    ASSERT_TRUE(modes.contains("setup.sh")) << "at the zip's root, where Gradescope looks";
    ASSERT_TRUE(modes.contains("run_autograder"));
    EXPECT_EQ(modes.at("setup.sh"), 0755u);
    EXPECT_EQ(modes.at("run_autograder"), 0755u);
    for (const char* needed :
         {"project/CMakeLists.txt", "project/scripts/install-deps.sh",
          "project/scripts/packaging/install-grader.sh", "project/labs/lab6-tiled-matmul/spec.json",
          "project/solutions/lab6-tiled-matmul/kernel.cu",
          "project/grader/batch/src/build_step.cpp"}) {
      EXPECT_TRUE(modes.contains(needed)) << needed;
    }
    for (const auto& [name, mode] : modes) {
      EXPECT_FALSE(name.starts_with("project/solutions/lab1-")) << "another lab's solution";
      EXPECT_EQ(name.find("/."), std::string::npos) << "a hidden file: " << name;
    }
  }
}

TEST(LabgradePackage, GradescopeScriptsGradeWithTheKitTheSetupBuilds) {
  const auto dir = scratch("package-gs-scripts");
  ASSERT_EQ(
      run_shell(kLabgrade + " package gradescope lab6 " + (dir / "lab6.zip").string()).exit_code,
      0);
  ASSERT_EQ(run_shell("cd " + dir.string() +
                      " && python3 " LABS_SOURCE_DIR
                      "/scripts/packaging/check-results.py unzip lab6.zip x")
                .exit_code,
            0);
  const auto setup = joined(read_all(dir / "x/setup.sh"));
  const auto run = joined(read_all(dir / "x/run_autograder"));
  // Both stand /autograder (Gradescope's) for $root, which a test may move elsewhere.
  const std::string root = "root=${LABGRADE_AUTOGRADER_ROOT:-/autograder}";
  EXPECT_NE(setup.find(root), std::string::npos) << setup;
  EXPECT_NE(run.find(root), std::string::npos) << run;
  EXPECT_NE(setup.find("--root-only \"$@\""), std::string::npos)
      << "setup.sh hands its arguments (--backend) to the install script: " << setup;
  const std::string build = setup_build(setup);
  EXPECT_EQ(build, "\"$root/labgrade\"");
  EXPECT_NE(run.find("\"$root/labgrade/grader/labgrade\" autograder gradescope lab6 "
                     "\"$root/submission\" \"$root/results/results.json\" --kit "
                     "\"$root/labgrade/grading-kit/lab6\""),
            std::string::npos)
      << run;
  const std::regex placeholder("@[A-Z_]+@");
  EXPECT_FALSE(std::regex_search(run, placeholder)) << "a placeholder left: " << run;
  EXPECT_FALSE(std::regex_search(setup, placeholder)) << setup;
  EXPECT_EQ(run_shell("sh -n " + (dir / "x/run_autograder").string()).exit_code, 0);
  EXPECT_EQ(run_shell("sh -n " + (dir / "x/setup.sh").string()).exit_code, 0);
  EXPECT_EQ(run_shell("sh -n " + (dir / "x/project/scripts/packaging/install-grader.sh").string())
                .exit_code,
            0);
}

TEST(LabgradePackage, PrairieLearnContextRunsTheSameSetupAndItsEntrypoint) {
  const auto dir = scratch("package-pl") / "lab6";
  const auto r = run_shell(kLabgrade + " package prairielearn lab6 " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto dockerfile = read_all(dir / "Dockerfile");
  const std::string build = setup_build(dockerfile);
  EXPECT_NE(dockerfile.find("COPY project /opt/labgrade/src"), std::string::npos) << dockerfile;
  const auto info = nlohmann::json::parse(read_all(dir / "example-question/info.json"));
  const auto& options = info.at("externalGradingOptions");
  EXPECT_EQ(options.at("enabled"), true);
  const std::string entrypoint = options.at("entrypoint");
  EXPECT_NE(dockerfile.find("COPY grade " + entrypoint), std::string::npos)
      << "the image holds the entrypoint info.json names";
  EXPECT_LE(options.at("timeout").get<int>(), 600) << "PrairieLearn's most";
  const auto grade = joined(read_all(dir / "grade"));
  EXPECT_NE(grade.find(build +
                       "/grader/labgrade autograder prairielearn lab6 /grade/student "
                       "/grade/results/results.json --kit " +
                       build + "/grading-kit/lab6"),
            std::string::npos)
      << grade;
  EXPECT_EQ(fs::status(dir / "grade").permissions() & fs::perms::others_exec,
            fs::perms::others_exec);
  EXPECT_TRUE(fs::exists(dir / "project/solutions/lab6-tiled-matmul/kernel.cu"));
  EXPECT_NE(read_all(dir / "example-question/question.html").find("file-names=\"kernel.cu\""),
            std::string::npos);
  // Written again over its own earlier package; never over someone's other folder.
  EXPECT_EQ(run_shell(kLabgrade + " package prairielearn lab6 " + dir.string()).exit_code, 0);
}

TEST(LabgradePackage, BadInputIsOneLineAndExitTwo) {
  const auto dir = scratch("package-errors");
  const auto cases = std::map<std::string, std::string>{
      {"package gradescope lab99 " + (dir / "x.zip").string(), "no lab 'lab99' in"},
      {"package gradescope lab6 " + (dir / "missing/x.zip").string(), "is not a folder"},
      {"package prairielearn lab6 " + dir.string(), "is not empty and holds no earlier package"},
      {"package prairielearn lab6 " + (dir / "p").string() + " --source " + dir.string(),
       "is not this project's source folder"}};
  write_file(dir / "keep.txt", "someone's file");
  for (const auto& [arguments, words] : cases) {
    const auto r = run_shell(kLabgrade + " " + arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.output;
    EXPECT_NE(r.output.find("labgrade package: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(words), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  }
  EXPECT_EQ(read_all(dir / "keep.txt"), "someone's file");
}

// A kit that loads (kit.json, its libraries, a spec) but would build nothing; `emulation_kit`:
// the kit.json field of a GPU kit built beside an emulation build's kits.
fs::path fake_kit(const fs::path& dir, const std::string& emulation_kit = "") {
  fs::create_directories(dir / "lib");
  for (const char* library : {"libharness.a", "libharness_core.a", "liblabs_contract.a"}) {
    write_file(dir / "lib" / library, "");
  }
  write_file(dir / "spec.json", grader_test::kSpec);
  write_file(dir / "kit.json", nlohmann::json{{"lab", "lab1"},
                                              {"folder", "lab1-fake"},
                                              {"backend", "emulation"},
                                              {"spec", (dir / "spec.json").string()},
                                              {"handout", ""},
                                              {"reference_kernel", ""},
                                              {"program", "/bin/true"},
                                              {"nvcc", "/bin/false"},
                                              {"cxx", "/bin/false"},
                                              {"compile", nlohmann::json::array()},
                                              {"link", nlohmann::json::array()},
                                              {"read_only", nlohmann::json::array()},
                                              {"emulation_kit", emulation_kit}}
                                   .dump());
  return dir;
}

// The emulated pass compiles kernel.cu with its own kit's compiler, which compile-as-nobody does
// not wrap: without bubblewrap it is off, said in the log, and its kit is never opened (here it
// does not exist, which would stop the batch).
TEST(LabgradeAutograder, WithoutBubblewrapTheEmulatedPassIsOff) {
  const auto dir = scratch("autograder-no-emulated-pass");
  const auto kit = fake_kit(dir / "kit", (dir / "no-emulation-kit" / "lab1").string());
  fs::create_directories(dir / "submission");
  write_file(dir / "submission" / "kernel.cu", "// a kernel\n");
  const auto r =
      run_shell("LABGRADE_BWRAP=/nonexistent/bwrap " + kLabgrade + " autograder gradescope lab1 " +
                (dir / "submission").string() + " " + (dir / "results.json").string() + " --kit " +
                kit.string() + " --work " + (dir / "work").string() + " --sandbox auto");
  EXPECT_NE(r.output.find("no emulated pass without bubblewrap"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("no-emulation-kit"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "results.json")) << r.output;
}

// Where bubblewrap cannot start and the package says --sandbox required, the student is told the
// submission could not be graded, and the instructor why: never a silent grade without sandbox.
TEST(LabgradeAutograder, NoSandboxUnderRequiredWritesResultsThatSaySo) {
  const auto dir = scratch("autograder-required");
  const auto kit = fake_kit(dir / "kit");
  fs::create_directories(dir / "submission");
  write_file(dir / "submission" / "kernel.cu", "// a kernel\n");
  for (const std::string platform : {"gradescope", "prairielearn"}) {
    SCOPED_TRACE(platform);
    const auto results = dir / platform / "results" / "results.json";
    const auto r =
        run_shell("LABGRADE_BWRAP=/nonexistent/bwrap " + kLabgrade + " autograder " + platform +
                  " lab1 " + (dir / "submission").string() + " " + results.string() + " --kit " +
                  kit.string() + " --work " + (dir / "work").string() + " --sandbox required");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("bubblewrap cannot run here"), std::string::npos) << r.output;
    ASSERT_TRUE(fs::exists(results)) << r.output;
    const auto json = nlohmann::json::parse(read_all(results));
    if (platform == "gradescope") {
      EXPECT_EQ(json.at("score"), 0);
      EXPECT_EQ(json.at("tests").at(0).at("name"), "Submission: grader error");
    } else {
      EXPECT_EQ(json.at("gradable"), false);
    }
    EXPECT_EQ(json.dump().find(dir.string()), std::string::npos) << "no grader path shown";
    if (have("python3")) {
      const auto check =
          run_shell("python3 " LABS_SOURCE_DIR "/scripts/packaging/check-results.py " + platform +
                    " " + results.string());
      EXPECT_EQ(check.exit_code, 0) << check.output;
    }
  }
}

}  // namespace

namespace {

// A kit that does not load (the image's build broke): the student still learns that nothing was
// graded, and the log says why; results that cannot be written are one line, never a trace.
TEST(LabgradeAutograder, ABrokenKitOrResultsPathIsSaidPlainly) {
  const auto dir = scratch("autograder-broken");
  fs::create_directories(dir / "submission");
  const auto results = dir / "results" / "results.json";
  const auto r = run_shell(kLabgrade + " autograder prairielearn lab6 " +
                           (dir / "submission").string() + " " + results.string() + " --kit " +
                           (dir / "no-kit").string() + " --work " + (dir / "work").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("labgrade autograder: cannot grade this submission: "), std::string::npos)
      << r.output;
  ASSERT_TRUE(fs::exists(results)) << r.output;
  const auto json = nlohmann::json::parse(read_all(results));
  EXPECT_EQ(json.at("gradable"), false);
  EXPECT_NE(json.at("message").get<std::string>().find("tell your instructor"), std::string::npos);

  write_file(dir / "a-file", "");
  const auto unwritable =
      run_shell(kLabgrade + " autograder gradescope lab6 " + (dir / "submission").string() + " " +
                (dir / "a-file" / "results.json").string() + " --kit " + (dir / "no-kit").string() +
                " --work " + (dir / "work").string());
  EXPECT_EQ(unwritable.exit_code, 2) << unwritable.output;
  EXPECT_NE(unwritable.output.find("labgrade autograder: "), std::string::npos);
  EXPECT_EQ(unwritable.output.find("terminate called"), std::string::npos) << unwritable.output;
}

}  // namespace
