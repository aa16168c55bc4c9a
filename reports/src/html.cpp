#include "reports/html.hpp"

namespace reports {

std::string html_escape(std::string_view text) {
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
        out += "&#39;";  // &apos; is not an HTML 4 entity; the numeric form works everywhere
        break;
      default:
        out += ch;
    }
  }
  return out;
}

}  // namespace reports
