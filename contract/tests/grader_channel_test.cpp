#include "contract/grader_channel.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace contract {
namespace {

// A pipe whose read end the harness opens as the grader's message, as labgrade batch sets it up.
struct MessagePipe {
  int fds[2]{-1, -1};
  explicit MessagePipe(const std::string& text) {
    EXPECT_EQ(pipe(fds), 0);
    EXPECT_EQ(write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(fds[1]);
  }
};

TEST(GraderChannel, RecordLinesRoundTripWithTheirNonce) {
  CheckRecord record;
  record.lab = "lab6";
  record.check = "TiledMatmul.Integers";
  record.verdict = Verdict::pass;
  CaseResult one;
  one.name = "integers 32x32x32";
  one.output_digest = "0123456789abcdef";
  record.cases.push_back(one);
  const auto line = decode_channel_line(encode_record("n0nce", record));
  EXPECT_EQ(line.nonce, "n0nce");
  ASSERT_TRUE(line.record);
  EXPECT_EQ(line.record->check, "TiledMatmul.Integers");
  EXPECT_EQ(line.record->cases.at(0).output_digest, "0123456789abcdef");
  const auto started = decode_channel_line(encode_started("n0nce", "TiledMatmul.Speed"));
  EXPECT_EQ(started.started, "TiledMatmul.Speed");
  EXPECT_FALSE(started.record);
}

TEST(GraderChannel, MalformedLinesAreErrorsNotCrashes) {
  EXPECT_THROW(decode_channel_line("[  PASSED  ] 8 tests."), ChannelError);
  EXPECT_THROW(decode_channel_line("{\"started\": \"X\"}"), ChannelError);  // no nonce
  EXPECT_THROW(decode_channel_line("{\"nonce\": \"n\"}"), ChannelError);    // says nothing
  EXPECT_THROW(decode_channel_line("{\"nonce\": \"n\", \"record\": {\"verdict\": \"great\"}}"),
               ChannelError);
  EXPECT_THROW(decode_grader_message("{\"nonce\": \"\", \"seed\": 1}"), ChannelError);
}

TEST(GraderChannel, NoVariableNoChannel) {
  unsetenv(kGraderChannelVariable);
  EXPECT_FALSE(GraderChannel::open_from_environment());
}

TEST(GraderChannel, ReadsTheMessageOnceAndAStolenMessageIsAnError) {
  MessagePipe pipe(encode_grader_message({"secret", 1234}));
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  const auto value = std::to_string(pipe.fds[0]) + "," + std::to_string(out[1]);
  setenv(kGraderChannelVariable, value.c_str(), 1);
  const auto channel = GraderChannel::open_from_environment();
  ASSERT_TRUE(channel);
  EXPECT_EQ(channel->message().seed, 1234u);
  channel->send_started("Lab.Check");
  char buffer[256] = {};
  ASSERT_GT(read(out[0], buffer, sizeof buffer - 1), 0);
  EXPECT_EQ(decode_channel_line(std::string(buffer)).started, "Lab.Check");

  // A message someone read first (the student's static initializer): the pipe is empty.
  MessagePipe emptied("");
  const auto stolen = std::to_string(emptied.fds[0]) + "," + std::to_string(out[1]);
  setenv(kGraderChannelVariable, stolen.c_str(), 1);
  EXPECT_THROW(GraderChannel::open_from_environment(), ChannelError);
  unsetenv(kGraderChannelVariable);
  close(out[0]);
  close(out[1]);
}

// A speed run's program starts before its turn: it says ready and waits for "go", which comes on
// the same input as the message and must not be swallowed with it.
TEST(GraderChannel, WaitsForItsTurnAfterSayingReady) {
  GraderMessage message{"n0nce", 7};
  message.wait_for_turn = true;
  MessagePipe pipe(encode_grader_message(message) + std::string(kGoLine));
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  setenv(kGraderChannelVariable,
         (std::to_string(pipe.fds[0]) + "," + std::to_string(out[1])).c_str(), 1);
  auto channel = GraderChannel::open_from_environment();
  ASSERT_TRUE(channel);
  EXPECT_TRUE(channel->message().wait_for_turn);
  EXPECT_NO_THROW(channel->wait_for_turn());
  char buffer[256] = {};
  ASSERT_GT(read(out[0], buffer, sizeof buffer - 1), 0);
  const auto line = decode_channel_line(std::string(buffer));
  EXPECT_TRUE(line.ready);
  EXPECT_EQ(line.nonce, "n0nce");

  // The grader went away instead of saying go: an error, not a run without a turn.
  MessagePipe no_go(encode_grader_message(message));
  setenv(kGraderChannelVariable,
         (std::to_string(no_go.fds[0]) + "," + std::to_string(out[1])).c_str(), 1);
  auto waiting = GraderChannel::open_from_environment();
  ASSERT_TRUE(waiting);
  EXPECT_THROW(waiting->wait_for_turn(), ChannelError);

  // Without wait_for_turn there is nothing to wait for, and the input is closed at once.
  MessagePipe plain(encode_grader_message({"n", 1}));
  setenv(kGraderChannelVariable,
         (std::to_string(plain.fds[0]) + "," + std::to_string(out[1])).c_str(), 1);
  auto unasked = GraderChannel::open_from_environment();
  ASSERT_TRUE(unasked);
  EXPECT_FALSE(unasked->message().wait_for_turn);
  EXPECT_NO_THROW(unasked->wait_for_turn());
  EXPECT_EQ(fcntl(plain.fds[0], F_GETFD), -1);  // closed
  unsetenv(kGraderChannelVariable);
  close(out[0]);
  close(out[1]);
}

}  // namespace
}  // namespace contract
