// Making untrusted text safe for each export format. Student names, statuses and compiler messages
// are arbitrary bytes: invalid UTF-8, terminal colour codes, NUL and other control characters.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace exports::text {

// Valid UTF-8 with no control characters: invalid bytes become U+FFFD, terminal escape sequences
// (ESC [ ... and ESC ] ... BEL) are dropped, CR LF and lone CR become LF, and every other C0/C1
// control character, DEL and the non-characters U+FFFE/U+FFFF are removed. Tab and LF are kept
// when `multi_line`; otherwise each becomes a space (for one-line fields such as names).
std::string clean(std::string_view text, bool multi_line = true);

// At most `max_bytes` bytes of `text` cut at a code point boundary, followed by a note of how much
// was left out; the text itself when it fits.
std::string truncate(std::string_view text, std::size_t max_bytes);

// One CSV field (RFC 4180): cleaned, guarded against formula injection (a field starting with
// = + - @ or a tab gets a leading '), and quoted when it holds a comma, quote or line break.
std::string csv_field(std::string_view text);

// Cleaned text escaped for XML element content or a quoted attribute value (& < > " '); inside an
// attribute, line breaks and tabs become character references so they survive parsing.
std::string xml_escape(std::string_view text, bool attribute = false);

// A relative link to a file, percent-encoded (every byte except A-Z a-z 0-9 - . _ ~ /) so it needs
// no further escaping in an attribute. Empty when the path is empty, has a URL scheme
// ("javascript:", "https:"), starts with // or a backslash (another host), or holds control bytes.
std::optional<std::string> safe_href(std::string_view path);

}  // namespace exports::text
