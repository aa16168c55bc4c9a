// The result record: one JSON file per check, written by the lab's test process and read by
// labgrade to render reports and compute grades. Host-only (no CUDA) so the grader and the
// report renderer can use it without a GPU.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace contract {

inline constexpr int kRecordSchema = 1;

// pass/fail are verdicts on the student's code; the others say the check could not judge it.
// not_attempted: an optional (bonus) check whose function the student did not write; it earns
// nothing and fails nothing.
enum class Verdict {
  pass,
  fail,
  error,
  skipped,
  inconclusive,
  not_measured,
  not_run,
  not_attempted,
  // A speed figure beyond what this GPU can physically do (its FP32 peak, its memory bandwidth):
  // the kernel skipped work the trusted side could not see; no points, never ranked.
  implausible
};

std::string_view to_string(Verdict verdict);
// The verdict in words for people: "not measured" where to_string gives "not_measured".
std::string_view verdict_words(Verdict verdict);
Verdict verdict_from_string(std::string_view text);  // throws RecordError

// What a verdict means for a grade: pass is passed; fail, error, inconclusive, not_run and
// implausible are failed; skipped, not_measured and not_attempted are not judged (they earn nothing
// and fail nothing). labgrade's verdict table (grader/batch/verdict_table.hpp) and the exports use
// it.
enum class VerdictClass { passed, failed, not_judged };
VerdictClass verdict_class(Verdict verdict);

struct RecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One wrong element. Values are kept as text so NaN and Inf survive JSON.
struct Mismatch {
  long long row = 0;
  long long col = 0;
  std::string expected;
  std::string got;
};

// A coarse picture of where the wrong elements are: the matrix is cut into cells of
// cell_rows x cell_cols elements and each cell holds the share of its elements that are wrong.
struct ErrorMap {
  long long rows = 0;  // matrix size
  long long cols = 0;
  long long cell_rows = 1;  // elements per cell
  long long cell_cols = 1;
  int grid_rows = 0;  // cells
  int grid_cols = 0;
  std::vector<float> wrong_fraction;  // grid_rows * grid_cols, row-major
  // The thread blocks of the launch that wrote the matrix (block rows x block cols, in elements):
  // the report draws them over the map, so a wrong tile or a wrong border lines up with them.
  // 0: not known.
  long long tile_rows = 0;
  long long tile_cols = 0;
};

// What kind of mistake a failure most likely is, named from the pattern of the wrong elements and
// cheap experiments (harness/diagnose.hpp). Texts are written by the harness, never by the student.
struct Diagnosis {
  std::string id;        // stable name, e.g. "transposed_result" (known-wrong kernels assert it)
  std::string summary;   // one line: the likely mistake
  std::string evidence;  // what in the output (or an experiment) shows it
  std::string hint;      // where to look in the code
  std::string handout;  // anchor of the handout section that explains it, e.g. "#transposed-result"
  std::vector<std::string> also;  // other mistakes that fit the same evidence equally well
};

// A write that landed in a guard zone around a buffer.
struct OutOfBoundsWrite {
  std::string buffer;
  long long offset = 0;  // elements from the buffer's first element (negative: before it)
  std::string value;
};

// One size (or one scenario) within a check.
struct CaseResult {
  std::string name;  // e.g. "256x1024"
  Verdict verdict = Verdict::pass;
  std::string reason;
  long long total = 0;       // elements compared
  long long mismatches = 0;  // wrong elements (NaN included)
  long long nan_count = 0;   // elements left NaN (never written, or computed as NaN)
  double max_abs_error = 0;
  double tolerance = 0;  // 0: compared exactly
  std::vector<Mismatch> first_mismatches;
  std::optional<ErrorMap> error_map;
  std::vector<OutOfBoundsWrite> out_of_bounds;
  // For exact comparisons: a digest of the output (output_digest in compare.hpp). The batch
  // grader compares it with the digest a trusted run of the instructor's solution produced for the
  // same secret seed, so a passing record cannot be forged without computing the right answer.
  std::string output_digest;
  std::optional<Diagnosis> diagnosis;  // failed cases only
  // The width of a square case (a width x width product), so that the check's diagnosis can
  // compare the widths that passed with those that failed; 0: not square, or not known.
  long long width = 0;
  // Failed cases: whether the diagnosis's re-runs on the same buffers all gave the same output
  // (false: they differed, a race or stale shared memory); unset: they were not made.
  std::optional<bool> output_repeats;
};

// Whether the GPU was fit to time on, read through NVML before and after the timed runs.
struct GpuHealth {
  bool checked = false;    // false: NVML not available (the verdict says so)
  bool throttled = false;  // clocks held down by heat, power brake or a hardware slowdown
  bool busy = false;       // another process was computing on the GPU
  std::string text;        // one line for the report: what was seen
};

// One of several measurements of the same pair in one run (speed checks with "rounds" > 1): each
// round alternates the student's kernel and the reference on its own, so two rounds that agree
// show that the figure is not a fluke of the moment.
struct TimingRound {
  double median_ms = 0;
  double spread = 0;
  double reference_median_ms = 0;
  double reference_spread = 0;
  double ratio = 0;
};

// A speed measurement against a reference timed in the same run.
struct Timing {
  std::string size;
  std::string rate_unit;  // "GB/s" or "GFLOP/s"
  int repetitions = 0;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double spread = 0;  // (q3 - q1) / median
  double rate = 0;
  std::string reference_name;
  double reference_median_ms = 0;
  double reference_rate = 0;
  double reference_spread = 0;
  double ratio = 0;                 // rate / reference_rate
  double threshold = 0;             // ratio needed to pass
  std::string output_digest;        // digest of the timed kernel's (exact) output, as in CaseResult
  std::vector<TimingRound> rounds;  // empty for a single measurement
  // For the roofline chart: the work of one call (floating-point operations and the bytes a call
  // must move at least) and the ceilings measured in the same run (0: not measured).
  double flops = 0;
  double bytes = 0;
  double memcpy_gbps = 0;    // cudaMemcpy device to device, read + write
  double cublas_gflops = 0;  // cuBLAS SGEMM FP32 at the same shape
  // The physical ceiling of `rate` on this device (0: unknown): the FP32 FMA peak for GFLOP/s,
  // the memory bandwidth for GB/s (harness/ceiling.hpp says how each is found).
  double ceiling = 0;
  std::string ceiling_name;  // "this GPU's FP32 peak (...)", for the words of a figure beyond it
  // Timed calls whose output the trusted side verified (each on inputs drawn for that call).
  int verified_calls = 0;
  std::optional<GpuHealth> health;
};

// Resources of one kernel the check saw run (CUPTI activity records) and what they allow.
struct KernelFacts {
  std::string name;
  unsigned block[3] = {1, 1, 1};
  unsigned grid[3] = {1, 1, 1};
  int registers_per_thread = 0;
  long long shared_bytes_per_block = 0;  // static + dynamic
  long long local_bytes_per_thread = 0;  // > 0: registers spilled to local memory (or local arrays)
  double occupancy = 0;                  // theoretical: resident warps / the SM's maximum, 0..1
  std::string limited_by;                // "registers", "shared memory", "block size", ...
  std::string reading;                   // one line for a student
};

// How far the rounds of a timing disagree: (largest ratio - smallest) / smallest; 0 for fewer
// than two rounds.
double rounds_disagreement(const Timing& timing);

// A fact measured in the student's kernels, at the line of kernel.cu: under the CPU emulation the
// emulator's evidence engine (emulation/src/evidence.hpp: coalescing, bank conflicts, elements
// written by two threads, shared memory read before written, blocks that did nothing). Feedback
// only: no verdict and no points depend on it. The words come from the process that ran the
// student's code (the launcher), so readers show them as text and nothing more.
struct Evidence {
  // "uncoalesced_access", "bank_conflict", "aliasing_write", "uninitialised_shared_read",
  // "idle_blocks", "divergence"
  std::string kind;
  std::string source = "emulation";  // what measured it
  std::string file;                  // "kernel.cu"
  int line = 0;
  std::string kernel;
  std::string words;  // one line for the student
  double figure = 0;  // what was measured (sectors per request, conflict degree, ...)
  double ideal = 0;   // what a kernel without the fault measures (0: none)
};

// Every kind of evidence fact, in one place: the lab program accepts only these from the
// launcher, and a known-wrong kernel's `// evidence:` line may name only these (cmake/AddLab.cmake
// gets the list from LABS_EVIDENCE_KINDS; the test Evidence.KindsAreTheSameInCMake keeps the two
// in step).
inline constexpr std::string_view kEvidenceKinds[] = {
    "uncoalesced_access",        "bank_conflict", "aliasing_write",
    "uninitialised_shared_read", "idle_blocks",   "divergence"};
bool is_evidence_kind(std::string_view kind);

// Adds `fact` to `facts`: one of the same kind, file and line already there keeps the larger
// figure (the worst case of the run: its largest launch, mostly); a new one is added while there
// are fewer than `most`.
void add_evidence(std::vector<Evidence>& facts, const Evidence& fact, std::size_t most);

// "TransposeTiled" for "TransposeTiled.Speed": a check's suite, the checks of one function of the
// contract (a speed check shows the facts its suite's other checks measured).
std::string_view suite_of(std::string_view check);

struct DeviceInfo {
  std::string name;
  std::string compute_capability;
  std::string driver_version;
  std::string runtime_version;
  int sm_count = 0;
  double memory_gib = 0;
};

struct CheckRecord {
  int schema = kRecordSchema;
  std::string lab;
  std::string check;  // the spec's check id, e.g. "CopyMatrix.Correctness"
  std::string kind;   // correctness, speed, structure
  std::string title;
  Verdict verdict = Verdict::not_run;
  std::string reason;   // one line a student can act on
  double fraction = 0;  // share of the check passed, 0..1 (partial credit)
  // What the spec gives for this outcome, for readers of the record. Graders recompute points
  // from the spec and the verdict and never take these on trust.
  double points = 0;
  double max_points = 0;
  std::uint64_t seed = 0;
  std::string backend = "cuda";  // "cuda", or "emulation: ..." for the CPU emulation
  std::string started_at;        // ISO 8601, UTC
  double duration_s = 0;
  std::string reproduce;  // a command that replays this check with the same seed
  std::vector<std::string> notes;
  std::vector<CaseResult> cases;
  std::optional<Timing> timing;
  std::optional<DeviceInfo> device;
  std::optional<Diagnosis> diagnosis;  // the check's likely mistake (chosen from its cases)
  std::vector<KernelFacts> kernels;
  std::vector<Evidence> evidence;  // absent from older records: none
};

void to_json(nlohmann::json& out, const CheckRecord& record);
void from_json(const nlohmann::json& in, CheckRecord& record);

// True when the record's check ran under the CPU emulation (backend "emulation: ..."): its speed
// was not measured, and the spec's "emulation" sizes and titles applied.
bool ran_under_emulation(const CheckRecord& record);
bool ran_under_emulation(const std::vector<CheckRecord>& records);  // any of them

// File name of a check's record inside a results folder.
std::filesystem::path record_path(const std::filesystem::path& results_dir, std::string_view check);

// Atomic write (temporary file, then rename) so a crash never leaves half a record.
void write_record(const std::filesystem::path& results_dir, const CheckRecord& record);

// Throws RecordError naming the file and what is wrong with it.
CheckRecord read_record(const std::filesystem::path& file);

// Every *.json record in a folder, sorted by check id; a folder that does not exist gives none.
// Unreadable records are returned in `problems` instead of stopping the whole read.
std::vector<CheckRecord> read_records(const std::filesystem::path& results_dir,
                                      std::vector<std::string>* problems = nullptr);

// Formats a float so that NaN/Inf read clearly and finite values round-trip.
std::string format_value(float value);

// The current time as ISO 8601 UTC, e.g. "2026-11-22T10:15:00Z".
std::string utc_timestamp();

}  // namespace contract
