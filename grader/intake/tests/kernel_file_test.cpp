// What a kernel file must be to be read: a regular, non-empty text file within the size limit,
// reached without following a link.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "intake/intake.hpp"
#include "scratch.hpp"

namespace intake {
namespace {

namespace fs = std::filesystem;

using testing::kKernel;
using testing::Scratch;

const LabRef kLab6{"lab6", "lab6-tiled-matmul"};
constexpr const char* kKernelPath = "alice/labs/lab6-tiled-matmul/kernel.cu";

Submission alice(const Scratch& scratch, const Limits& limits = {}) {
  for (Submission& submission : collect(scratch.classroom(), kLab6, scratch.unpacked(), limits)) {
    if (submission.student == "alice") return submission;
  }
  throw std::runtime_error("no submission from alice");
}

TEST(KernelFile, ABinaryFileIsRefusedAtItsFirstNulByte) {
  Scratch scratch;
  scratch.write(kKernelPath, std::string("__global__\0\x01\x02", 13));
  const Submission submission = alice(scratch);
  EXPECT_EQ(submission.problem, "kernel.cu is not a text file (binary byte at offset 10)");
  EXPECT_EQ(submission.kernel_text, "");
  // The file was found, so the gradebook can point at it.
  EXPECT_EQ(submission.kernel, scratch.classroom() / kKernelPath);
}

TEST(KernelFile, InvalidUtf8IsRefusedAtItsFirstBadByte) {
  Scratch scratch;
  scratch.write(kKernelPath, "// caf\xe9 (Latin-1)\n");
  EXPECT_EQ(alice(scratch).problem, "kernel.cu is not a text file (binary byte at offset 6)");
  EXPECT_EQ(alice(scratch).kernel_text, "");
}

TEST(KernelFile, Utf8CommentsAreFine) {
  Scratch scratch;
  const std::string text = "// Zo\u00eb's kernel \u2014 tiled \U0001F680\n" + std::string(kKernel);
  scratch.write(kKernelPath, text);
  EXPECT_TRUE(alice(scratch).accepted()) << alice(scratch).problem;
  EXPECT_EQ(alice(scratch).kernel_text, text);
}

TEST(KernelFile, AnEmptyFileIsRefused) {
  Scratch scratch;
  scratch.write(kKernelPath, "");
  EXPECT_EQ(alice(scratch).problem, "kernel.cu is empty");
}

TEST(KernelFile, AFileOverTheLimitIsRefused) {
  Scratch scratch;
  scratch.write(kKernelPath, std::string(600 * 1024, '/'));
  EXPECT_EQ(alice(scratch).problem, "kernel.cu is too large: 600 KiB, more than the 512 KiB limit");

  Limits small;
  small.max_kernel_bytes = 100;
  scratch.write(kKernelPath, std::string(100, '/'));
  EXPECT_TRUE(alice(scratch, small).accepted()) << alice(scratch, small).problem;
  scratch.write(kKernelPath, std::string(101, '/'));
  EXPECT_EQ(alice(scratch, small).problem,
            "kernel.cu is too large: 101 bytes, more than the 100 bytes limit");
}

TEST(KernelFile, ALinkToASystemFileIsNotRead) {
  Scratch scratch;
  scratch.folder("alice/labs/lab6-tiled-matmul");
  fs::create_symlink("/etc/passwd", scratch.classroom() / kKernelPath);
  const Submission submission = alice(scratch);
  EXPECT_EQ(submission.problem, "kernel.cu is a symbolic link");
  EXPECT_EQ(submission.kernel_text, "");
}

TEST(KernelFile, ALinkToAnotherStudentsKernelIsNotRead) {
  Scratch scratch;
  scratch.write("bob/labs/lab6-tiled-matmul/kernel.cu", "// bob's work\n");
  scratch.folder("alice/labs/lab6-tiled-matmul");
  fs::create_symlink("../../../bob/labs/lab6-tiled-matmul/kernel.cu",
                     scratch.classroom() / kKernelPath);
  const Submission submission = alice(scratch);
  EXPECT_EQ(submission.problem, "kernel.cu is a symbolic link");
  EXPECT_EQ(submission.kernel_text, "");
}

TEST(KernelFile, AFifoIsRefusedWithoutBlocking) {
  Scratch scratch;
  scratch.folder("alice/labs/lab6-tiled-matmul");
  ASSERT_EQ(::mkfifo((scratch.classroom() / kKernelPath).c_str(), 0644), 0);
  EXPECT_EQ(alice(scratch).problem, "kernel.cu is not a regular file");
}

TEST(KernelFile, ABareKernelIsCheckedTheSameWay) {
  Scratch scratch;
  scratch.write("alice.cu", std::string("\x7f"
                                        "ELF\x02\x01\x01\0",
                                        8));
  EXPECT_EQ(alice(scratch).problem, "alice.cu is not a text file (binary byte at offset 7)");
}

}  // namespace
}  // namespace intake
