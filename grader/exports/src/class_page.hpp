// The frame every class page shares (the gradebook and the leaderboard): the head that forbids
// scripts and loads and inlines the class pages' style sheet, and the footer.
#pragma once

#include <string>
#include <string_view>

namespace exports::detail {

// Spec or student text as one line of HTML: cleaned of control characters and line breaks,
// escaped.
std::string html_line(std::string_view text);

// From <!DOCTYPE html> to <body>; `title` is plain text (escaped here).
std::string class_page_head(std::string_view title);

// From </main> to </html>: "Generated <generated_at> by labgrade. <note> This page runs no
// scripts and loads nothing." (`note` is HTML, may be empty).
std::string class_page_foot(std::string_view generated_at, std::string_view note);

}  // namespace exports::detail
