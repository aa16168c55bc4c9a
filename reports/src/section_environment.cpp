// The footer: the GPU the checks ran on, seeds, and where the report came from.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "format.hpp"
#include "reports/html.hpp"
#include "sections.hpp"

namespace reports::detail {
namespace {

std::string fact(std::string_view term, const std::string& value_html) {
  return fmt::format("<div><dt>{}</dt><dd>{}</dd></div>\n", term, value_html);
}

std::string code_or_not_recorded(std::string_view text) {
  return text.empty() ? text_or_not_recorded(text)
                      : fmt::format("<code>{}</code>", html_escape(text));
}

// The first record with a device: every check of one run sees the same GPU.
const contract::DeviceInfo* first_device(std::span<const CheckView> checks) {
  for (const auto& check : checks) {
    if (check.record && check.record->device) return &*check.record->device;
  }
  return nullptr;
}

// Backends in order of first appearance: usually one ("cuda"), but say so if they differ.
std::string backends(std::span<const CheckView> checks) {
  std::vector<std::string> seen;
  for (const auto& check : checks) {
    if (check.record && !check.record->backend.empty() &&
        std::find(seen.begin(), seen.end(), check.record->backend) == seen.end()) {
      seen.push_back(check.record->backend);
    }
  }
  std::string text;
  for (const auto& backend : seen) text += (text.empty() ? "" : ", ") + html_escape(backend);
  return text.empty() ? text_or_not_recorded("") : text;
}

std::string seeds_table(std::span<const CheckView> checks) {
  std::string rows;
  for (const auto& check : checks) {
    if (!check.record) continue;
    rows += fmt::format(
        R"(<tr><th scope="row"><code>{}</code></th><td class="num"><code>{}</code></td><td>{}</td></tr>
)",
        html_escape(check.id), check.record->seed, text_or_not_recorded(check.record->started_at));
  }
  if (rows.empty()) return {};
  return fmt::format(
      R"(<table class="seeds">
<caption>Seeds: the random inputs of each check, to reproduce a run exactly</caption>
<thead><tr><th scope="col">Check</th><th scope="col" class="num">Seed</th><th scope="col">Started</th></tr></thead>
<tbody>
{}</tbody>
</table>
)",
      rows);
}

}  // namespace

std::string render_environment(std::span<const CheckView> checks, const ReportContext& context) {
  std::string facts;
  if (const auto* device = first_device(checks)) {
    facts += fact("GPU", text_or_not_recorded(device->name));
    facts += fact("Compute capability", text_or_not_recorded(device->compute_capability));
    facts += fact("SMs", device->sm_count > 0 ? fmt::format("{}", device->sm_count)
                                              : text_or_not_recorded(""));
    if (device->memory_gib > 0) {
      facts += fact("Memory", fmt::format("{} GiB", format_significant(device->memory_gib)));
    }
    facts += fact("Driver", text_or_not_recorded(device->driver_version));
    facts += fact("CUDA runtime", text_or_not_recorded(device->runtime_version));
  } else {
    facts += fact("GPU", R"(<span class="muted">not recorded (no check reported a device)</span>)");
  }
  facts += fact("Backend", backends(checks));
  facts += fact("Generated", text_or_not_recorded(context.generated_at));
  facts += fact("Kernel source", code_or_not_recorded(context.kernel_source));
  facts += fact("Handout", code_or_not_recorded(context.handout));
  return fmt::format(
      R"(<h2 id="environment-heading">Environment</h2>
<dl class="environment-facts">
{}</dl>
{}<p class="muted">This report is a single file: it runs no scripts and loads nothing from the network.</p>)",
      facts, seeds_table(checks));
}

}  // namespace reports::detail
