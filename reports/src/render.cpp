#include "reports/render.hpp"

#include <fmt/format.h>

#include "check_view.hpp"
#include "embedded_template.hpp"
#include "format.hpp"
#include "placeholders.hpp"
#include "reports/html.hpp"
#include "reports/palette.hpp"
#include "sections.hpp"

namespace reports {

std::string render_lab_report(const contract::LabGrade& grade, const ReportContext& context) {
  const auto checks = detail::make_check_views(grade, context.no_record_reason);
  std::string title =
      fmt::format("{} {}: {}", grade.lab, grade.title, contract::format_score_line(grade));
  if (!context.student.empty()) title += " (" + context.student + ")";

  const detail::PlaceholderValues values{
      {"title", html_escape(title)},
      {"css", std::string(palette_css()) + std::string(detail::report_css())},
      {"header", detail::render_header(grade, checks, context)},
      {"problems", detail::render_submission_problem(context) + detail::render_problems(grade)},
      {"checks", detail::render_check_table(grade, checks)},
      {"speed", detail::render_speed_section(checks, grade.emulated)},
      {"details", detail::render_check_details(checks, context.handout)},
      {"environment", detail::render_environment(checks, context)},
  };
  return detail::fill_placeholders(detail::report_html_template(), values);
}

}  // namespace reports
