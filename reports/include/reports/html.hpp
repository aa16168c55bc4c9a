// Escaping for text placed into HTML. Everything in a report that comes from a record, the spec or
// the caller is untrusted: a student's kernel decides what a check's reason says.
#pragma once

#include <string>
#include <string_view>

namespace reports {

// Escapes & < > " ' so the result is inert both as element text and inside a double- or
// single-quoted attribute value (including inline SVG).
std::string html_escape(std::string_view text);

}  // namespace reports
