// collect() on a class folder of plain folders and bare kernel files: what counts as a student,
// the order, the names and the slugs, and the folder itself being unusable.
#include <gtest/gtest.h>

#include <set>

#include "intake/intake.hpp"
#include "scratch.hpp"

namespace intake {
namespace {

namespace fs = std::filesystem;

using testing::kKernel;
using testing::Scratch;

const LabRef kLab6{"lab6", "lab6-tiled-matmul"};

std::vector<std::string> students_of(const std::vector<Submission>& submissions) {
  std::vector<std::string> students;
  for (const Submission& submission : submissions) students.push_back(submission.student);
  return students;
}

TEST(Folder, AcceptsTheKernelOfACorrectFolderSubmission) {
  Scratch scratch;
  const auto kernel = scratch.write("alice/labs/lab6-tiled-matmul/kernel.cu", kKernel);
  scratch.write("alice/labs/lab6-tiled-matmul/README.md", "notes");

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 1u);
  const Submission& alice = submissions[0];
  EXPECT_EQ(alice.student, "alice");
  EXPECT_EQ(alice.slug, "alice");
  EXPECT_EQ(alice.source, scratch.classroom() / "alice");
  EXPECT_TRUE(alice.accepted()) << alice.problem;
  EXPECT_EQ(alice.problem, "");
  EXPECT_EQ(alice.kernel, kernel);
  EXPECT_EQ(alice.kernel_text, kKernel);
}

TEST(Folder, AcceptsABareKernelFileNamedAfterTheStudent) {
  Scratch scratch;
  const auto kernel = scratch.write("Bob Jones.cu", kKernel);

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 1u);
  EXPECT_EQ(submissions[0].student, "Bob Jones");
  EXPECT_EQ(submissions[0].slug, "bob-jones");
  EXPECT_EQ(submissions[0].source, kernel);
  EXPECT_EQ(submissions[0].kernel, kernel);
  EXPECT_EQ(submissions[0].kernel_text, kKernel);
  EXPECT_TRUE(submissions[0].accepted()) << submissions[0].problem;
}

TEST(Folder, AnEmptySubfolderIsAStudentWithoutAKernel) {
  Scratch scratch;
  scratch.folder("carol");

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 1u);
  EXPECT_EQ(submissions[0].student, "carol");
  EXPECT_FALSE(submissions[0].accepted());
  EXPECT_EQ(submissions[0].problem, "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu");
  EXPECT_EQ(submissions[0].kernel, std::nullopt);
  EXPECT_EQ(submissions[0].kernel_text, "");
}

TEST(Folder, IgnoresHiddenEntriesMacOsFoldersAndOtherFiles) {
  Scratch scratch;
  scratch.write(".hidden/labs/lab6-tiled-matmul/kernel.cu", kKernel);
  scratch.write(".DS_Store", "x");
  scratch.write(".eve.cu", kKernel);
  scratch.write("__MACOSX/alice/labs/lab6-tiled-matmul/._kernel.cu", std::string("\0\x05", 2));
  scratch.write("README.md", "Lab 6 submissions");
  scratch.write("grades.csv", "a,b");
  scratch.write("alice/labs/lab6-tiled-matmul/kernel.cu", kKernel);

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  EXPECT_EQ(students_of(submissions), std::vector<std::string>{"alice"});
}

TEST(Folder, IgnoresTheUnpackRootWhenItIsInsideTheClassFolder) {
  Scratch scratch;
  scratch.write("alice.cu", kKernel);
  scratch.folder("unpacked");
  const auto submissions = collect(scratch.classroom(), kLab6, scratch.classroom() / "unpacked");
  EXPECT_EQ(students_of(submissions), std::vector<std::string>{"alice"});
}

TEST(Folder, SortsByStudentWhateverTheKindOfEntry) {
  Scratch scratch;
  scratch.write("zed.cu", kKernel);
  scratch.write("Mallory/kernel.cu", kKernel);
  scratch.write("bob/lab6-tiled-matmul/kernel.cu", kKernel);
  scratch.write("alice.CU", kKernel);  // extensions in any case

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  EXPECT_EQ(students_of(submissions), (std::vector<std::string>{"Mallory", "alice", "bob", "zed"}));
  for (const Submission& submission : submissions) {
    EXPECT_TRUE(submission.accepted()) << submission.student << ": " << submission.problem;
  }
}

TEST(Folder, KeepsUntrustedNamesForDisplayAndGivesEachADistinctSafeSlug) {
  Scratch scratch;
  const std::vector<std::string> names = {
      "Alice Smith",       "alice smith", "alice_smith", "Zo\u00eb \u00d8deg\u00e5rd",
      "\u674e\u96f7",      "O'Brien",     "\"quoted\"",  "<img src=x onerror=alert(1)> &amp;",
      "\U0001F680 rocket", "a\tb"};
  for (const std::string& name : names) scratch.write(name + "/kernel.cu", kKernel);
  scratch.write(std::string("bad\xff"
                            "byte.cu"),
                kKernel);

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), names.size() + 1);
  std::set<std::string> shown(names.begin(), names.end());
  shown.insert("bad\uFFFDbyte");
  const std::vector<std::string> students = students_of(submissions);
  EXPECT_EQ(std::set<std::string>(students.begin(), students.end()), shown);

  std::set<std::string> slugs;
  for (const Submission& submission : submissions) {
    EXPECT_TRUE(submission.accepted()) << submission.student << ": " << submission.problem;
    EXPECT_FALSE(submission.slug.empty());
    EXPECT_EQ(submission.slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-"),
              std::string::npos)
        << submission.slug;
    slugs.insert(submission.slug);
  }
  EXPECT_EQ(slugs.size(), submissions.size()) << "slugs must be unique";
  // Sorted bytewise: "Alice Smith" < "alice smith" < "alice_smith", so they get these slugs.
  const auto slug_of = [&](const std::string& student) {
    for (const Submission& s : submissions) {
      if (s.student == student) return s.slug;
    }
    return std::string("<none>");
  };
  EXPECT_EQ(slug_of("Alice Smith"), "alice-smith");
  EXPECT_EQ(slug_of("alice smith"), "alice-smith-2");
  EXPECT_EQ(slug_of("alice_smith"), "alice-smith-3");
  EXPECT_EQ(slug_of("Zo\u00eb \u00d8deg\u00e5rd"), "zoe-odegard");
  EXPECT_EQ(slug_of("bad\uFFFDbyte"), "bad-byte");
}

TEST(Folder, ALinkInTheClassFolderIsRefusedNotFollowed) {
  Scratch scratch;
  fs::create_directories(scratch.root() / "elsewhere");
  std::ofstream(scratch.root() / "elsewhere" / "kernel.cu") << kKernel;
  fs::create_directory_symlink(scratch.root() / "elsewhere", scratch.classroom() / "mallory");
  fs::create_symlink(scratch.root() / "elsewhere" / "kernel.cu", scratch.classroom() / "eve.cu");

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 2u);
  for (const Submission& submission : submissions) {
    EXPECT_EQ(submission.kernel_text, "");
    EXPECT_NE(submission.problem.find("symbolic link"), std::string::npos) << submission.problem;
  }
}

TEST(Folder, AnEmptyClassFolderGivesNoSubmissions) {
  Scratch scratch;
  EXPECT_TRUE(collect(scratch.classroom(), kLab6, scratch.unpacked()).empty());
  scratch.write("README.md", "nothing handed in yet");
  EXPECT_TRUE(collect(scratch.classroom(), kLab6, scratch.unpacked()).empty());
}

TEST(Folder, AMissingClassFolderThrowsAndSaysWhich) {
  Scratch scratch;
  const fs::path missing = scratch.root() / "no-such-class";
  try {
    collect(missing, kLab6, scratch.unpacked());
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(missing.string()), std::string::npos) << message;
    EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
  }
}

TEST(Folder, AFileInsteadOfAClassFolderThrows) {
  Scratch scratch;
  const fs::path file = scratch.write("alice.cu", kKernel);
  try {
    collect(file, kLab6, scratch.unpacked());
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("is not a folder"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace intake

namespace intake {
namespace {

const LabRef kLab1WithBonus{"lab1", "lab1-matrix-copy", {"bonus.cu"}};

TEST(OptionalSources, ABonusNextToTheKernelIsTakenToo) {
  testing::Scratch scratch;
  scratch.write("alice/labs/lab1-matrix-copy/kernel.cu", testing::kKernel);
  scratch.write("alice/labs/lab1-matrix-copy/bonus.cu", "// bonus\n");
  scratch.write("bob/labs/lab1-matrix-copy/kernel.cu", testing::kKernel);

  const auto submissions = collect(scratch.classroom(), kLab1WithBonus, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 2u);
  ASSERT_TRUE(submissions[0].accepted()) << submissions[0].problem;
  EXPECT_EQ(submissions[0].optional_texts.at("bonus.cu"), "// bonus\n");
  EXPECT_TRUE(submissions[1].accepted()) << submissions[1].problem;
  EXPECT_TRUE(submissions[1].optional_texts.empty()) << "no bonus is not a problem";
  EXPECT_TRUE(submissions[1].notes.empty());
}

TEST(OptionalSources, ABadBonusIsLeftOutWithANoteAndTheKernelStillCounts) {
  testing::Scratch scratch;
  scratch.write("alice/labs/lab1-matrix-copy/kernel.cu", testing::kKernel);
  scratch.write("alice/labs/lab1-matrix-copy/bonus.cu", std::string("\x7f"
                                                                    "ELF\0\0\0",
                                                                    7));

  const auto submissions = collect(scratch.classroom(), kLab1WithBonus, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 1u);
  EXPECT_TRUE(submissions[0].accepted()) << submissions[0].problem;
  EXPECT_TRUE(submissions[0].optional_texts.empty());
  ASSERT_EQ(submissions[0].notes.size(), 1u);
  EXPECT_NE(submissions[0].notes[0].find("bonus.cu left out"), std::string::npos)
      << submissions[0].notes[0];
}

TEST(OptionalSources, ABareKernelFileTakesNothingFromTheClassFolder) {
  testing::Scratch scratch;
  scratch.write("carol.cu", testing::kKernel);
  scratch.write("bonus.cu", "// not carol's\n");

  const auto submissions = collect(scratch.classroom(), kLab1WithBonus, scratch.unpacked());
  for (const auto& submission : submissions) {
    EXPECT_TRUE(submission.optional_texts.empty()) << submission.student;
  }
}

}  // namespace
}  // namespace intake
