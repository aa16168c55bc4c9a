// Lab 8's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// shapes and thresholds. Shapes are written [m, k, n]: C (m x n) = A (m x k) * B (k x n).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/diagnose.hpp"
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "harness/matmul_spec.hpp"
#include "harness/sass.hpp"
#include "harness/student_call.hpp"
#include "lab8.h"

namespace {

using harness::Check;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

constexpr int kMaxSize = std::numeric_limits<int>::max();

const harness::LabMatmul kSgemm = harness::shaped_matmul("sgemm", sgemm);

void check_products(Check& check, const std::vector<Values>& kinds) {
  harness::check_products(check, kSgemm, harness::matmul_shapes(check.spec(), kMaxSize), kinds);
}

// Share of cuBLAS FP32 (pedantic math: no TF32) at one shape, measured in the spec's rounds; the
// points scale with the share (full_points_at_ratio). The product is compared exactly with
// cuBLAS's before timing and after the timed runs.
void check_share(Check& check) {
  const MatmulShape shape = harness::matmul_shape(check.spec(), kMaxSize);
  harness::check_matmul_speed(check, kSgemm, shape, harness::SpeedReference::cublas,
                              harness::WrongProductReasons::of_shape(shape));
}

// cuobjdump from the CUDA toolkit, if this machine has it.
std::string find_cuobjdump() {
  std::vector<std::filesystem::path> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* value = std::getenv(var)) dirs.push_back(std::filesystem::path(value) / "bin");
  }
  dirs.push_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH")) {
    std::string rest = path;
    for (std::size_t colon; (colon = rest.find(':')) != std::string::npos;
         rest = rest.substr(colon + 1)) {
      dirs.push_back(rest.substr(0, colon));
    }
    dirs.push_back(rest);
  }
  for (const auto& dir : dirs) {
    std::error_code error;
    if (std::filesystem::is_regular_file(dir / "cuobjdump", error)) {
      return (dir / "cuobjdump").string();
    }
  }
  return {};
}

// The machine code (SASS) of every kernel of the submission, by demangled name, from the device
// code the lab program loaded (none under the CPU emulation).
std::map<std::string, std::string> program_sass(const std::string& cuobjdump) {
  const std::string binary = harness::student_device_code_file();
  if (binary.empty()) return {};
  const auto command = fmt::format("'{}' -sass '{}' 2>/dev/null", cuobjdump, binary);
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return {};
  std::string text;
  std::array<char, 65536> chunk{};
  while (const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), pipe.get())) {
    text.append(chunk.data(), got);
  }
  return harness::split_sass_functions(text);
}

// Kernels that come from a library rather than from kernel.cu (cuBLAS, cuBLASLt, CUTLASS).
bool library_kernel_name(const std::string& name) {
  static const std::regex pattern(
      R"((cublas|cutlass|xmma|gemmSN|gemmk1|splitKreduce|^(void )?(maxwell|volta|turing|ampere|sm[0-9]+)_.*gemm))",
      std::regex::icase);
  return std::regex_search(name, pattern);
}

}  // namespace

LAB_CHECK(Sgemm, Integers) { check_products(check, {Values::integers}); }

LAB_CHECK(Sgemm, Reals) { check_products(check, {Values::reals}); }

LAB_CHECK(Sgemm, KnownAnswers) {
  harness::check_known_answers(check, kSgemm, harness::known_answers(), /*note_sources=*/false);
}

LAB_CHECK(Sgemm, Large) { check_products(check, harness::spec_values(check.spec())); }

// The race is for FP32 on the CUDA cores: every kernel that sgemm launches must be compiled into
// this program (not a library's, e.g. cuBLAS opened with dlopen) and contain no tensor-core
// instruction (TF32 would be 8x faster and less precise). Read from what actually ran (the launch
// recorder) and from the program's machine code (cuobjdump), not from the source text.
LAB_CHECK(Sgemm, PlainFp32) {
  const MatmulShape shape = harness::matmul_shape(check.spec(), kMaxSize);
  const auto activity = harness::observe_product(
      check, kSgemm, shape, harness::WrongProductReasons::of_shape(shape).launch_not_graded);
  if (!activity) return;
  if (activity->kernels.empty()) {
    check.set_verdict(Verdict::fail, "sgemm launched no kernel");
    return;
  }
  const auto cuobjdump = find_cuobjdump();
  const auto sass =
      cuobjdump.empty() ? std::map<std::string, std::string>{} : program_sass(cuobjdump);
  if (sass.empty()) {
    check.note("cuobjdump was not found (or read nothing): only the kernels' names were checked");
  }
  for (const auto& launch : activity->kernels) {
    if (library_kernel_name(launch.name)) {
      check.set_verdict(Verdict::fail, fmt::format("sgemm launched {}, a library's kernel: the "
                                                   "race is for your own kernels",
                                                   launch.name));
      check.diagnose(harness::make_diagnosis(
          "library_kernel", fmt::format("the launch recorder saw {}", launch.name)));
      return;
    }
    if (sass.empty()) continue;
    const auto it = sass.find(launch.name);
    if (it == sass.end()) {
      check.set_verdict(Verdict::fail,
                        fmt::format("sgemm launched {}, which is not compiled into this program "
                                    "(a library's kernel?): the race is for your own kernels",
                                    launch.name));
      check.diagnose(harness::make_diagnosis(
          "library_kernel",
          fmt::format("{} ran but is not in this program's machine code", launch.name)));
      return;
    }
    if (harness::sass_uses_tensor_cores(it->second)) {
      check.set_verdict(Verdict::fail,
                        fmt::format("{} uses tensor-core instructions (wmma, mma or TF32): the "
                                    "race is for FP32 on the CUDA cores",
                                    launch.name));
      check.diagnose(harness::make_diagnosis(
          "tensor_cores",
          fmt::format("cuobjdump shows tensor-core instructions in {}", launch.name)));
      return;
    }
  }
  check.set_verdict(
      Verdict::pass,
      fmt::format("{} kernel launch(es), all compiled from your source{}", activity->kernels.size(),
                  sass.empty() ? "" : ", no tensor-core instructions"));
}

LAB_CHECK(Sgemm, ShareAt4096) { check_share(check); }

LAB_CHECK(Sgemm, ShareTall) { check_share(check); }

LAB_CHECK(Sgemm, ShareWide) { check_share(check); }

LAB_CHECK(Sgemm, ShareShortK) { check_share(check); }
