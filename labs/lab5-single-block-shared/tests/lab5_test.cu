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
#include "harness/matmul.hpp"
#include "harness/observe.hpp"
#include "lab5.h"

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulProblem;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

// The lab's limit in every dimension (see lab5.h).
constexpr int kMaxSize = 32;

bool fits(const MatmulShape& s) {
  return s.m >= 1 && s.k >= 1 && s.n >= 1 && s.m <= kMaxSize && s.k <= kMaxSize && s.n <= kMaxSize;
}

MatmulShape read_shape(const Check& check, const std::vector<int>& entry, const char* key) {
  if (entry.size() != 3) {
    throw harness::SpecError(
        fmt::format("{}: check '{}': '{}': a shape is [a_rows, a_cols, "
                    "b_cols], got {} numbers",
                    check.spec().source, check.spec().id, key, entry.size()));
  }
  const MatmulShape shape{entry[0], entry[1], entry[2]};
  if (!fits(shape)) {
    throw harness::SpecError(fmt::format(
        "{}: check '{}': '{}': every size must be between 1 and {}, got [{}, {}, {}]",
        check.spec().source, check.spec().id, key, kMaxSize, entry[0], entry[1], entry[2]));
  }
  return shape;
}

std::vector<MatmulShape> shapes(const Check& check) {
  const auto entries = check.spec().param<std::vector<std::vector<int>>>("shapes");
  if (entries.empty()) {
    throw harness::SpecError(fmt::format("{}: check '{}': 'shapes' must list at least one shape",
                                         check.spec().source, check.spec().id));
  }
  std::vector<MatmulShape> out;
  for (const auto& entry : entries) out.push_back(read_shape(check, entry, "shapes"));
  return out;
}

std::string call_text(const MatmulShape& s) {
  return fmt::format("matmul_single_block(A, B, C, {}, {}, {})", s.m, s.k, s.n);
}

harness::MatmulLauncher launcher(const MatmulShape& s) {
  const int a_rows = s.m;
  const int a_cols = s.k;
  const int b_cols = s.n;
  return [=](const float* a, const float* b, float* c) {
    matmul_single_block(a, b, c, a_rows, a_cols, b_cols);
  };
}

// Random problems at every shape of the spec: integers compare exactly, reals within the
// harness's tolerance (derived from a_cols).
void check_random_problems(Check& check, Values values, const char* kind) {
  for (const auto& shape : shapes(check)) {
    const auto label = fmt::format("{} {}", kind, shape.label());
    check.run_case(label, [&](CaseResult& result) {
      const auto problem = harness::random_problem(shape, values, check.seed_for(label));
      harness::check_matmul(result, problem, launcher(shape), call_text(shape));
    });
  }
}

// Runs the launcher once, at the spec's "shape", under the launch recorder, and checks that C
// came out right. Returns nothing (with the verdict set) when the launches cannot be judged.
struct ObservedRun {
  MatmulShape shape;
  harness::RecordedActivity activity;
};

std::optional<ObservedRun> observe_correct_run(Check& check) {
  const auto shape = read_shape(check, check.spec().param<std::vector<int>>("shape"), "shape");
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);
  auto a = DeviceBuffer::matrix("A", shape.m, shape.k);
  auto b = DeviceBuffer::matrix("B", shape.k, shape.n);
  auto c = DeviceBuffer::matrix("C", shape.m, shape.n);
  a.upload(problem.a);
  b.upload(problem.b);
  const auto launch = launcher(shape);
  auto activity = harness::observe_launches(check, call_text(shape),
                                            [&] { launch(a.data(), b.data(), c.data()); });
  if (!activity) return std::nullopt;

  CaseResult output;
  harness::expect_matrix(output, expected.c, c, shape.m, shape.n);
  harness::expect_guards_intact(output, c, shape.n);
  if (output.verdict != Verdict::pass) {
    check.set_verdict(Verdict::fail, fmt::format("{} is wrong ({}), so its launch is not graded: "
                                                 "fix correctness first",
                                                 call_text(shape), output.reason));
    return std::nullopt;
  }
  return ObservedRun{shape, std::move(*activity)};
}

}  // namespace

LAB_CHECK(SingleBlock, Integers) { check_random_problems(check, Values::integers, "integers"); }

LAB_CHECK(SingleBlock, Reals) { check_random_problems(check, Values::reals, "reals"); }

// The worked examples of the course that fit in one block (every size at most 32).
LAB_CHECK(SingleBlock, Examples) {
  for (const auto& answer : harness::known_answers()) {
    const auto& shape = answer.problem.shape;
    if (!fits(shape)) continue;
    check.run_case(answer.problem.name, [&](CaseResult& result) {
      harness::run_matmul_case(result, answer.problem, answer.c, {}, launcher(shape),
                               call_text(shape));
    });
  }
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
  } else if (shared < needed) {
    check.set_verdict(Verdict::fail, summary + ": both matrices must be held in shared memory");
  } else {
    check.set_verdict(Verdict::pass, summary);
  }
}
