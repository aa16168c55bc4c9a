// Per-check details: what each case found, where the wrong elements are, and how to rerun it.
#include <algorithm>

#include <fmt/format.h>

#include "charts.hpp"
#include "diagnosis_view.hpp"
#include "evidence_view.hpp"
#include "format.hpp"
#include "harness/diagnose.hpp"
#include "reports/ceiling.hpp"
#include "reports/html.hpp"
#include "sections.hpp"

namespace reports::detail {
namespace {

std::string wrong_elements(const contract::CaseResult& c) {
  if (c.total <= 0) return fmt::format("{}", format_count(c.mismatches));
  return fmt::format(
      "{} / {} ({})", format_count(c.mismatches), format_count(c.total),
      format_percent(static_cast<double>(c.mismatches) / static_cast<double>(c.total)));
}

// Elements that are NaN have no finite error, so a case whose only errors are NaN records 0.
std::string max_error_text(const contract::CaseResult& c) {
  return c.max_abs_error > 0 ? format_significant(c.max_abs_error) : std::string("&#8212;");
}

std::string tolerance_text(double tolerance) {
  return tolerance > 0 ? format_significant(tolerance) : std::string("exact");
}

// A map with no wrong cell is noise; but any map is shown when its sizes do not add up (then
// error_map_svg explains that), so a broken record is noticed rather than silently dropped.
bool has_error_map_to_show(const contract::CaseResult& c) {
  if (!c.error_map) return false;
  const auto& shares = c.error_map->wrong_fraction;
  const auto cells = static_cast<std::size_t>(std::max(c.error_map->grid_rows, 0)) *
                     static_cast<std::size_t>(std::max(c.error_map->grid_cols, 0));
  return shares.size() != cells ||
         std::any_of(shares.begin(), shares.end(), [](float share) { return share > 0; });
}

bool has_case_details(const contract::CaseResult& c) {
  return !c.first_mismatches.empty() || !c.out_of_bounds.empty() || has_error_map_to_show(c) ||
         c.diagnosis.has_value();
}

std::string cases_table(const std::vector<contract::CaseResult>& cases) {
  std::string rows;
  for (const auto& c : cases) {
    rows += fmt::format(
        R"(<tr><th scope="row"><code>{name}</code></th><td>{badge}</td><td class="num">{wrong}</td><td class="num">{nan}</td><td class="num">{max_error}</td><td class="num">{tolerance}</td><td class="reason-cell">{reason}</td></tr>
)",
        fmt::arg("name", html_escape(c.name)), fmt::arg("badge", verdict_badge(c.verdict)),
        fmt::arg("wrong", wrong_elements(c)), fmt::arg("nan", format_count(c.nan_count)),
        fmt::arg("max_error", max_error_text(c)),
        fmt::arg("tolerance", tolerance_text(c.tolerance)),
        fmt::arg("reason", html_escape(c.reason)));
  }
  return table_html(
      "cases", "Cases (matrix sizes) this check tried",
      R"(<th scope="col">Case</th><th scope="col">Verdict</th><th scope="col" class="num">Wrong elements</th><th scope="col" class="num">NaN</th><th scope="col" class="num">Max abs error</th><th scope="col" class="num">Tolerance</th><th scope="col">Reason</th>)",
      rows);
}

std::string mismatches_table(const contract::CaseResult& c) {
  if (c.first_mismatches.empty()) return {};
  std::string rows;
  for (const auto& m : c.first_mismatches) {
    rows += fmt::format(
        R"(<tr><td class="num">{}</td><td class="num">{}</td><td class="num mono">{}</td><td class="num mono wrong-value">{}</td></tr>
)",
        m.row, m.col, html_escape(m.expected), html_escape(m.got));
  }
  const auto shown = static_cast<long long>(c.first_mismatches.size());
  const std::string caption =
      c.mismatches > shown
          ? fmt::format("The first {} of {} wrong elements", shown, format_count(c.mismatches))
          : fmt::format("All {} wrong elements", shown);
  return fmt::format(
      R"(<table class="mismatches">
<caption>{}</caption>
<thead><tr><th scope="col" class="num">Row</th><th scope="col" class="num">Col</th><th scope="col" class="num">Expected</th><th scope="col" class="num">Got</th></tr></thead>
<tbody>
{}</tbody>
</table>
)",
      caption, rows);
}

std::string out_of_bounds_table(const contract::CaseResult& c) {
  if (c.out_of_bounds.empty()) return {};
  std::string rows;
  for (const auto& w : c.out_of_bounds) {
    rows += fmt::format(
        R"(<tr><td><code>{}</code></td><td class="num">{}</td><td class="num mono">{}</td></tr>
)",
        html_escape(w.buffer), w.offset, html_escape(w.value));
  }
  return fmt::format(
      R"(<table class="out-of-bounds">
<caption>Writes outside the buffers (offset in elements from the buffer's start; negative: before it)</caption>
<thead><tr><th scope="col">Buffer</th><th scope="col" class="num">Offset</th><th scope="col" class="num">Value written</th></tr></thead>
<tbody>
{}</tbody>
</table>
)",
      rows);
}

std::string error_map_figure(const contract::CaseResult& c) {
  if (!has_error_map_to_show(c)) return {};
  const auto& map = *c.error_map;
  return fmt::format(
      R"(<figure class="error-map-figure">
{}
<figcaption>Where the wrong elements are. Each cell covers {} &#215; {} elements; the darker the cell, the larger its share of wrong elements.</figcaption>
</figure>
)",
      error_map_svg(map), format_count(map.cell_rows), format_count(map.cell_cols));
}

// A case's details; `primary` is the check's diagnosis when the report shows it (the case's own
// mistake is then in that box, not repeated here).
std::string case_block(const contract::CaseResult& c,
                       const std::optional<contract::Diagnosis>& primary) {
  std::string reason;
  if (!c.reason.empty()) reason = fmt::format("<p>{}</p>\n", html_escape(c.reason));
  return fmt::format(
      R"(<div class="case">
<h4>Case <code>{name}</code> {badge}</h4>
{reason}{diagnosis}<p class="case-counts">{wrong} elements wrong &#183; {nan} NaN &#183; max abs error {max_error} &#183; tolerance {tolerance}</p>
<div class="case-evidence">
{mismatches}{map}</div>
{oob}</div>
)",
      fmt::arg("name", html_escape(c.name)), fmt::arg("badge", verdict_badge(c.verdict)),
      fmt::arg("reason", reason),
      fmt::arg("diagnosis", c.diagnosis ? diagnosis_line(*c.diagnosis, primary) : std::string()),
      fmt::arg("wrong", wrong_elements(c)), fmt::arg("nan", format_count(c.nan_count)),
      fmt::arg("max_error", max_error_text(c)), fmt::arg("tolerance", tolerance_text(c.tolerance)),
      fmt::arg("mismatches", mismatches_table(c)), fmt::arg("map", error_map_figure(c)),
      fmt::arg("oob", out_of_bounds_table(c)));
}

// Rows for what bounds the figure and what vouches for it, when the record knows them.
std::string ceiling_rows(const contract::Timing& t) {
  std::string rows;
  if (const auto ceiling = ceiling_words(t); !ceiling.empty()) {
    rows += fmt::format(
        R"(<tr><th scope="row">Ceiling of this GPU</th><td>ceiling: {}</td></tr>
)",
        html_escape(ceiling));
  }
  if (const auto verified = verified_words(t); !verified.empty()) {
    rows += fmt::format(R"(<tr><th scope="row">Output checked</th><td>{}</td></tr>
)",
                        html_escape(verified));
  }
  return rows;
}

std::string timing_table(const contract::Timing& t) {
  const std::string unit = html_escape(t.rate_unit);
  return fmt::format(
      R"(<table class="kv timing-detail">
<caption>Timing{size}</caption>
<tbody>
<tr><th scope="row">Your kernel: median time</th><td class="num">{median} ms <span class="muted">(fastest {min} ms, slowest {max} ms)</span></td></tr>
<tr><th scope="row">Your kernel: rate</th><td class="num">{rate} {unit}</td></tr>
<tr><th scope="row">Reference: {ref_name}</th><td class="num">{ref_median} ms, {ref_rate} {unit}</td></tr>
<tr><th scope="row">Ratio (yours / reference)</th><td class="num">{ratio}</td></tr>
<tr><th scope="row">Needed to pass</th><td class="num">{threshold}</td></tr>
<tr><th scope="row">Spread (IQR / median)</th><td class="num">{spread} <span class="muted">(reference {ref_spread})</span></td></tr>
<tr><th scope="row">Repetitions</th><td class="num">{reps}</td></tr>
{ceiling}<tr><th scope="row">GPU health</th><td>{health}</td></tr>
</tbody>
</table>
)",
      fmt::arg("size", t.size.empty() ? std::string()
                                      : fmt::format(" for <code>{}</code>", html_escape(t.size))),
      fmt::arg("median", format_significant(t.median_ms)),
      fmt::arg("min", format_significant(t.min_ms)), fmt::arg("max", format_significant(t.max_ms)),
      fmt::arg("rate", format_significant(t.rate)), fmt::arg("unit", unit),
      fmt::arg("ref_name", t.reference_name.empty() ? "(unnamed)" : html_escape(t.reference_name)),
      fmt::arg("ref_median", format_significant(t.reference_median_ms)),
      fmt::arg("ref_rate", format_significant(t.reference_rate)),
      fmt::arg("ratio", format_ratio(t.ratio)), fmt::arg("threshold", format_ratio(t.threshold)),
      fmt::arg("spread", format_percent(t.spread)),
      fmt::arg("ref_spread", format_percent(t.reference_spread)), fmt::arg("reps", t.repetitions),
      fmt::arg("ceiling", ceiling_rows(t)),
      fmt::arg("health", t.health ? html_escape(t.health->text)
                                  : std::string("GPU health not checked (not recorded)")));
}

std::string facts(const CheckView& check) {
  std::string items = fmt::format(
      R"(<div><dt>Check</dt><dd><code>{}</code></dd></div><div><dt>Kind</dt><dd>{}</dd></div>)",
      html_escape(check.id), html_escape(check.kind));
  if (const auto* r = check.record) {
    items += fmt::format(
        R"(<div><dt>Seed</dt><dd><code>{}</code></dd></div><div><dt>Backend</dt><dd>{}</dd></div><div><dt>Ran for</dt><dd>{} s</dd></div><div><dt>Started</dt><dd>{}</dd></div>)",
        r->seed, text_or_not_recorded(r->backend), format_significant(r->duration_s),
        text_or_not_recorded(r->started_at));
  }
  return fmt::format("<dl class=\"facts\">{}</dl>\n", items);
}

std::string notes_list(const contract::CheckRecord& record) {
  if (record.notes.empty()) return {};
  std::string items;
  for (const auto& note : record.notes) items += fmt::format("<li>{}</li>\n", html_escape(note));
  return fmt::format("<ul class=\"notes\">\n{}</ul>\n", items);
}

std::string reproduce_block(const CheckView& check) {
  if (!check.record || check.record->reproduce.empty() || !needs_attention(check.verdict)) {
    return {};
  }
  return fmt::format(
      R"(<div class="reproduce">
<p>Run this check again on its own, with the same seed:</p>
<pre><code>{}</code></pre>
</div>
)",
      html_escape(check.record->reproduce));
}

std::string check_detail(const CheckView& check, const std::string& handout) {
  std::string body = fmt::format(
      "<p class=\"reason\">{}</p>\n",
      check.reason.empty() ? std::string("No reason given.") : html_escape(check.reason));
  if (const auto line = implausible_line(check.verdict, check.record, "p"); !line.empty()) {
    body += line + '\n';
  }
  std::optional<contract::Diagnosis> primary;
  if (check.record && check.record->diagnosis && needs_attention(check.verdict)) {
    primary = check.record->diagnosis;
    body += diagnosis_box(*primary, check.record->cases, handout);
  }
  body += facts(check);
  if (const auto* r = check.record) {
    body += notes_list(*r);
    body += evidence_block(r->evidence);
    body += reproduce_block(check);
    body += kernel_facts_table(r->kernels);
    if (!r->cases.empty()) body += cases_table(r->cases);
    for (const auto& c : r->cases) {
      if (has_case_details(c)) body += case_block(c, primary);
    }
    if (r->timing) body += timing_table(*r->timing);
    // An implausible figure has no "why this speed": the hardware cannot reach it.
    if (r->timing && check.verdict != contract::Verdict::implausible) {
      body += fmt::format(R"(<p class="speed-reading"><strong>Why this speed:</strong> {}</p>
)",
                          html_escape(harness::speed_reading(*r->timing)));
    }
  }
  return fmt::format(
      R"(<section class="check-detail check-detail-{cls}" id="{anchor}">
<details{open}>
<summary><h3>{title}</h3> {badge} <span class="detail-points">{points} / {max} points</span></summary>
<div class="detail-body">
{body}</div>
</details>
</section>
)",
      fmt::arg("cls", verdict_css_class(check.verdict)), fmt::arg("anchor", check.anchor),
      fmt::arg("open", needs_attention(check.verdict) ? " open" : ""),
      fmt::arg("title", html_escape(check.title)), fmt::arg("badge", verdict_badge(check.verdict)),
      fmt::arg("points", format_points(check.points)),
      fmt::arg("max", format_points(check.max_points)), fmt::arg("body", body));
}

}  // namespace

std::string render_check_details(std::span<const CheckView> checks, const std::string& handout) {
  std::string out;
  for (const auto& check : checks) out += check_detail(check, handout);
  return out;
}

}  // namespace reports::detail
