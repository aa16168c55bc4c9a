#include "reports/html.hpp"

#include <fmt/format.h>

namespace reports {

std::string escape(std::string_view text, Markup markup) {
  const bool xml = markup != Markup::html;
  const bool attribute = markup == Markup::xml_attribute;
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        // &apos; is not an HTML 4 entity; the numeric form works everywhere in HTML.
        out += xml ? "&apos;" : "&#39;";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string html_escape(std::string_view text) { return escape(text, Markup::html); }

std::string table_html(std::string_view css_class, std::string_view caption,
                       std::string_view header_cells, std::string_view rows) {
  return fmt::format(
      "<div class=\"table-wrap\">\n<table class=\"{}\">\n<caption>{}</caption>\n"
      "<thead><tr>{}</tr></thead>\n<tbody>\n{}</tbody>\n</table>\n</div>\n",
      css_class, caption, header_cells, rows);
}

}  // namespace reports
