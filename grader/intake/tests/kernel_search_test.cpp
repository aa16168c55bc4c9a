// Which kernel.cu of a submission gets graded.
#include <gtest/gtest.h>

#include "intake/intake.hpp"
#include "scratch.hpp"

namespace intake {
namespace {

namespace fs = std::filesystem;

using testing::kKernel;
using testing::Scratch;

const LabRef kLab6{"lab6", "lab6-tiled-matmul"};

// The one submission in the class folder.
Submission only(const Scratch& scratch, const LabRef& lab = kLab6) {
  auto submissions = collect(scratch.classroom(), lab, scratch.unpacked());
  if (submissions.size() != 1) throw std::runtime_error("expected one submission");
  return submissions[0];
}

TEST(KernelSearch, PrefersLabsFolderThenLabFolderThenALoneKernel) {
  Scratch scratch;
  scratch.write("alice/repo/labs/lab6-tiled-matmul/kernel.cu", "// labs path\n");
  scratch.write("alice/lab6-tiled-matmul/kernel.cu", "// lab folder\n");
  scratch.write("alice/kernel.cu", "// lone\n");
  EXPECT_EQ(only(scratch).kernel_text, "// labs path\n");

  fs::remove_all(scratch.classroom() / "alice" / "repo");
  EXPECT_EQ(only(scratch).kernel_text, "// lab folder\n");

  fs::remove_all(scratch.classroom() / "alice" / "lab6-tiled-matmul");
  const Submission alice = only(scratch);
  EXPECT_EQ(alice.kernel_text, "// lone\n");
  EXPECT_EQ(alice.kernel, scratch.classroom() / "alice" / "kernel.cu");
}

TEST(KernelSearch, FindsALoneKernelSixFoldersDownButNotSeven) {
  Scratch scratch;
  scratch.write("alice/1/2/3/4/5/6/kernel.cu", kKernel);
  EXPECT_TRUE(only(scratch).accepted()) << only(scratch).problem;

  fs::remove_all(scratch.classroom() / "alice");
  scratch.write("alice/1/2/3/4/5/6/7/kernel.cu", kKernel);
  EXPECT_EQ(only(scratch).problem, "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu");
}

TEST(KernelSearch, TwoCandidatesAtTheSamePreferenceAreAProblemNamingBoth) {
  Scratch scratch;
  scratch.write("alice/old/labs/lab6-tiled-matmul/kernel.cu", kKernel);
  scratch.write("alice/new/labs/lab6-tiled-matmul/kernel.cu", kKernel);

  const Submission alice = only(scratch);
  EXPECT_FALSE(alice.accepted());
  EXPECT_EQ(alice.problem,
            "several kernel files: 'new/labs/lab6-tiled-matmul/kernel.cu' and "
            "'old/labs/lab6-tiled-matmul/kernel.cu'; keep only one");
  EXPECT_EQ(alice.kernel, std::nullopt);
  EXPECT_EQ(alice.kernel_text, "");
}

TEST(KernelSearch, TwoLoneKernelsAreAProblem) {
  Scratch scratch;
  scratch.write("alice/a/kernel.cu", kKernel);
  scratch.write("alice/b/kernel.cu", kKernel);
  EXPECT_TRUE(only(scratch).problem.starts_with("several kernel files: 'a/kernel.cu' and"))
      << only(scratch).problem;
}

TEST(KernelSearch, OtherLabsKernelsAreIgnored) {
  Scratch scratch;
  scratch.write("alice/labs/lab5-single-block-shared/kernel.cu", kKernel);
  scratch.write("alice/lab7/kernel.cu", kKernel);

  const Submission alice = only(scratch);
  EXPECT_EQ(alice.problem,
            "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu (found only other labs' "
            "kernels: 'lab7/kernel.cu' and 'labs/lab5-single-block-shared/kernel.cu')");
  EXPECT_EQ(alice.kernel_text, "");
}

TEST(KernelSearch, OtherLabsDoNotMakeTheRightOneAmbiguous) {
  Scratch scratch;
  scratch.write("alice/labs/lab5-single-block-shared/kernel.cu", "// lab 5\n");
  scratch.write("alice/labs/lab6-tiled-matmul/kernel.cu", "// lab 6\n");
  scratch.write("alice/labs/lab7-tiled-any-size/kernel.cu", "// lab 7\n");
  EXPECT_EQ(only(scratch).kernel_text, "// lab 6\n");

  // Only the lab's own number counts: lab6 and lab6-whatever are this lab, lab61 is not.
  Scratch other;
  other.write("bob/Lab6_bob/kernel.cu", "// mine\n");
  other.write("bob/lab61/kernel.cu", "// not mine\n");
  EXPECT_EQ(only(other).kernel_text, "// mine\n");
}

TEST(KernelSearch, DoesNotLookInsideHiddenOrMacOsFolders) {
  Scratch scratch;
  scratch.write("alice/.git/labs/lab6-tiled-matmul/kernel.cu", "// old version\n");
  scratch.write("alice/__MACOSX/labs/lab6-tiled-matmul/kernel.cu", std::string(2, '\0'));
  scratch.write("alice/labs/lab6-tiled-matmul/kernel.cu", kKernel);
  EXPECT_EQ(only(scratch).kernel_text, kKernel);
}

TEST(KernelSearch, NeverWalksIntoALinkedFolder) {
  Scratch scratch;
  scratch.write("bob/labs/lab6-tiled-matmul/kernel.cu", "// bob's work\n");
  scratch.folder("alice");
  fs::create_directory_symlink(scratch.classroom() / "bob" / "labs",
                               scratch.classroom() / "alice" / "labs");

  Submission alice = collect(scratch.classroom(), kLab6, scratch.unpacked())[0];
  ASSERT_EQ(alice.student, "alice");
  EXPECT_EQ(alice.problem, "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu");
  EXPECT_EQ(alice.kernel_text, "");
}

}  // namespace
}  // namespace intake
