#include "gradebook_css.hpp"

#include <string>

#include "reports/palette.hpp"

namespace exports::detail {

namespace {

// The class page's own rules, after the palette.
constexpr char kGradebookRules[] = R"css(* { box-sizing: border-box; }
html { background: var(--page); }
body {
  margin: 0 auto; max-width: 1120px; padding: 0 24px 48px; color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
}
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.92em; }
a { color: var(--accent); }
a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
h1 { font-size: 2rem; line-height: 1.2; margin: 4px 0 8px; }
h2 { font-size: 1.3rem; margin: 36px 0 12px; }
h3 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.nowrap { white-space: nowrap; }
.page-header { padding: 28px 0 8px; }
.eyebrow { margin: 0; color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; font-size: 0.8rem; }
.lab-id { font-weight: 600; color: var(--text); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; margin: 18px 0 0; }
.card { background: var(--surface); border: 1px solid var(--line); border-left: 6px solid var(--bar); border-radius: 12px; padding: 12px 16px; }
.card-label { margin: 0; color: var(--muted); font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; }
.card-value { margin: 2px 0 0; font-size: 1.7rem; font-weight: 700; line-height: 1.2; font-variant-numeric: tabular-nums; }
.card-note { margin: 0; color: var(--muted); font-size: 0.85rem; }
.card-warn { border-left-color: var(--error-fg); }
.warning { margin: 20px 0 0; padding: 12px 16px; border-radius: 10px; background: var(--warn-bg); color: var(--warn-fg); border: 1px solid #facc15; }
.warning p { margin: 0; }
.backend-note { margin: 12px 0 0; padding: 10px 14px; border-radius: 10px; background: var(--info-bg); color: var(--info-fg); border: 1px solid #a5b4fc; max-width: 90ch; }
.not-measured { color: var(--muted); font-style: italic; }
.row-not-measured .counts { display: block; white-space: normal; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: var(--surface); border: 1px solid var(--line); margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; color: var(--muted); font-size: 0.88rem; padding: 0 0 6px; }
th, td { padding: 7px 10px; text-align: left; vertical-align: middle; border-bottom: 1px solid var(--line); }
thead th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); background: var(--idle-bg); }
tbody th { font-weight: 600; }
.num { text-align: right; white-space: nowrap; }
.check-id { display: block; font-weight: 400; font-size: 0.8rem; color: var(--muted); font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
.student-name { overflow-wrap: anywhere; max-width: 36ch; }
.rate { display: flex; align-items: center; gap: 8px; white-space: nowrap; }
.rate svg { flex: none; }
.counts { font-size: 0.85rem; color: var(--muted); white-space: nowrap; }
.status { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 0.85rem; font-weight: 600; border: 1px solid currentColor; max-width: 28ch; overflow-wrap: anywhere; }
.status-graded { background: var(--pass-bg); color: var(--pass-fg); }
.status-warn { background: var(--warn-bg); color: var(--warn-fg); }
.status-problem { background: var(--error-bg); color: var(--error-fg); }
.status-implausible { background: var(--fail-bg); color: var(--fail-fg); border-width: 2px; }
.implausible { color: var(--fail-fg); font-weight: 600; }
tr.row-problem { background: #fffaf5; }
svg { max-width: 100%; height: auto; font-family: inherit; }
.bar-track { fill: var(--line); }
.bar-fill { fill: var(--bar); }
.bar-full { fill: var(--pass-fg); }
.chart-small { font-size: 11px; fill: var(--muted); }
.chart-axis { font-size: 12px; fill: var(--text); font-weight: 600; }
.chart-value { font-size: 12px; fill: var(--text); font-weight: 600; }
.grid-line { stroke: var(--line); stroke-width: 1; }
.histogram-figure { margin: 8px 0 16px; background: var(--surface); border: 1px solid var(--line); border-radius: 8px; padding: 14px; }
figcaption { color: var(--muted); font-size: 0.85rem; }
.problem { margin: 12px 0; padding: 12px 16px; background: var(--surface); border: 1px solid var(--line); border-left: 5px solid var(--error-fg); border-radius: 10px; }
.problem-head { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.problem ul { margin: 8px 0 0; padding-left: 20px; overflow-wrap: anywhere; }
pre { margin: 10px 0 0; padding: 10px 12px; background: #0f172a; color: #e2e8f0; border-radius: 8px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24em; }
footer { margin-top: 40px; padding-top: 8px; border-top: 2px solid var(--line); font-size: 0.9rem; color: var(--muted); }
@media print {
  html { background: #ffffff; }
  body { max-width: none; padding: 0; }
  table, .problem { break-inside: avoid; }
  pre { background: #f1f5f9; color: var(--text); max-height: none; }
}
)css";

}  // namespace

// The palette of the student report (reports/template/palette.css, embedded in lab_reports) and a
// table look like the report's, so the class page and the reports it links to read as one
// product.
std::string_view gradebook_css() {
  static const std::string css = std::string(reports::palette_css()) + kGradebookRules;
  return css;
}

}  // namespace exports::detail
