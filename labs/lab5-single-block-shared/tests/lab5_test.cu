// Lab 5's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points
// and shapes. A shape is [a_rows, a_cols, b_cols]: C (a_rows x b_cols) = A (a_rows x a_cols) *
// B (a_cols x b_cols), which is the harness's MatmulShape {m, k, n}.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/diagnose.hpp"
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "harness/matmul_spec.hpp"
#include "harness/observe.hpp"
#include "lab5.h"

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

// The lab's limit in every dimension (see lab5.h).
constexpr int kMaxSize = 32;

bool fits(const MatmulShape& s) {
  return s.m >= 1 && s.k >= 1 && s.n >= 1 && s.m <= kMaxSize && s.k <= kMaxSize && s.n <= kMaxSize;
}

const harness::LabMatmul kSingleBlock =
    harness::shaped_matmul("matmul_single_block", matmul_single_block);

// Random problems at every shape of the spec: integers compare exactly, reals within the
// harness's tolerance (derived from a_cols).
void check_random_problems(Check& check, Values values) {
  const auto shapes = harness::matmul_shapes(check.spec(), kMaxSize);
  harness::check_products(check, kSingleBlock, shapes, {values});
}

// Runs the launcher once, at the spec's "shape", under the launch recorder, and checks that C
// came out right. Returns nothing (with the verdict set) when the launches cannot be judged.
struct ObservedRun {
  MatmulShape shape;
  harness::RecordedActivity activity;
};

std::optional<ObservedRun> observe_correct_run(Check& check) {
  const auto shape = harness::matmul_shape(check.spec(), kMaxSize);
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);
  auto a = DeviceBuffer::matrix("A", shape.m, shape.k);
  auto b = DeviceBuffer::matrix("B", shape.k, shape.n);
  auto c = DeviceBuffer::matrix("C", shape.m, shape.n);
  a.upload(problem.a);
  b.upload(problem.b);
  const auto launch = kSingleBlock.bind(shape);
  const auto call = kSingleBlock.call(shape);
  auto activity =
      harness::observe_launches(check, call, [&] { launch(a.data(), b.data(), c.data()); });
  if (!activity) return std::nullopt;

  CaseResult output;
  harness::expect_matrix(output, expected.c, c, shape.m, shape.n);
  harness::expect_guards_intact(output, c, shape.n);
  if (output.verdict != Verdict::pass) {
    check.set_verdict(Verdict::fail, fmt::format("{} is wrong ({}), so its launch is not graded: "
                                                 "fix correctness first",
                                                 call, output.reason));
    return std::nullopt;
  }
  return ObservedRun{shape, std::move(*activity)};
}

}  // namespace

LAB_CHECK(SingleBlock, Integers) { check_random_problems(check, Values::integers); }

LAB_CHECK(SingleBlock, Reals) { check_random_problems(check, Values::reals); }

// The worked examples of the course that fit in one block (every size at most 32).
LAB_CHECK(SingleBlock, Examples) {
  std::vector<harness::KnownAnswer> small;
  for (auto& answer : harness::known_answers()) {
    if (fits(answer.problem.shape)) small.push_back(std::move(answer));
  }
  harness::check_known_answers(check, kSingleBlock, small, /*note_sources=*/false);
}

LAB_CHECK(SingleBlock, OneBlock) {
  const auto run = observe_correct_run(check);
  if (!run) return;
  long long blocks = 0;
  for (const auto& launch : run->activity.kernels) blocks += launch.blocks();
  const auto launches = run->activity.kernels.size();
  if (launches == 1 && blocks == 1) {
    check.set_verdict(Verdict::pass,
                      fmt::format("one launch of one block: {}",
                                  harness::describe_launch(run->activity.kernels.front())));
  } else {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} kernel launch(es) with {} blocks in all: this lab computes "
                                  "all of C in a single block (a grid of dim3(1, 1)), so that "
                                  "every thread shares one copy of A and B",
                                  launches, blocks));
    check.diagnose(harness::make_diagnosis(
        "many_blocks", fmt::format("{} blocks recorded where one is asked for", blocks)));
  }
}

LAB_CHECK(SingleBlock, SharedMemory) {
  const auto run = observe_correct_run(check);
  if (!run) return;
  const auto& s = run->shape;
  const long long needed = 4LL * (1LL * s.m * s.k + 1LL * s.k * s.n);
  long long shared = 0;  // per block, the largest of any launch
  for (const auto& launch : run->activity.kernels) {
    shared = std::max(shared, launch.static_shared_bytes + launch.dynamic_shared_bytes);
  }
  const auto summary =
      fmt::format("{} bytes of shared memory per block; all of A and B at {} take {} bytes", shared,
                  s.label(), needed);
  if (shared == 0) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the kernel uses no shared memory: copy A and B into __shared__ "
                                  "arrays and compute from those ({} bytes needed at {})",
                                  needed, s.label()));
    check.diagnose(harness::make_diagnosis(
        "no_shared_memory", "the recorded launch(es) show 0 bytes of shared memory"));
  } else if (shared < needed) {
    check.set_verdict(Verdict::fail, summary + ": both matrices must be held in shared memory");
  } else {
    check.set_verdict(Verdict::pass, summary);
  }
}
