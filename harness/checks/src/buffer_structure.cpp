// Launch shape, shared memory and bonus attempts of a buffers-in, buffer-out lab: what the
// launches were, judged only for a call whose output is right.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "buffer_case.hpp"
#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/diagnose.hpp"
#include "harness/observe.hpp"
#include "harness/student_call.hpp"

namespace harness {

namespace {}  // namespace

std::optional<ObservedCall> observe_call(Check& check, const BufferLab& lab) {
  const auto size = one_case_size(check.spec(), lab);
  const auto data = draw_case(lab, size, check.seed_for("input"));
  const auto expected = lab.expected(data);  // before recording starts
  CaseBuffers buffers(lab, data);
  const auto call = lab.call_text(size);
  auto activity = observe_launches(check, call, [&] { lab.run(buffers.args()); });
  if (!activity) return std::nullopt;
  CaseResult output;
  expect_call_right(output, lab, buffers, data, expected);
  if (output.verdict != Verdict::pass) {
    check.set_verdict(Verdict::fail, fmt::format("{} is wrong ({}), so its launch shape is not "
                                                 "graded: fix correctness first",
                                                 call, output.reason));
    return std::nullopt;
  }
  ObservedCall observed;
  observed.size = size;
  for (const auto& launch : activity->kernels) observed.threads += launch.threads();
  for (const auto& input : data.inputs) observed.input_elements += input.size();
  observed.output_elements = lab.output().shape(size).count();
  observed.activity = std::move(*activity);
  return observed;
}

void check_one_thread_per_element(Check& check, const BufferLab& lab,
                                  const OneThreadPerElement& options) {
  const auto observed = observe_call(check, lab);
  if (!observed) return;
  const auto& out = lab.output().name;
  const long long elements = observed->output_elements;
  const auto summary =
      fmt::format("{} threads for the {} elements of {}", observed->threads, elements, out);
  if (observed->threads < elements) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("{}: one thread per element needs a grid that covers all of {}", summary, out));
    return;
  }
  if (check.spec().has("max_extra_threads")) {
    const auto extra = check.spec().param<long long>("max_extra_threads");
    if (observed->threads > elements + extra) {
      check.set_verdict(
          Verdict::fail,
          fmt::format("{}: one thread per element of {} needs {} threads, rounded up "
                      "to whole blocks (at most {} more){}{}",
                      summary, out, elements, extra, options.too_many_hint.empty() ? "" : "; ",
                      options.too_many_hint));
      return;
    }
  }
  check.set_verdict(Verdict::pass, summary);
}

void check_elements_per_thread(Check& check, const BufferLab& lab,
                               const ElementsPerThread& options) {
  const auto observed = observe_call(check, lab);
  if (!observed) return;
  const double needed = check.spec().positive("min_elements_per_thread");
  const long long elements =
      options.count_input ? observed->input_elements : observed->output_elements;
  const double per_thread =
      static_cast<double>(elements) / static_cast<double>(std::max(1LL, observed->threads));
  const auto summary = fmt::format(
      "{} threads for {} elements of {}: {:.2f} elements per thread", observed->threads, elements,
      options.count_input ? lab.inputs().front().name : lab.output().name, per_thread);
  if (per_thread >= needed) {
    check.set_verdict(Verdict::pass, summary);
    return;
  }
  check.set_verdict(Verdict::fail, fmt::format("{}; needs {} or more{}{}", summary, needed,
                                               options.hint.empty() ? "" : ": ", options.hint));
  if (!options.diagnosis.empty()) {
    check.diagnose(make_diagnosis(options.diagnosis,
                                  fmt::format("{:.2f} elements per thread recorded", per_thread)));
  }
}

void check_uses_shared_memory(Check& check, const BufferLab& lab, const UsesSharedMemory& options) {
  const auto observed = observe_call(check, lab);
  if (!observed) return;
  const auto min_bytes = check.spec().param_or_default<long long>("min_shared_bytes");
  judge_shared_memory_use(check, observed->activity, options.advice, min_bytes);
}

bool bonus_attempted(Check& check, const BufferLab& lab, bool defined) {
  if (!defined) {
    check.set_verdict(
        Verdict::not_attempted,
        fmt::format("{} is not defined (no bonus.cu): the bonus is optional", lab.name()));
    return false;
  }
  const CaseSize size{64, 64, !lab.sized_by_n()};
  const auto data = draw_case(lab, size, check.seed_for("attempted"));
  CaseBuffers buffers(lab, data);
  lab.run(buffers.args());
  synchronize_after(lab.call_text(size));
  const auto written = buffers.output().download();
  if (std::all_of(written.begin(), written.end(), [](float v) { return std::isnan(v); })) {
    check.set_verdict(
        Verdict::not_attempted,
        fmt::format("{} writes nothing (the starter's stub): the bonus is optional", lab.name()));
    return false;
  }
  return true;
}

}  // namespace harness
