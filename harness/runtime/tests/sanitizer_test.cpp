// The notes of the lab's buffers as the student's kernels see them under compute-sanitizer
// (harness/sanitizer.hpp): kept only under the sanitizer, taken once, in the order noted.
#include "harness/sanitizer.hpp"

#include <cstdlib>

#include <gtest/gtest.h>

namespace harness {
namespace {

class SanitizerNotes : public ::testing::Test {
 protected:
  void SetUp() override { take_device_buffer_places(); }
  void TearDown() override {
    unsetenv("LAB_SANITIZER");
    take_device_buffer_places();
  }
};

TEST_F(SanitizerNotes, NothingIsNotedOutsideTheSanitizer) {
  unsetenv("LAB_SANITIZER");
  unsetenv("NV_SANITIZER_INJECTION_PORT_BASE");
  EXPECT_FALSE(under_sanitizer());
  note_device_buffer("C", 0x7f0000001000, 4096);
  EXPECT_TRUE(take_device_buffer_places().empty());
}

TEST_F(SanitizerNotes, NotesAreTakenOnceInTheOrderNoted) {
  setenv("LAB_SANITIZER", "1", 1);
  EXPECT_TRUE(under_sanitizer());
  note_device_buffer("A", 0x7f0000001000, 64);
  note_device_buffer("C", 0x7f0000002000, 128);
  const auto places = take_device_buffer_places();
  ASSERT_EQ(places.size(), 2u);
  EXPECT_EQ(places[0].name, "A");
  EXPECT_EQ(places[0].address, 0x7f0000001000u);
  EXPECT_EQ(places[0].bytes, 64u);
  EXPECT_EQ(places[1].name, "C");
  EXPECT_TRUE(take_device_buffer_places().empty());
}

// The pass (a second run that only looks for errors) and the hosted memcheck run (the graded run
// itself under memcheck) are told apart: only the pass leaves out diagnoses and launch records.
TEST_F(SanitizerNotes, TheHostedRunIsNotThePass) {
  unsetenv("NV_SANITIZER_INJECTION_PORT_BASE");
  setenv("LAB_SANITIZER", "memcheck", 1);
  EXPECT_TRUE(in_sanitizer_pass());
  EXPECT_FALSE(sanitizer_hosts_graded_run());
  setenv("LAB_SANITIZER", "memcheck-hosted", 1);
  EXPECT_TRUE(under_sanitizer());
  EXPECT_TRUE(sanitizer_hosts_graded_run());
  EXPECT_FALSE(in_sanitizer_pass());
  unsetenv("LAB_SANITIZER");
  EXPECT_FALSE(in_sanitizer_pass());
  EXPECT_FALSE(sanitizer_hosts_graded_run());
}

}  // namespace
}  // namespace harness
