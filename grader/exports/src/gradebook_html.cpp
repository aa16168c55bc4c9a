#include "exports/gradebook_html.hpp"

#include <fmt/format.h>

#include "class_charts.hpp"
#include "class_page.hpp"
#include "exports/stats.hpp"
#include "exports/text.hpp"
#include "reports/html.hpp"

namespace exports {
namespace {

using reports::html_escape;

// Escaped one-line text (names, statuses) and escaped multi-line text (messages).
std::string line(std::string_view text) { return detail::html_line(text); }
std::string block(std::string_view text, std::size_t max_bytes) {
  return html_escape(text::truncate(text::clean(text), max_bytes));
}

std::string percent(double share) { return fmt::format("{:.0f}%", share * 100); }

std::string status_class(const StudentOutcome& outcome) {
  if (!outcome.grade || outcome.status != kGradedStatus) return "status-problem";
  return outcome.grade->problems.empty() ? "status-graded" : "status-warn";
}

std::string status_badge(const StudentOutcome& outcome) {
  const std::string words = outcome.status.empty() ? "no status" : line(outcome.status);
  return fmt::format(R"(<span class="status {}">{}</span>)", status_class(outcome), words);
}

// Beside the status: a speed beyond the GPU's ceiling earned nothing, and the kernel needs a look
// (it skipped work the lab program could not see); empty for everyone else.
std::string implausible_flag(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  const std::size_t checks = implausible_checks(spec, outcome);
  if (checks == 0) return {};
  return fmt::format(R"( <span class="status status-implausible">{}{}</span>)", kImplausibleSpeed,
                     checks > 1 ? fmt::format(" ({} checks)", checks) : std::string());
}

std::string card(std::string_view label, std::string_view value, std::string_view note,
                 bool warn = false) {
  return fmt::format(
      R"(<div class="card{}"><p class="card-label">{}</p><p class="card-value">{}</p><p class="card-note">{}</p></div>)",
      warn ? " card-warn" : "", label, value, note);
}

// Under the CPU emulation: at the top, before any figure, that the class was graded on the CPU
// and what that leaves out, so a score of 70 / 100 is not read as a shortfall.
std::string emulation_note(const contract::LabSpec& spec) {
  const double speed = spec.speed_points();
  const std::string speed_words =
      speed > 0 ? fmt::format(
                      "the speed checks ({} of the {} points) read &#8220;{}&#8221; and earned "
                      "nothing, so the most a submission could earn here is {}",
                      contract::format_points(speed), contract::format_points(spec.total_points()),
                      kNotMeasured, contract::format_points(spec.total_points() - speed))
                : std::string("this lab has no speed points, so nothing was left out");
  return fmt::format(
      R"(<p class="backend-note" role="note"><strong>Graded on the CPU (the CPU emulation), not on a GPU.</strong> )"
      R"(Correctness and structure checks ran for real; speed was not measured: {}. Grade on a GPU to measure speed.</p>)"
      "\n",
      speed_words);
}

std::string render_header(const contract::LabSpec& spec, const ClassSummary& summary,
                          std::size_t problems, const std::string& generated_at, bool emulated) {
  const auto share = [&](double points) {
    return summary.max_points > 0 ? percent(points / summary.max_points) : "n/a";
  };
  std::string out =
      fmt::format(R"(<p class="eyebrow">Class gradebook &#183; <span class="lab-id">{}</span></p>)"
                  "\n<h1>{}</h1>\n"
                  R"(<p class="muted">{} checks worth {} points &#183; generated {}</p>)"
                  "\n<div class=\"cards\">\n",
                  line(spec.lab), line(spec.title), spec.checks.size(),
                  contract::format_points(summary.max_points), line(generated_at));
  if (emulated) out.insert(out.find("<div class=\"cards\">"), emulation_note(spec));
  const std::string best =
      emulated && spec.speed_points() > 0
          ? fmt::format("{} with the most a run without a GPU can earn", summary.most_without_gpu)
          : fmt::format("{} with full marks", summary.full_marks);
  out += card("Students", fmt::format("{}", summary.students),
              fmt::format("{} graded &#183; {}", summary.graded, best));
  out += card(
      "Mean score",
      fmt::format(R"({}<span class="muted"> / {}</span>)", contract::format_points(summary.mean),
                  contract::format_points(summary.max_points)),
      fmt::format("{} of the points; ungraded count 0", share(summary.mean)));
  out += card(
      "Median score",
      fmt::format(R"({}<span class="muted"> / {}</span>)", contract::format_points(summary.median),
                  contract::format_points(summary.max_points)),
      fmt::format("{} of the points", share(summary.median)));
  out += card(
      "Problems", fmt::format("{}", problems),
      problems == 0 ? "every submission was graded" : R"(<a href="#problems">listed below</a>)",
      problems > 0);
  out += "</div>\n";
  return out;
}

std::string render_checks(std::span<const CheckStats> stats, std::size_t students) {
  std::string rows;
  for (const auto& s : stats) {
    // A check nobody could be measured on (speed under the CPU emulation): "not measured", not a
    // pass rate of 0% and a mean of 0 that read as a class that failed it.
    if (s.not_measured > 0 && s.passed == 0 && s.failed == 0 && s.implausible == 0) {
      rows += fmt::format(
          "<tr class=\"row-not-measured\"><th scope=\"row\">{}<span "
          "class=\"check-id\">{}</span></th>"
          "<td class=\"num\">{}</td>"
          "<td><span class=\"not-measured\">{}</span><span class=\"counts\">{} of {} students "
          "(speed is measured on a GPU only){}{}</span></td>"
          "<td class=\"num not-measured\">{}</td></tr>\n",
          line(s.check->title), line(s.check->id), contract::format_points(s.check->points),
          kNotMeasured, s.not_measured, students,
          s.other ? fmt::format(" &#183; {} other", s.other) : std::string(),
          s.not_run ? fmt::format(" &#183; {} not run", s.not_run) : std::string(), kNotMeasured);
      continue;
    }
    std::string counts = fmt::format("{} passed", s.passed);
    if (s.failed) counts += fmt::format(" &#183; {} failed", s.failed);
    if (s.implausible) {
      counts += fmt::format(R"( &#183; <span class="implausible">{} {}</span>)", s.implausible,
                            kImplausibleSpeed);
    }
    if (s.other) counts += fmt::format(" &#183; {} other", s.other);
    if (s.not_measured) counts += fmt::format(" &#183; {} {}", s.not_measured, kNotMeasured);
    if (s.not_run) counts += fmt::format(" &#183; {} not run", s.not_run);
    rows += fmt::format(
        "<tr><th scope=\"row\">{}<span class=\"check-id\">{}</span></th>"
        "<td class=\"num\">{}</td>"
        "<td><div class=\"rate\">{}<span>{}</span></div><span class=\"counts\">{}</span></td>"
        "<td class=\"num\">{}</td></tr>\n",
        line(s.check->title), line(s.check->id), contract::format_points(s.check->points),
        detail::share_bar_svg(s.pass_rate(),
                              fmt::format("{} of students passed", percent(s.pass_rate()))),
        students > 0 ? percent(s.pass_rate()) : "n/a", counts,
        contract::format_points(s.mean_points));
  }
  return fmt::format(
      "<div class=\"table-wrap\"><table class=\"checks\">\n"
      "<caption>Pass rates over all {} students (a student who could not be graded passed "
      "nothing).</caption>\n"
      "<thead><tr><th scope=\"col\">Check</th><th scope=\"col\" class=\"num\">Points</th>"
      "<th scope=\"col\">Passed</th><th scope=\"col\" class=\"num\">Mean points</th></tr></thead>\n"
      "<tbody>\n{}</tbody></table></div>\n",
      students, rows);
}

std::string render_histogram(const contract::LabSpec& spec,
                             const std::vector<StudentOutcome>& outcomes) {
  std::vector<double> scores;
  for (const auto& outcome : outcomes) scores.push_back(total_points(spec, outcome));
  const auto bins = score_histogram(scores, spec.total_points());
  return fmt::format(
      "<figure class=\"histogram-figure\">{}\n<figcaption>Students per tenth of the lab's {} "
      "points; the last band includes full marks.</figcaption></figure>\n",
      detail::histogram_svg(bins, outcomes.size()), contract::format_points(spec.total_points()));
}

std::string report_link(const StudentOutcome& outcome) {
  if (outcome.report_path.empty()) return R"(<span class="muted">none</span>)";
  const auto href = text::safe_href(outcome.report_path);
  if (!href) return R"(<span class="muted">unsafe path</span>)";
  return fmt::format(R"(<a href="{}">report</a>)", html_escape(*href));
}

std::string render_students(const contract::LabSpec& spec,
                            const std::vector<StudentOutcome>& outcomes) {
  const double max = spec.total_points();
  std::string rows;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& o = outcomes[i];
    const double score = total_points(spec, o);
    std::size_t passed = 0;
    std::size_t not_measured = 0;
    for (const auto& check : spec.checks) {
      const auto verdict = check_verdict(o, check.id);
      if (verdict == contract::Verdict::pass) ++passed;
      if (verdict == contract::Verdict::not_measured) ++not_measured;
    }
    const std::string unmeasured = not_measured > 0
                                       ? fmt::format(R"(<span class="counts"> &#183; {} {}</span>)",
                                                     not_measured, kNotMeasured)
                                       : std::string();
    const std::string name = o.student.empty() ? "(no name)" : line(o.student);
    rows += fmt::format(
        "<tr{}><td class=\"num muted\">{}</td><th scope=\"row\" class=\"student-name\">{}</th>"
        "<td class=\"num\">{} / {}</td><td>{}</td><td class=\"num\">{} / {}{}</td><td>{}{}</td>"
        "<td>{}</td></tr>\n",
        has_problems(o) ? R"( class="row-problem")" : "", i + 1, name,
        contract::format_points(score), contract::format_points(max),
        detail::share_bar_svg(
            max > 0 ? score / max : 0,
            fmt::format("{} of the points", max > 0 ? percent(score / max) : "n/a"), 90),
        o.grade ? passed : 0, spec.checks.size(), unmeasured, status_badge(o),
        implausible_flag(spec, o), report_link(o));
  }
  return fmt::format(
      "<div class=\"table-wrap\"><table class=\"students\">\n"
      "<thead><tr><th scope=\"col\" class=\"num\">#</th><th scope=\"col\">Student</th>"
      "<th scope=\"col\" class=\"num\">Score</th><th scope=\"col\"><span class=\"nowrap\">Share of "
      "points</span></th><th scope=\"col\" class=\"num\">Checks passed</th>"
      "<th scope=\"col\">Status</th><th scope=\"col\">Report</th></tr></thead>\n"
      "<tbody>\n{}</tbody></table></div>\n",
      rows);
}

// Compiler messages can be long; the page shows the start and the student's report the rest.
constexpr std::size_t kMaxMessageBytes = 4000;

std::string render_problems(const std::vector<StudentOutcome>& outcomes) {
  std::string out;
  for (const auto& o : outcomes) {
    if (!has_problems(o)) continue;
    out +=
        fmt::format("<article class=\"problem\"><div class=\"problem-head\"><h3>{}</h3>{}</div>\n",
                    o.student.empty() ? "(no name)" : line(o.student), status_badge(o));
    if (!o.grade) out += "<p class=\"muted\">Nothing could be run: every check scores 0.</p>\n";
    if (o.grade && !o.grade->problems.empty()) {
      out += "<ul>\n";
      for (const auto& problem : o.grade->problems) out += "<li>" + line(problem) + "</li>\n";
      out += "</ul>\n";
    }
    if (!o.message.empty()) out += "<pre>" + block(o.message, kMaxMessageBytes) + "</pre>\n";
    out += "</article>\n";
  }
  return out;
}

}  // namespace

std::string gradebook_html(const contract::LabSpec& spec,
                           const std::vector<StudentOutcome>& outcomes,
                           const std::string& generated_at) {
  const auto summary = summarize(spec, outcomes);
  const auto stats = check_stats(spec, outcomes);
  std::size_t problems = 0;
  for (const auto& o : outcomes) problems += has_problems(o) ? 1 : 0;

  std::string page = detail::class_page_head(fmt::format("Gradebook: {} {}", spec.lab, spec.title));
  page += "<header class=\"page-header\">\n" +
          render_header(spec, summary, problems, generated_at, graded_under_emulation(outcomes)) +
          "</header>\n<main>\n";
  page += "<section aria-labelledby=\"checks-heading\">\n<h2 id=\"checks-heading\">Checks</h2>\n" +
          render_checks(stats, outcomes.size()) + "</section>\n";
  page += "<section aria-labelledby=\"scores-heading\">\n<h2 id=\"scores-heading\">Scores</h2>\n" +
          render_histogram(spec, outcomes) + "</section>\n";
  page +=
      "<section aria-labelledby=\"students-heading\">\n<h2 "
      "id=\"students-heading\">Students</h2>\n" +
      render_students(spec, outcomes) + "</section>\n";
  page +=
      "<section id=\"problems\" aria-labelledby=\"problems-heading\">\n<h2 "
      "id=\"problems-heading\">Problems</h2>\n";
  page += problems == 0 ? "<p class=\"muted\">None: every submission was graded.</p>\n"
                        : render_problems(outcomes);
  page +=
      "</section>\n" + detail::class_page_foot(generated_at, "Scores come from the lab's spec.");
  return page;
}

}  // namespace exports
