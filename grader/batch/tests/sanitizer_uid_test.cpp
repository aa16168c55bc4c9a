// Who compute-sanitizer runs as in a batch (SanitizerPass::as_root): the run's own uid, whose
// RLIMIT_NPROC caps a fork bomb, wherever every uid can read the sanitizer; root without
// capabilities, uncapped, only where the toolkit is root's to read.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "batch/sanitize_step.hpp"
#include "batch/sanitizer_plan.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

// A toolkit's compute-sanitizer folder: the program and a library beside it, all 0755/0644.
class SanitizerFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("sanitizer-uid-" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "compute-sanitizer" / "x86");
    std::ofstream(program()) << "#!/bin/sh\n";
    std::ofstream(library()) << "elf";
    for (const auto& folder :
         {root_, root_ / "compute-sanitizer", root_ / "compute-sanitizer" / "x86"}) {
      ::chmod(folder.c_str(), 0755);
    }
    ::chmod(program().c_str(), 0755);
    ::chmod(library().c_str(), 0644);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path program() const { return root_ / "compute-sanitizer" / "compute-sanitizer"; }
  fs::path library() const { return root_ / "compute-sanitizer" / "x86" / "libsanitizer.so"; }

  fs::path root_;
};

TEST_F(SanitizerFolder, AFolderEveryUidCanReadRunsUnderTheRunsOwnUid) {
  EXPECT_TRUE(sandbox::every_uid_can_run(program()));
  Kit kit;
  kit.backend = "cuda";
  kit.sanitizer = program();
  kit.spec.sanitizer_tools = {"memcheck", "racecheck"};
  EXPECT_FALSE(sanitizer_plan_of(kit, false).in_runs.as_root);
  EXPECT_FALSE(sanitizer_plan_of(kit, true).fallback.as_root);
}

TEST_F(SanitizerFolder, ALibraryOnlyRootMayReadKeepsTheSanitizerAsRoot) {
  ::chmod(library().c_str(), 0600);
  EXPECT_FALSE(sandbox::every_uid_can_run(program()));
  Kit kit;
  kit.backend = "cuda";
  kit.sanitizer = program();
  kit.spec.sanitizer_tools = {"memcheck"};
  EXPECT_TRUE(sanitizer_plan_of(kit, false).in_runs.as_root);
}

TEST_F(SanitizerFolder, AFolderAboveOthersCannotEnterOrAMissingProgramIsNotReadable) {
  ::chmod(root_.c_str(), 0700);
  EXPECT_FALSE(sandbox::every_uid_can_run(program()));
  ::chmod(root_.c_str(), 0755);
  ::chmod((root_ / "compute-sanitizer" / "x86").c_str(), 0700);
  EXPECT_FALSE(sandbox::every_uid_can_run(program()));
  EXPECT_FALSE(sandbox::every_uid_can_run(root_ / "nowhere" / "compute-sanitizer"));
}

TEST_F(SanitizerFolder, ALinkIsFollowedToTheToolkitsFolder) {
  fs::create_directories(root_ / "bin");
  fs::create_symlink(program(), root_ / "bin" / "compute-sanitizer");
  EXPECT_TRUE(sandbox::every_uid_can_run(root_ / "bin" / "compute-sanitizer"));
  ::chmod(library().c_str(), 0600);
  EXPECT_FALSE(sandbox::every_uid_can_run(root_ / "bin" / "compute-sanitizer"));
}

// A wrapper in the toolkit's bin folder: the compute-sanitizer folder beside it is what it runs.
TEST_F(SanitizerFolder, AWrapperInBinIsJudgedByTheSanitizerFolderBesideIt) {
  fs::create_directories(root_ / "bin");
  std::ofstream(root_ / "bin" / "compute-sanitizer") << "#!/bin/sh\n";
  ::chmod((root_ / "bin" / "compute-sanitizer").c_str(), 0755);
  EXPECT_TRUE(sandbox::every_uid_can_run(root_ / "bin" / "compute-sanitizer"));
  ::chmod(library().c_str(), 0600);
  EXPECT_FALSE(sandbox::every_uid_can_run(root_ / "bin" / "compute-sanitizer"));
}

// The requests: under the run's own uid with room for the sanitizer's threads, or as root.
TEST(SanitizerUid, TheRunsUnderTheSanitizerTakeThePassesUid) {
  RunRequest request;
  request.command = {"/kit/lab6"};
  request.policy.max_processes = 256;
  SanitizerPass pass{"/cuda/compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.as_root = false;
  auto hosted = hosted_memcheck_request(request, pass, {});
  EXPECT_TRUE(hosted.policy.own_uid);
  EXPECT_EQ(hosted.policy.max_processes, kSanitizedRunProcesses);
  pass.as_root = true;
  hosted = hosted_memcheck_request(request, pass, {});
  EXPECT_FALSE(hosted.policy.own_uid);
  // --root-in-sandbox (no uid of its own for any run) stays so.
  request.policy.own_uid = false;
  pass.as_root = false;
  EXPECT_FALSE(hosted_memcheck_request(request, pass, {}).policy.own_uid);
}

}  // namespace
}  // namespace batch
