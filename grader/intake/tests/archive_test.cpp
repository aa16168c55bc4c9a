// Archived submissions: unpacked under unpack_root/<slug>/ and searched like folders, or refused
// with nothing written outside that folder.
#include <gtest/gtest.h>

#include <fstream>

#include "intake/intake.hpp"
#include "scratch.hpp"

#if INTAKE_HAVE_LIBARCHIVE
#include "test_archives.hpp"
#endif

namespace intake {
namespace {

namespace fs = std::filesystem;

using testing::kKernel;
using testing::Scratch;

const LabRef kLab6{"lab6", "lab6-tiled-matmul"};

#if INTAKE_HAVE_LIBARCHIVE

using testing::fifo;
using testing::file;
using testing::folder;
using testing::Format;
using testing::hardlink;
using testing::Item;
using testing::symlink;
using testing::write_archive;

Submission only(const Scratch& scratch, const Limits& limits = {}) {
  auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked(), limits);
  if (submissions.size() != 1) throw std::runtime_error("expected one submission");
  return submissions[0];
}

// Every file and folder under the scratch folder outside class/ and unpacked/<slug>/.
std::vector<std::string> written_outside(const Scratch& scratch, const std::string& slug) {
  std::vector<std::string> outside;
  const fs::path allowed = scratch.unpacked() / slug;
  for (auto it = fs::recursive_directory_iterator(scratch.root());
       it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& path = it->path();
    if (path == scratch.classroom() || path == allowed) {
      it.disable_recursion_pending();
      continue;
    }
    if (path != scratch.unpacked()) outside.push_back(path.string());
  }
  return outside;
}

#define SKIP_WITHOUT_LIBARCHIVE()
#else
#define SKIP_WITHOUT_LIBARCHIVE() \
  GTEST_SKIP() << "built without libarchive (install libarchive-dev and reconfigure)"
#endif

TEST(Archive, ZipWithATopFolderIsUnpackedAndSearched) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  const fs::path zip = scratch.classroom() / "Alice Smith.zip";
  write_archive(zip, Format::zip,
                {folder("cuda-labs-main/"),
                 file("cuda-labs-main/labs/lab6-tiled-matmul/kernel.cu", std::string(kKernel)),
                 file("cuda-labs-main/labs/lab5-single-block-shared/kernel.cu", "// lab 5\n"),
                 file("cuda-labs-main/README.md", "# mine")});

  const Submission alice = only(scratch);
  EXPECT_EQ(alice.student, "Alice Smith");
  EXPECT_EQ(alice.slug, "alice-smith");
  EXPECT_EQ(alice.source, zip);
  EXPECT_TRUE(alice.accepted()) << alice.problem;
  EXPECT_EQ(alice.kernel,
            scratch.unpacked() / "alice-smith" / "cuda-labs-main/labs/lab6-tiled-matmul/kernel.cu");
  EXPECT_EQ(alice.kernel_text, kKernel);
  const fs::path readme = scratch.unpacked() / "alice-smith" / "cuda-labs-main/README.md";
  EXPECT_TRUE(fs::is_regular_file(readme));
  EXPECT_EQ(fs::status(readme).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
#endif
}

TEST(Archive, TarGzTgzAndTarAreUnpacked) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  write_archive(scratch.classroom() / "bob.tar.gz", Format::tar_gz,
                {file("./lab6-tiled-matmul/kernel.cu", "// bob\n")});
  write_archive(scratch.classroom() / "carol.tgz", Format::tar_gz,
                {file("kernel.cu", "// carol\n")});
  write_archive(scratch.classroom() / "dave.TAR", Format::tar,
                {file("labs/lab6-tiled-matmul/kernel.cu", "// dave\n")});

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 3u);
  EXPECT_EQ(submissions[0].student, "bob");
  EXPECT_EQ(submissions[0].kernel_text, "// bob\n");
  EXPECT_EQ(submissions[1].student, "carol");
  EXPECT_EQ(submissions[1].kernel_text, "// carol\n");
  EXPECT_EQ(submissions[2].student, "dave");
  EXPECT_EQ(submissions[2].kernel_text, "// dave\n");
  for (const Submission& submission : submissions) {
    EXPECT_TRUE(submission.accepted()) << submission.student << ": " << submission.problem;
    ASSERT_TRUE(submission.kernel.has_value());
    EXPECT_TRUE(submission.kernel->string().starts_with(
        (scratch.unpacked() / submission.slug).string() + "/"));
  }
#endif
}

TEST(Archive, AnArchiveWithoutTheKernelOrEmptySaysWhatWasExpected) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  write_archive(scratch.classroom() / "alice.zip", Format::zip,
                {file("labs/lab5-single-block-shared/kernel.cu", "// lab 5\n")});
  // An empty file reads as an empty archive: nothing handed in, not a corrupt archive.
  std::ofstream(scratch.classroom() / "bob.tar");

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 2u);
  EXPECT_EQ(submissions[0].problem,
            "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu (found only other labs' "
            "kernels: 'labs/lab5-single-block-shared/kernel.cu')");
  EXPECT_EQ(submissions[1].problem, "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu");
#endif
}

TEST(Archive, ZipSlipWithParentComponentsIsRefusedAndWritesNothingOutside) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  write_archive(scratch.classroom() / "mallory.zip", Format::zip,
                {file("labs/lab6-tiled-matmul/kernel.cu", std::string(kKernel)),
                 file("../evil.cu", "// escaped\n"), file("../../evil.cu", "// escaped\n")});

  const Submission mallory = only(scratch);
  EXPECT_EQ(mallory.problem, "the archive escapes its folder: entry '../evil.cu'");
  EXPECT_EQ(mallory.kernel_text, "");
  EXPECT_EQ(written_outside(scratch, "mallory"), std::vector<std::string>{});
  EXPECT_FALSE(fs::exists(scratch.unpacked() / "mallory")) << "a refused archive is removed";
#endif
}

TEST(Archive, AbsolutePathsAreRefusedAndWriteNothingOutside) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  const std::string target = (scratch.root() / "absolute-evil.cu").string();
  write_archive(scratch.classroom() / "mallory.tar", Format::tar, {file(target, "// escaped\n")});
  write_archive(scratch.classroom() / "trudy.zip", Format::zip,
                {file("..\\..\\evil.cu", "// escaped\n")});

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 2u);
  EXPECT_EQ(submissions[0].problem, "the archive escapes its folder: entry '" + target + "'");
  // libarchive's zip reader may already have turned the backslashes into slashes.
  EXPECT_TRUE(submissions[1].problem.starts_with("the archive escapes its folder: entry '..") &&
              submissions[1].problem.ends_with("evil.cu'"))
      << submissions[1].problem;
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(written_outside(scratch, "none"), std::vector<std::string>{});
#endif
}

TEST(Archive, LinksAndSpecialFilesAreRefused) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  write_archive(scratch.classroom() / "a-symlink.tar", Format::tar,
                {symlink("labs/lab6-tiled-matmul/kernel.cu", "/etc/passwd")});
  write_archive(scratch.classroom() / "b-zip-symlink.zip", Format::zip,
                {symlink("labs/lab6-tiled-matmul/kernel.cu", "/etc/passwd")});
  write_archive(
      scratch.classroom() / "c-hardlink.tar", Format::tar,
      {file("notes.txt", "x"), hardlink("labs/lab6-tiled-matmul/kernel.cu", "/etc/passwd")});
  write_archive(scratch.classroom() / "d-fifo.tar", Format::tar,
                {fifo("labs/lab6-tiled-matmul/kernel.cu")});

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 4u);
  const std::string entry = "entry 'labs/lab6-tiled-matmul/kernel.cu'";
  EXPECT_EQ(submissions[0].problem, "the archive contains a symbolic link: " + entry);
  EXPECT_EQ(submissions[1].problem, "the archive contains a symbolic link: " + entry);
  EXPECT_EQ(submissions[2].problem, "the archive contains a hard link: " + entry);
  EXPECT_EQ(submissions[3].problem,
            "the archive contains a special file (device, FIFO or socket): " + entry);
  for (const Submission& submission : submissions) EXPECT_EQ(submission.kernel_text, "");
  EXPECT_EQ(written_outside(scratch, "none"), std::vector<std::string>{});
#endif
}

TEST(Archive, AnEncryptedZipIsRefused) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  try {
    write_archive(scratch.classroom() / "alice.zip", Format::zip_encrypted,
                  {file("labs/lab6-tiled-matmul/kernel.cu", std::string(kKernel))});
  } catch (const std::runtime_error& error) {
    GTEST_SKIP() << "this libarchive cannot write encrypted zips: " << error.what();
  }
  EXPECT_EQ(only(scratch).problem,
            "the archive is encrypted: entry 'labs/lab6-tiled-matmul/kernel.cu'; submit it "
            "without a password");
#endif
}

TEST(Archive, CorruptOrTruncatedArchivesAreRefusedWithLibarchivesMessage) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  std::ofstream(scratch.classroom() / "a-not-a-zip.zip") << "this is a Word document, honest";
  // Poorly compressible, so cutting the archive in half cuts into this entry's data.
  std::string noise;
  for (std::uint32_t i = 0, x = 1; i < 200000; ++i) {
    x = x * 1103515245u + 12345u;
    noise += static_cast<char>('a' + (x >> 16) % 26);
  }
  // A zip cut in half: its central directory, at the end, is gone, and so is half of notes.txt.
  const fs::path zip = scratch.classroom() / "b-truncated.zip";
  write_archive(
      zip, Format::zip,
      {file("labs/lab6-tiled-matmul/kernel.cu", std::string(kKernel)), file("notes.txt", noise)});
  fs::resize_file(zip, fs::file_size(zip) / 2);
  // A tar.gz cut short inside the kernel's data.
  const fs::path tgz = scratch.classroom() / "c-truncated.tar.gz";
  write_archive(tgz, Format::tar_gz, {file("labs/lab6-tiled-matmul/kernel.cu", noise)});
  fs::resize_file(tgz, fs::file_size(tgz) / 2);

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 3u);
  for (const Submission& submission : submissions) {
    EXPECT_TRUE(submission.problem.starts_with("corrupt archive: ")) << submission.problem;
    EXPECT_GT(submission.problem.size(), std::string("corrupt archive: ").size());
    EXPECT_EQ(submission.problem.find('\n'), std::string::npos);
    EXPECT_EQ(submission.kernel_text, "");
    EXPECT_FALSE(fs::exists(scratch.unpacked() / submission.slug));
  }
#endif
}

TEST(Archive, AZipBombStopsAtTheDefaultSizeLimit) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  // 65 MiB of zeros deflate to about 64 KiB.
  write_archive(scratch.classroom() / "bomb.zip", Format::zip,
                {file("labs/lab6-tiled-matmul/kernel.cu", std::string(kKernel)),
                 file("zeros.bin", std::string(65ull << 20, '\0'))});
  ASSERT_LT(fs::file_size(scratch.classroom() / "bomb.zip"), 1u << 20);

  const Submission bomb = only(scratch);
  EXPECT_EQ(bomb.problem, "the archive unpacks to more than 64 MiB");
  EXPECT_EQ(bomb.kernel_text, "");
  EXPECT_FALSE(fs::exists(scratch.unpacked() / "bomb"));
#endif
}

TEST(Archive, ManySmallFilesStopAtTheSizeLimitToo) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  std::vector<Item> items;
  for (int i = 0; i < 40; ++i)
    items.push_back(file(std::string("f").append(std::to_string(i)), std::string(30000, 'x')));
  write_archive(scratch.classroom() / "many.tar.gz", Format::tar_gz, items);
  Limits limits;
  limits.max_archive_bytes = 1 << 20;  // 40 * 30000 bytes is about 1.14 MiB

  EXPECT_EQ(only(scratch, limits).problem, "the archive unpacks to more than 1 MiB");
  limits.max_archive_bytes = 2 << 20;
  EXPECT_EQ(only(scratch, limits).problem,
            "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu");
#endif
}

TEST(Archive, TooManyEntriesAreRefused) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  std::vector<Item> items = {file("kernel.cu", std::string(kKernel))};
  for (int i = 0; i < 20; ++i)
    items.push_back(folder(std::string("d").append(std::to_string(i)).append("/")));
  write_archive(scratch.classroom() / "many.zip", Format::zip, items);
  Limits limits;
  limits.max_archive_entries = 20;

  EXPECT_EQ(only(scratch, limits).problem, "the archive has more than 20 entries");
  limits.max_archive_entries = 21;
  EXPECT_TRUE(only(scratch, limits).accepted()) << only(scratch, limits).problem;
#endif
}

TEST(Archive, AnotherRunReplacesWhatAnEarlierOneUnpacked) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  // Left over from an earlier submission of the same name: must not count as a second kernel.
  fs::create_directories(scratch.unpacked() / "alice" / "old" / "labs" / "lab6-tiled-matmul");
  std::ofstream(scratch.unpacked() / "alice" / "old" / "labs" / "lab6-tiled-matmul" / "kernel.cu")
      << "// stale\n";
  write_archive(scratch.classroom() / "alice.zip", Format::zip,
                {file("labs/lab6-tiled-matmul/kernel.cu", "// fresh\n")});

  const Submission alice = only(scratch);
  EXPECT_TRUE(alice.accepted()) << alice.problem;
  EXPECT_EQ(alice.kernel_text, "// fresh\n");
  EXPECT_FALSE(fs::exists(scratch.unpacked() / "alice" / "old"));
#endif
}

TEST(Archive, CollidingNamesUnpackIntoTheirOwnFolders) {
  SKIP_WITHOUT_LIBARCHIVE();
#if INTAKE_HAVE_LIBARCHIVE
  Scratch scratch;
  write_archive(scratch.classroom() / "Zo\u00eb.zip", Format::zip, {file("kernel.cu", "// one\n")});
  write_archive(scratch.classroom() / "zoe.tgz", Format::tar_gz, {file("kernel.cu", "// two\n")});

  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 2u);
  EXPECT_EQ(submissions[0].student, "Zo\u00eb");
  EXPECT_EQ(submissions[0].slug, "zoe");
  EXPECT_EQ(submissions[0].kernel_text, "// one\n");
  EXPECT_EQ(submissions[1].student, "zoe");
  EXPECT_EQ(submissions[1].slug, "zoe-2");
  EXPECT_EQ(submissions[1].kernel_text, "// two\n");
  EXPECT_EQ(*submissions[1].kernel, scratch.unpacked() / "zoe-2" / "kernel.cu");
#endif
}

TEST(Archive, WithoutLibarchiveArchivesAreRefusedWithTheFix) {
  if (archives_supported()) GTEST_SKIP() << "this build reads archives (libarchive found)";
  Scratch scratch;
  scratch.write("alice.zip", "PK\x03\x04");
  scratch.write("bob.tar.gz", "\x1f\x8b");
  const auto submissions = collect(scratch.classroom(), kLab6, scratch.unpacked());
  ASSERT_EQ(submissions.size(), 2u);
  for (const Submission& submission : submissions) {
    EXPECT_EQ(submission.problem,
              "archives are not supported by this build of labgrade: install libarchive-dev and "
              "rebuild, or unpack it");
  }
  EXPECT_FALSE(fs::exists(scratch.unpacked()));
}

TEST(Archive, SupportMatchesTheBuild) {
  EXPECT_EQ(archives_supported(), INTAKE_HAVE_LIBARCHIVE == 1);
}

}  // namespace
}  // namespace intake
