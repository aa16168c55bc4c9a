// Pieces of the one-line problems written to the gradebook.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace intake::wording {

// A size as people say it: "64 MiB", "512 KiB", "100 bytes" (fractions rounded up, so a limit
// never reads smaller than it is).
std::string bytes(std::uint64_t count);

// Untrusted text (a library's error, a path in a submission) fit for one line: valid UTF-8,
// control and line-separator characters shown as '?', cut with an ellipsis after `max_bytes`.
std::string one_line(std::string_view text, std::size_t max_bytes = 200);

// An untrusted name in single quotes, on one line, at most about 100 bytes.
std::string quoted(std::string_view name);

}  // namespace intake::wording
