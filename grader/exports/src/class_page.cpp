#include "class_page.hpp"

#include <fmt/format.h>

#include "exports/text.hpp"
#include "gradebook_css.hpp"
#include "reports/html.hpp"

namespace exports::detail {

std::string html_line(std::string_view text) {
  return reports::html_escape(text::clean(text, false));
}

std::string class_page_head(std::string_view title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n"
      "<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"color-scheme\" content=\"light\">\n"
      "<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
      html_line(title), gradebook_css());
}

std::string class_page_foot(std::string_view generated_at, std::string_view note) {
  return fmt::format(
      "</main>\n<footer><p>Generated {} by labgrade.{}{} This page runs no scripts and loads "
      "nothing.</p></footer>\n</body>\n</html>\n",
      html_line(generated_at), note.empty() ? "" : " ", note);
}

}  // namespace exports::detail
