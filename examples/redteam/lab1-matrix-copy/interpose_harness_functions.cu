// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: harness-function interposition: kernel.cu redefines the harness's judges to say "pass"
//
// With kernel.cu linked before the harness's static archive, the first definition of a symbol
// wins. So this file defines, with the exact signatures of harness/*/include and contract/include
// (types copied from contract/record.hpp where the bodies need their layout): expect_matrix (marks
// the case passed and stamps the digest of the *expected* values), expect_guards_intact,
// expect_unchanged, fail_case,
// count_differences_on_device (0), Check::set_verdict (drops every verdict), judge_speed,
// write_record (writes a passing record instead) and GraderChannel::send_record (sends one).
// The copies themselves do nothing.
// Why it must fail: the lab program links no student code; these definitions land in the
// launcher, where nothing calls them. (Under the CPU emulation, which still links kernel.cu into
// the lab program, the duplicate definitions would clash or win: emulation is not for grading.)
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "lab1.h"

// The record's types and the channel live in the contract library (contract/), the judges in the
// harness: the mangled names must say so.
namespace contract {

// As in contract/record.hpp (layout matters: expect_matrix writes into a CaseResult).
enum class Verdict {
  pass, fail, error, skipped, inconclusive, not_measured, not_run, not_attempted
};
struct Mismatch { long long row = 0, col = 0; std::string expected, got; };
struct ErrorMap {
  long long rows = 0, cols = 0, cell_rows = 1, cell_cols = 1;
  int grid_rows = 0, grid_cols = 0;
  std::vector<float> wrong_fraction;
  long long tile_rows = 0, tile_cols = 0;
};
struct Diagnosis {
  std::string id, summary, evidence, hint, handout;
  std::vector<std::string> also;
};
struct OutOfBoundsWrite { std::string buffer; long long offset = 0; std::string value; };
struct CaseResult {
  std::string name;
  Verdict verdict = Verdict::pass;
  std::string reason;
  long long total = 0, mismatches = 0, nan_count = 0;
  double max_abs_error = 0, tolerance = 0;
  std::vector<Mismatch> first_mismatches;
  std::optional<ErrorMap> error_map;
  std::vector<OutOfBoundsWrite> out_of_bounds;
  std::string output_digest;
  std::optional<Diagnosis> diagnosis;
};
// Only the first fields of a CheckRecord are read here.
struct CheckRecord;
struct RecordHead { int schema; std::string lab, check, kind, title; };
struct Timing;
struct GraderMessage { std::string nonce; std::uint64_t seed = 0; };
class GraderChannel {
 public:
  void send_record(const CheckRecord& record) const;
 private:
  int out_fd_ = -1;
  GraderMessage message_;
};

}  // namespace contract

namespace harness {

using contract::CaseResult;
using contract::CheckRecord;
using contract::RecordHead;
using contract::Timing;
using contract::Verdict;
class DeviceBuffer;
class Check { public: void set_verdict(Verdict verdict, std::string reason); };

namespace {

// digest_term.hpp and format_digest, so a forged case carries the digest a right copy would.
std::uint64_t digest_term(std::uint64_t index, std::uint32_t bits) {
  if ((bits & 0x7FFFFFFFu) == 0) bits = 0;
  std::uint64_t z = (index << 32 | bits) + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::string passing_record(const CheckRecord& record) {
  const auto& head = reinterpret_cast<const RecordHead&>(record);
  return "{\"schema\":1,\"lab\":\"" + head.lab + "\",\"check\":\"" + head.check +
         "\",\"kind\":\"" + head.kind + "\",\"verdict\":\"pass\",\"fraction\":1,\"cases\":[]}";
}

}  // namespace

void expect_matrix(CaseResult& result, const std::vector<float>& expected, const DeviceBuffer&,
                   long long rows, long long cols, const std::vector<float>&) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &expected[i], 4);
    sum += digest_term(i, bits);
  }
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(sum));
  result.verdict = Verdict::pass;
  result.total = rows * cols;
  result.output_digest = digest;
}
void expect_guards_intact(CaseResult&, const DeviceBuffer&, long long) {}
void expect_unchanged(CaseResult&, const DeviceBuffer&, const std::vector<float>&) {}
void fail_case(CaseResult&, const std::string&) {}
long long count_differences_on_device(const float*, const float*, std::size_t) { return 0; }
void Check::set_verdict(Verdict, std::string) {}
void judge_speed(Check&, const Timing&, double, double) {}

}  // namespace harness

namespace contract {

void write_record(const std::filesystem::path& results_dir, const CheckRecord& record) {
  std::filesystem::create_directories(results_dir);
  const auto& head = reinterpret_cast<const RecordHead&>(record);
  std::ofstream(results_dir / (head.check + ".json")) << harness::passing_record(record) << '\n';
}

void GraderChannel::send_record(const CheckRecord& record) const {
  const std::string line =
      "{\"nonce\":\"" + message_.nonce + "\",\"record\":" + harness::passing_record(record) + "}\n";
  if (write(out_fd_, line.data(), line.size()) < 0) std::perror("send_record");
}

}  // namespace contract

void copy_matrix(const float*, float*, int, int) {}
void copy_matrix_strided(const float*, float*, int, int) {}
