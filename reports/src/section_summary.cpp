// The top of the report: header with the score, problems box, table of checks.
#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "format.hpp"
#include "reports/html.hpp"
#include "sections.hpp"

namespace reports::detail {
namespace {

// How a number of checks with this verdict reads: "2 failed", "1 error", "3 errors".
std::string_view counted(contract::Verdict verdict, std::ptrdiff_t n) {
  switch (verdict) {
    case contract::Verdict::fail:
      return "failed";
    case contract::Verdict::error:
      return n == 1 ? "error" : "errors";
    case contract::Verdict::pass:
    case contract::Verdict::skipped:
    case contract::Verdict::inconclusive:
    case contract::Verdict::not_measured:
    case contract::Verdict::not_run:
    case contract::Verdict::not_attempted:
    case contract::Verdict::implausible:
      break;
  }
  return verdict_label(verdict);
}

// "3 of 6 checks passed · 2 failed · 1 not run": the verdicts other than pass, in a fixed order.
std::string verdict_summary(std::span<const CheckView> checks) {
  if (checks.empty()) return "This lab has no checks.";
  const auto count = [&](contract::Verdict verdict) {
    return std::count_if(checks.begin(), checks.end(),
                         [verdict](const CheckView& c) { return c.verdict == verdict; });
  };
  const auto passed = count(contract::Verdict::pass);
  if (static_cast<std::size_t>(passed) == checks.size()) {
    return checks.size() == 1 ? "The check passed." : fmt::format("All {} checks passed.", passed);
  }
  std::string text = fmt::format("{} of {} checks passed", passed, checks.size());
  // Implausible next to failed: both lost their points to the student's code.
  constexpr std::array others{contract::Verdict::fail,         contract::Verdict::implausible,
                              contract::Verdict::error,        contract::Verdict::inconclusive,
                              contract::Verdict::not_measured, contract::Verdict::skipped,
                              contract::Verdict::not_run,      contract::Verdict::not_attempted};
  for (const auto verdict : others) {
    if (const auto n = count(verdict); n > 0)
      text += fmt::format(R"( &#183; <span class="nowrap">{} {}</span>)", n, counted(verdict, n));
  }
  return text;
}

// The sentence under the score. Under the CPU emulation speed is not measured, so a run that
// earned every other point has done all it can there: it says so and what is left for a GPU.
struct Headline {
  std::string status;  // the score card's class
  std::string words;   // HTML
};

Headline headline_of(const contract::LabGrade& grade, bool all_passed) {
  if (all_passed) return {"status-pass", "Passed."};
  const auto limit = contract::without_gpu(grade);
  if (limit && limit->earned) {
    return {"status-most", html_escape(fmt::format("The most a run without a GPU can earn ({}).",
                                                   contract::gpu_only_words(*limit)))};
  }
  if (limit) {
    return {"status-open",
            html_escape(fmt::format(
                "Not passed yet. Without a GPU at most {} of the {} points can be earned ({}).",
                format_points(limit->most), format_points(grade.max_points),
                contract::gpu_only_words(*limit)))};
  }
  return {"status-open", "Not passed yet."};
}

}  // namespace

std::string render_header(const contract::LabGrade& grade, std::span<const CheckView> checks,
                          const ReportContext& context) {
  const bool all_passed =
      !checks.empty() && std::all_of(checks.begin(), checks.end(), [](const CheckView& c) {
        // An optional (bonus) check left alone does not stand in the way of "Passed."
        return c.verdict == contract::Verdict::pass ||
               c.verdict == contract::Verdict::not_attempted;
      });
  const auto headline = headline_of(grade, all_passed);
  const double share =
      grade.max_points > 0 ? std::clamp(grade.points / grade.max_points, 0.0, 1.0) : 0.0;
  std::string student;
  if (!context.student.empty()) {
    student = fmt::format(R"(<p class="student">Student: <strong>{}</strong></p>)",
                          html_escape(context.student));
  }
  return fmt::format(
      R"(<div class="header-inner">
<div class="header-lab">
<p class="eyebrow">Grade report &#183; <span class="lab-id">{lab}</span></p>
<h1>{title}</h1>
{student}
</div>
<div class="score-card {status}">
<p class="score">{points} / {max_points} points{bonus}</p>
<div class="meter" aria-hidden="true"><div class="meter-fill" style="width: {width:.1f}%"></div></div>
<p class="score-headline">{headline}</p>
<p class="score-summary">{summary}</p>
</div>
</div>)",
      fmt::arg("lab", html_escape(grade.lab)), fmt::arg("title", html_escape(grade.title)),
      fmt::arg("student", student), fmt::arg("status", headline.status),
      fmt::arg("points", format_points(grade.points)),
      fmt::arg("max_points", format_points(grade.max_points)),
      fmt::arg("bonus", grade.bonus_max_points > 0
                            ? fmt::format(R"(<span class="bonus"> (+{} of {} bonus)</span>)",
                                          format_points(grade.bonus_points),
                                          format_points(grade.bonus_max_points))
                            : std::string()),
      fmt::arg("width", share * 100), fmt::arg("headline", headline.words),
      fmt::arg("summary", verdict_summary(checks)));
}

std::string render_submission_problem(const ReportContext& context) {
  if (context.submission_problem.empty()) return {};
  const auto output = context.submission_output.empty()
                          ? std::string()
                          : fmt::format(R"(<pre class="tool-output">{}</pre>)",
                                        html_escape(context.submission_output));
  return fmt::format(
      R"(<aside class="warning" aria-labelledby="submission-heading">
<h2 id="submission-heading"><span aria-hidden="true">&#9888;</span> {}</h2>
<p>No check could run, so no points were earned. Fix this first; every check then runs.</p>
{}
</aside>)",
      html_escape(context.submission_problem), output);
}

std::string render_problems(const contract::LabGrade& grade) {
  if (grade.problems.empty()) return {};
  std::string items;
  for (const auto& problem : grade.problems) {
    items += fmt::format("<li>{}</li>\n", html_escape(problem));
  }
  return fmt::format(
      R"(<aside class="warning" aria-labelledby="problems-heading">
<h2 id="problems-heading"><span aria-hidden="true">&#9888;</span> Problems with the results</h2>
<p>These results could not be used, so they earned no points. Run the lab's tests again; if a
problem stays, show this report to your instructor.</p>
<ul>
{}</ul>
</aside>)",
      items);
}

// Under the reason of a check that needs attention: the likely mistake, in a few words.
std::string likely_mistake(const CheckView& check) {
  if (!check.record || !check.record->diagnosis || !needs_attention(check.verdict)) return {};
  return fmt::format(R"(<span class="likely">Likely: {}</span>)",
                     html_escape(check.record->diagnosis->summary));
}

std::string render_check_table(const contract::LabGrade& grade, std::span<const CheckView> checks) {
  std::string rows;
  for (const auto& check : checks) {
    rows += fmt::format(
        R"(<tr class="row-{cls}">
<th scope="row"><a href="#{anchor}">{title}</a><span class="check-id">{id}</span></th>
<td>{kind}</td>
<td>{badge}</td>
<td class="num">{points} / {max}</td>
<td class="reason-cell">{reason}</td>
</tr>
)",
        fmt::arg("cls", verdict_css_class(check.verdict)), fmt::arg("anchor", check.anchor),
        fmt::arg("title", html_escape(check.title)), fmt::arg("id", html_escape(check.id)),
        fmt::arg("kind", html_escape(check.kind)), fmt::arg("badge", verdict_badge(check.verdict)),
        fmt::arg("points", format_points(check.points)),
        fmt::arg("max", format_points(check.max_points)),
        fmt::arg("reason", html_escape(check.reason) +
                               implausible_line(check.verdict, check.record, "span") +
                               likely_mistake(check)));
  }
  return fmt::format(
      R"(<div class="table-wrap">
<table class="checks">
<caption>Every check of the lab, in the order of the lab's spec. Select a check for its details.</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Kind</th><th scope="col">Verdict</th><th scope="col" class="num">Points</th><th scope="col">Reason</th></tr></thead>
<tbody>
{rows}</tbody>
<tfoot><tr><th scope="row" colspan="3">Total</th><td class="num">{points} / {max}</td><td></td></tr></tfoot>
</table>
</div>)",
      fmt::arg("rows", rows), fmt::arg("points", format_points(grade.points)),
      fmt::arg("max", format_points(grade.max_points)));
}

}  // namespace reports::detail
