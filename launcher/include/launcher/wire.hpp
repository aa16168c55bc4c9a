// The wire between the lab program and the student's launcher process: one message is a 4-byte
// length followed by MessagePack (nlohmann::json). Both sides use it; only the lab program trusts
// nothing it reads (sizes are capped, reads can have a deadline).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace wire {

// Larger messages are refused: a launcher's ops list is small; uploads of launcher-made data are
// capped well below this.
constexpr std::uint32_t kMaxMessageBytes = 256u << 20;

// False when the peer has gone.
bool send(int fd, const nlohmann::json& message);

// One message, or nothing with `error` set: end of stream, a malformed frame, or (with
// deadline_ms >= 0) no whole message within deadline_ms milliseconds.
std::optional<nlohmann::json> receive(int fd, int deadline_ms, std::string& error);

}  // namespace wire
