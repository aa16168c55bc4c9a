// Escaping for text placed into HTML, inline SVG or XML. Everything in a report that comes from a
// record, the spec or the caller is untrusted: a student's kernel decides what a check's reason
// says. The exports (gradebook HTML, JUnit XML) escape with the same function.
#pragma once

#include <string>
#include <string_view>

namespace reports {

// Where escaped text goes; the five characters & < > " ' are escaped in every one.
enum class Markup {
  html,           // HTML or inline SVG, element text or attribute: ' becomes &#39;
  xml_text,       // XML element content: ' becomes &apos;
  xml_attribute,  // XML quoted attribute: also line breaks and tabs as &#10; and &#9;, which
                  // an attribute value would otherwise lose to whitespace normalisation
};

std::string escape(std::string_view text, Markup markup);

// Escapes & < > " ' so the result is inert both as element text and inside a double- or
// single-quoted attribute value (including inline SVG).
std::string html_escape(std::string_view text);

// A report's table: `header_cells` (already markup: <th scope="col">…) and `rows` (<tr>…</tr>
// lines) inside the scrolling wrapper every table of the report and the gradebook has. `caption`
// is markup too: callers escape what comes from a record.
std::string table_html(std::string_view css_class, std::string_view caption,
                       std::string_view header_cells, std::string_view rows);

}  // namespace reports
