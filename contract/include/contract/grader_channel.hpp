// The private channel between the batch grader and a lab program it runs in a sandbox. Results do
// not leave through files or stdout, which the student's code can write as easily as the harness:
// the grader passes two pipe ends (LAB_GRADER_CHANNEL="IN,OUT"), sends a one-time message with a
// fresh nonce and the secret seed on IN, and takes only nonce-stamped JSON lines from OUT. The
// grader still trusts none of it blindly: see docs/architecture.md, "Trust model".
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "contract/record.hpp"

namespace contract {

inline constexpr const char* kGraderChannelVariable = "LAB_GRADER_CHANNEL";

struct ChannelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the grader says once, at the start: one JSON line.
struct GraderMessage {
  std::string nonce;
  std::uint64_t seed = 0;
  // The program may start (CUDA, the student's launcher and context) before the GPU is its own,
  // but must not run a check until the grader says so: it says it is ready, then waits for "go"
  // on the same input. The batch's speed runs start this way while another run times, so that
  // the time the GPU is held alone is spent timing, not starting.
  bool wait_for_turn = false;
};

std::string encode_grader_message(const GraderMessage& message);
GraderMessage decode_grader_message(std::string_view text);  // throws ChannelError

// One line the lab program sends: that it is ready for its turn, that a check started, or a
// check's record.
struct ChannelLine {
  std::string nonce;
  bool ready = false;                 // started up, waiting for the grader's "go"
  std::string started;                // check id, when the line says a check started
  std::optional<CheckRecord> record;  // when the line carries a record
};
inline constexpr std::string_view kGoLine = "go\n";  // the grader's answer to "ready"
std::string encode_ready(std::string_view nonce);
std::string encode_started(std::string_view nonce, std::string_view check);
std::string encode_record(std::string_view nonce, const CheckRecord& record);
ChannelLine decode_channel_line(std::string_view line);  // throws ChannelError

class GraderChannel {
 public:
  // Opens the channel named by LAB_GRADER_CHANNEL and reads the grader's message; no channel when
  // the variable is unset (the student's own runs). Throws ChannelError when the variable is set
  // but the message cannot be read (someone else read it first, or it is malformed).
  static std::optional<GraderChannel> open_from_environment();

  const GraderMessage& message() const { return message_; }
  // When the message asked for it: says "ready" and blocks until the grader says "go". Throws
  // ChannelError when the grader closes the channel instead.
  void wait_for_turn();
  void send_started(std::string_view check) const;
  void send_record(const CheckRecord& record) const;

 private:
  GraderChannel(int in_fd, int out_fd, GraderMessage message)
      : in_fd_(in_fd), out_fd_(out_fd), message_(std::move(message)) {}
  void send_line(const std::string& line) const;

  int in_fd_ = -1;  // open only while a turn is still to be waited for
  int out_fd_ = -1;
  GraderMessage message_;
};

}  // namespace contract
