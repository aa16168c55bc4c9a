// The speed overview: every speed check's rate against its reference, as a chart and a table.
#include <vector>

#include <fmt/format.h>

#include "charts.hpp"
#include "evidence_view.hpp"
#include "format.hpp"
#include "harness/diagnose.hpp"
#include "perf_charts.hpp"
#include "reports/ceiling.hpp"
#include "reports/html.hpp"
#include "sections.hpp"

namespace reports::detail {
namespace {

const contract::Timing* timing_of(const CheckView& check) {
  return check.record && check.record->timing ? &*check.record->timing : nullptr;
}

// A speed check whose figure can be read as a speed: timed, and not beyond the hardware (an
// implausible figure would only stretch the roofline and earn a "why this speed").
const contract::Timing* credible_timing_of(const CheckView& check) {
  if (check.kind != "speed" || check.verdict == contract::Verdict::implausible) return nullptr;
  return timing_of(check);
}

std::string timing_row(const CheckView& check) {
  const auto* t = timing_of(check);
  const std::string check_cell = fmt::format(
      R"(<th scope="row"><a href="#{}">{}</a>{}</th>)", check.anchor, html_escape(check.title),
      t && !t->size.empty()
          ? fmt::format(R"(<span class="check-id">{}</span>)", html_escape(t->size))
          : std::string());
  if (!t) {
    return fmt::format(
        R"(<tr class="row-{}">{}<td colspan="7" class="muted">nothing measured</td><td>{}</td></tr>
)",
        verdict_css_class(check.verdict), check_cell, verdict_badge(check.verdict));
  }
  const std::string unit = html_escape(t->rate_unit);
  const auto ceiling = ceiling_words(*t);
  return fmt::format(
      R"(<tr class="row-{cls}">{check}<td class="num">{median}</td><td class="num">{rate} {unit}{ceiling}</td><td>{ref_name}<span class="subtext">{ref_rate} {unit}</span></td><td class="num">{ratio}</td><td class="num">{threshold}</td><td class="num">{spread}</td><td class="num">{reps}</td><td>{badge}</td></tr>
)",
      fmt::arg("cls", verdict_css_class(check.verdict)), fmt::arg("check", check_cell),
      fmt::arg("ceiling", ceiling.empty()
                              ? std::string()
                              : fmt::format(R"(<span class="subtext">ceiling: {}</span>)",
                                            html_escape(ceiling))),
      fmt::arg("median", format_significant(t->median_ms)),
      fmt::arg("rate", format_significant(t->rate)), fmt::arg("unit", unit),
      fmt::arg("ref_name", html_escape(t->reference_name)),
      fmt::arg("ref_rate", format_significant(t->reference_rate)),
      fmt::arg("ratio", format_ratio(t->ratio)), fmt::arg("threshold", format_ratio(t->threshold)),
      fmt::arg("spread", format_percent(t->spread)), fmt::arg("reps", t->repetitions),
      fmt::arg("badge", verdict_badge(check.verdict)));
}

// Nothing was timed (the CPU emulation, or no GPU): a chart would be all "nothing measured", so
// the section says why in words and lists the speed checks, each title whole.
std::string untimed_section(std::span<const CheckView> checks, bool emulated) {
  std::string rows;
  double points = 0;
  for (const auto& check : checks) {
    if (check.kind != "speed") continue;
    points += check.max_points;
    rows += fmt::format(
        R"(<tr><th scope="row"><a href="#{}">{}</a></th><td class="num">{}</td><td>{}</td><td class="reason-cell">{}</td></tr>
)",
        check.anchor, html_escape(check.title), format_points(check.max_points),
        verdict_badge(check.verdict), html_escape(check.reason));
  }
  const std::string why =
      emulated
          ? fmt::format(
                "Speed was not measured: the checks ran under the CPU emulation, where the kernels "
                "run on the CPU and their times say nothing about a GPU. The speed checks below "
                "({} points) earn their points only when the lab is graded on a GPU.",
                format_points(points))
          : std::string(
                "Speed was not measured in this run: no speed check was timed (each check's "
                "reason says why), so the speed checks below earned nothing.");
  return fmt::format(
      R"(<section aria-labelledby="speed-heading">
<h2 id="speed-heading">Speed</h2>
<p class="hint speed-not-measured">{why}</p>
<div class="table-wrap">
<table class="untimed">
<caption>The lab's speed checks</caption>
<thead><tr><th scope="col">Check</th><th scope="col" class="num">Points</th><th scope="col">Verdict</th><th scope="col">Reason</th></tr></thead>
<tbody>
{rows}</tbody>
</table>
</div>
{evidence}</section>)",
      fmt::arg("why", html_escape(why)), fmt::arg("rows", rows),
      fmt::arg("evidence", speed_evidence_block(checks)));
}

// The roofline: every speed check whose record has the work and the roofs of its run.
std::string roofline_figure(std::span<const CheckView> checks) {
  std::vector<RooflineEntry> roofline;
  for (const auto& check : checks) {
    if (const auto* t = credible_timing_of(check)) roofline.push_back({check.title, t});
  }
  const auto svg = roofline_svg(roofline);
  if (svg.empty()) return {};
  return fmt::format(
      R"(<figure class="speed-figure roofline-figure">
{}
<figcaption>Where each kernel sits under the roofline: no kernel can be faster than the memory
bandwidth times its arithmetic intensity (the slanted roof) or than cuBLAS (the flat roof), both
measured in this run on this GPU.</figcaption>
</figure>
)",
      svg);
}

// Times side by side: the kernels timed against the same reference at the same size (lab 3's
// row, column and element kernels), with the reference's time among them. The first such group.
std::string times_figure(std::span<const CheckView> checks) {
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const auto* first = checks[i].kind == "speed" ? timing_of(checks[i]) : nullptr;
    if (!first) continue;
    std::vector<TimeBar> times{{checks[i].title, first->median_ms, false}};
    for (std::size_t j = i + 1; j < checks.size(); ++j) {
      const auto* other = checks[j].kind == "speed" ? timing_of(checks[j]) : nullptr;
      if (other && other->size == first->size && other->reference_name == first->reference_name) {
        times.push_back({checks[j].title, other->median_ms, false});
      }
    }
    if (times.size() < 2) continue;
    times.push_back({first->reference_name, first->reference_median_ms, true});
    const auto caption =
        fmt::format("Median times at {} (one bar per kernel, the reference last)", first->size);
    return fmt::format(R"(<figure class="speed-figure times-figure">
{}
<figcaption>{}</figcaption>
</figure>
)",
                       times_svg(times, caption), html_escape(caption));
  }
  return {};
}

// Why each kernel is as fast as it is, in one sentence.
std::string speed_readings(std::span<const CheckView> checks) {
  std::string readings;
  for (const auto& check : checks) {
    const auto* t = credible_timing_of(check);
    if (!t) continue;
    readings += fmt::format("<li><strong>{}</strong>: {}</li>\n", html_escape(check.title),
                            html_escape(harness::speed_reading(*t)));
  }
  if (readings.empty()) return {};
  return "<ul class=\"speed-readings\">\n" + readings + "</ul>\n";
}

}  // namespace

std::string render_speed_section(std::span<const CheckView> checks, bool emulated) {
  std::vector<SpeedBar> bars;
  std::string rows;
  bool timed = false;
  for (const auto& check : checks) {
    if (check.kind != "speed") continue;
    bars.push_back({check.title, check.verdict, timing_of(check)});
    rows += timing_row(check);
    timed = timed || timing_of(check) != nullptr;
  }
  if (bars.empty()) return {};
  if (!timed) return untimed_section(checks, emulated);

  return fmt::format(
      R"(<section aria-labelledby="speed-heading">
<h2 id="speed-heading">Speed</h2>
<p class="hint">Your kernel and a reference kernel were timed on the same GPU in the same run. A
speed check passes when your rate is at least the marked share of the reference's rate.</p>
<figure class="speed-figure">
{chart}
</figure>
{readings}{evidence}{roofline}{side_by_side}
<div class="table-wrap">
<table class="timing">
<caption>Timing of every speed check (median over the repetitions; spread is the interquartile range over the median)</caption>
<thead><tr><th scope="col">Check and size</th><th scope="col" class="num">Median ms</th><th scope="col" class="num">Rate</th><th scope="col">Reference and its rate</th><th scope="col" class="num">Ratio</th><th scope="col" class="num">Needed</th><th scope="col" class="num">Spread</th><th scope="col" class="num">Reps</th><th scope="col">Verdict</th></tr></thead>
<tbody>
{rows}</tbody>
</table>
</div>
</section>)",
      fmt::arg("chart", speed_chart_svg(bars)), fmt::arg("rows", rows),
      fmt::arg("readings", speed_readings(checks)),
      fmt::arg("evidence", speed_evidence_block(checks)),
      fmt::arg("roofline", roofline_figure(checks)),
      fmt::arg("side_by_side", times_figure(checks)));
}

}  // namespace reports::detail
