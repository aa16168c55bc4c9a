#include "contract/grader_channel.hpp"

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
  return json{{"nonce", message.nonce}, {"seed", message.seed}}.dump();
}

GraderMessage decode_grader_message(std::string_view text) {
  const json in = parse(text, "the grader's message");
  GraderMessage message;
  try {
    message.nonce = in.at("nonce").get<std::string>();
    message.seed = in.at("seed").get<std::uint64_t>();
  } catch (const json::exception& error) {
    throw ChannelError(fmt::format("the grader's message lacks nonce or seed: {}", error.what()));
  }
  if (message.nonce.empty()) throw ChannelError("the grader's message has an empty nonce");
  return message;
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
  if (line.started.empty() && !line.record) {
    throw ChannelError("a line from the lab program says neither started nor record");
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

  std::string text;
  char buffer[512];
  while (text.size() <= kMaxMessageBytes) {
    const ssize_t got = read(in_fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw ChannelError(fmt::format("cannot read the grader's message: {}", std::strerror(errno)));
    }
    text.append(buffer, static_cast<std::size_t>(got));
  }
  close(in_fd);
  if (text.empty()) {
    throw ChannelError("the grader's message was empty (was it read before the harness started?)");
  }
  if (text.size() > kMaxMessageBytes) throw ChannelError("the grader's message is too long");
  return GraderChannel(out_fd, decode_grader_message(text));
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
