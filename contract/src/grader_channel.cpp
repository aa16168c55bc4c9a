#include "contract/grader_channel.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace contract {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxMessageBytes = 4096;

json parse(std::string_view text, const char* what) {
  try {
    return json::parse(text);
  } catch (const json::exception& error) {
    throw ChannelError(fmt::format("{} is not JSON: {}", what, error.what()));
  }
}

int parse_fd(std::string_view text) {
  int fd = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), fd);
  if (error != std::errc() || end != text.data() + text.size() || fd < 0) {
    throw ChannelError(fmt::format("{} names a bad file descriptor '{}'", kGraderChannelVariable,
                                   std::string(text)));
  }
  return fd;
}

}  // namespace

std::string encode_grader_message(const GraderMessage& message) {
  json out{{"nonce", message.nonce}, {"seed", message.seed}};
  if (message.wait_for_turn) out["wait_for_turn"] = true;
  return out.dump() + "\n";
}

GraderMessage decode_grader_message(std::string_view text) {
  const json in = parse(text, "the grader's message");
  GraderMessage message;
  try {
    message.nonce = in.at("nonce").get<std::string>();
    message.seed = in.at("seed").get<std::uint64_t>();
    message.wait_for_turn = in.value("wait_for_turn", false);
  } catch (const json::exception& error) {
    throw ChannelError(fmt::format("the grader's message lacks nonce or seed: {}", error.what()));
  }
  if (message.nonce.empty()) throw ChannelError("the grader's message has an empty nonce");
  return message;
}

std::string encode_ready(std::string_view nonce) {
  return json{{"nonce", nonce}, {"ready", true}}.dump();
}

std::string encode_started(std::string_view nonce, std::string_view check) {
  return json{{"nonce", nonce}, {"started", check}}.dump();
}

std::string encode_record(std::string_view nonce, const CheckRecord& record) {
  json line{{"nonce", nonce}};
  to_json(line["record"], record);
  return line.dump();
}

ChannelLine decode_channel_line(std::string_view text) {
  const json in = parse(text, "a line from the lab program");
  if (!in.is_object()) throw ChannelError("a line from the lab program is not a JSON object");
  ChannelLine line;
  try {
    line.nonce = in.at("nonce").get<std::string>();
    line.ready = in.value("ready", false);
    if (auto it = in.find("started"); it != in.end()) line.started = it->get<std::string>();
    if (auto it = in.find("record"); it != in.end()) {
      CheckRecord record;
      from_json(*it, record);
      line.record = std::move(record);
    }
  } catch (const json::exception& error) {
    throw ChannelError(fmt::format("a line from the lab program is malformed: {}", error.what()));
  } catch (const RecordError& error) {
    throw ChannelError(fmt::format("a record from the lab program is malformed: {}", error.what()));
  }
  if (!line.ready && line.started.empty() && !line.record) {
    throw ChannelError("a line from the lab program says neither ready, started nor record");
  }
  return line;
}

std::optional<GraderChannel> GraderChannel::open_from_environment() {
  const char* value = std::getenv(kGraderChannelVariable);
  if (!value || !*value) return std::nullopt;
  const std::string_view fds = value;
  const auto comma = fds.find(',');
  if (comma == std::string_view::npos) {
    throw ChannelError(fmt::format("{} must be IN,OUT", kGraderChannelVariable));
  }
  const int in_fd = parse_fd(fds.substr(0, comma));
  const int out_fd = parse_fd(fds.substr(comma + 1));

  // One line; byte by byte, so that nothing after it (the "go" of a turn) is read early.
  std::string text;
  while (text.size() <= kMaxMessageBytes) {
    char byte = 0;
    const ssize_t got = read(in_fd, &byte, 1);
    if (got == 0 || (got == 1 && byte == '\n')) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw ChannelError(fmt::format("cannot read the grader's message: {}", std::strerror(errno)));
    }
    text.push_back(byte);
  }
  if (text.empty()) {
    close(in_fd);
    throw ChannelError("the grader's message was empty (was it read before the harness started?)");
  }
  if (text.size() > kMaxMessageBytes) {
    close(in_fd);
    throw ChannelError("the grader's message is too long");
  }
  auto message = decode_grader_message(text);
  if (!message.wait_for_turn) {
    close(in_fd);
    return GraderChannel(-1, out_fd, std::move(message));
  }
  // Kept for the "go"; not inherited by anything this program starts.
  fcntl(in_fd, F_SETFD, FD_CLOEXEC);
  return GraderChannel(in_fd, out_fd, std::move(message));
}

void GraderChannel::wait_for_turn() {
  if (in_fd_ < 0) return;
  send_line(encode_ready(message_.nonce));
  std::string said;
  while (said.size() < kGoLine.size()) {
    char byte = 0;
    const ssize_t got = read(in_fd_, &byte, 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    said.push_back(byte);
  }
  close(in_fd_);
  in_fd_ = -1;
  if (said != kGoLine) {
    throw ChannelError("the grader closed the channel before this program's turn came");
  }
}

void GraderChannel::send_started(std::string_view check) const {
  send_line(encode_started(message_.nonce, check));
}

void GraderChannel::send_record(const CheckRecord& record) const {
  send_line(encode_record(message_.nonce, record));
}

void GraderChannel::send_line(const std::string& line) const {
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t wrote = write(out_fd_, text.data() + sent, text.size() - sent);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      throw ChannelError(fmt::format("cannot send to the grader: {}", std::strerror(errno)));
    }
    sent += static_cast<std::size_t>(wrote);
  }
}

}  // namespace contract
