#include "reports/render.hpp"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "contract/grade.hpp"
#include "contract/spec.hpp"
#include "reports/ceiling.hpp"

namespace {

using contract::Verdict;

constexpr std::string_view kHostile = "<script>alert(1)</script>";

std::size_t count_of(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

contract::LabSpec sample_spec() {
  return contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab1", "title": "Matrix copy",
    "checks": [
      {"id": "CopyMatrix.Correctness", "kind": "correctness", "title": "Copies square matrices", "points": 4},
      {"id": "CopyMatrix.OddSizes", "kind": "correctness", "title": "Copies odd sizes", "points": 3},
      {"id": "CopyMatrix.Guards", "kind": "correctness", "title": "Writes only inside the output", "points": 2},
      {"id": "CopyMatrix.Speed", "kind": "speed", "title": "Copies at memory speed", "points": 3},
      {"id": "CopyMatrix.LaunchShape", "kind": "structure", "title": "Launches a 2D grid", "points": 2}
    ]})"),
                              "test-spec.json");
}

contract::CheckRecord record(std::string check, Verdict verdict, std::string reason) {
  contract::CheckRecord r;
  r.lab = "lab1";
  r.check = std::move(check);
  r.verdict = verdict;
  r.reason = std::move(reason);
  r.seed = 1234;
  r.started_at = "2026-11-22T10:15:00Z";
  r.reproduce = "ctest -R " + r.check;
  return r;
}

std::vector<contract::CheckRecord> sample_records() {
  auto pass = record("CopyMatrix.Correctness", Verdict::pass, "all 3 sizes are right");
  pass.device = contract::DeviceInfo{"NVIDIA H100 80GB HBM3", "9.0", "580.65", "13.0", 132, 79.2};

  auto odd = record("CopyMatrix.OddSizes", Verdict::fail, "33x65: 37 elements are wrong");
  odd.fraction = 0.5;
  contract::CaseResult wrong;
  wrong.name = "33x65";
  wrong.verdict = Verdict::fail;
  wrong.total = 33 * 65;
  wrong.mismatches = 37;
  wrong.nan_count = 2;
  wrong.first_mismatches = {{32, 0, "1.25", "0"}, {32, 1, "-7.5", "NaN"}};
  wrong.error_map =
      contract::ErrorMap{33, 65, 16, 16, 3, 5, {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}};
  odd.cases.push_back(wrong);

  auto guards = record("CopyMatrix.Guards", Verdict::error, std::string(kHostile));
  auto speed = record("CopyMatrix.Speed", Verdict::pass, "91% of the reference rate");
  speed.timing = contract::Timing{"4096x4096", "GB/s",         50,   0.37, 0.36, 0.41,  0.02,
                                  1450,        "cudaMemcpy2D", 0.33, 1600, 0.01, 0.906, 0.7};
  return {pass, odd, guards, speed};
}

struct Rendered {
  contract::LabSpec spec = sample_spec();  // the grade points into it: keep it alive
  contract::LabGrade grade;
  std::string html;
};

Rendered render_sample(reports::ReportContext context = {
                           "2026-11-22T10:20:00Z", "labs/lab1-matrix-copy/kernel.cu (starter)",
                           "labs/lab1-matrix-copy/README.md", ""}) {
  Rendered out;
  out.grade = contract::grade_lab(out.spec, sample_records());
  out.html = reports::render_lab_report(out.grade, context);
  return out;
}

TEST(RenderLabReport, ShowsTheScore) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find("8.5 / 14 points"), std::string::npos);
  EXPECT_NE(r.html.find("Matrix copy"), std::string::npos);
  EXPECT_NE(r.html.find("2 of 5 checks passed"), std::string::npos);
  EXPECT_NE(r.html.find(">1 failed<"), std::string::npos);
  EXPECT_NE(r.html.find(">1 not run<"), std::string::npos);
}

TEST(RenderLabReport, ListsChecksInSpecOrder) {
  const auto r = render_sample();
  std::size_t previous = 0;
  for (const auto& check : r.spec.checks) {
    const auto at = r.html.find(check.title);
    ASSERT_NE(at, std::string::npos) << check.title;
    EXPECT_GT(at, previous) << check.title;
    previous = at;
  }
}

TEST(RenderLabReport, EscapesAHostileReason) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(r.html.find(kHostile), std::string::npos);
}

TEST(RenderLabReport, EscapesEveryUntrustedField) {
  const std::string evil = "<img src=x onerror=alert(1)>";
  auto spec = sample_spec();
  spec.title = evil;
  spec.checks[0].title = evil;
  auto records = sample_records();
  for (auto& r : records) {
    r.reason = evil;
    r.backend = evil;
    r.started_at = evil;
    r.reproduce = evil;
    r.notes = {evil};
    for (auto& c : r.cases) {
      c.name = evil;
      c.reason = evil;
      for (auto& m : c.first_mismatches) m.expected = m.got = evil;
      c.out_of_bounds.push_back({evil, -1, evil});
    }
    if (r.timing) r.timing->reference_name = r.timing->rate_unit = r.timing->size = evil;
    if (r.device) r.device->name = r.device->driver_version = evil;
  }
  records[1].verdict = Verdict::fail;  // so its reproduce command is shown
  auto grade = contract::grade_lab(spec, records, {evil});
  grade.lab = evil;
  const auto html = reports::render_lab_report(grade, {evil, evil, evil, evil});
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
}

TEST(RenderLabReport, PlaceholdersInRecordsStayText) {
  auto spec = sample_spec();
  auto records = sample_records();
  records[0].reason = "{{css}} {{body}} {{nope}}";
  const auto html = reports::render_lab_report(contract::grade_lab(spec, records), {});
  EXPECT_NE(html.find("{{css}} {{body}} {{nope}}"), std::string::npos);
  EXPECT_EQ(count_of(html, ":root {"), 1u);
}

TEST(RenderLabReport, ShowsTheFirstMismatches) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find("The first 2 of 37 wrong elements"), std::string::npos);
  EXPECT_NE(r.html.find(R"(<td class="num">32</td><td class="num">1</td>)"), std::string::npos);
  EXPECT_NE(r.html.find("-7.5"), std::string::npos);
  EXPECT_NE(r.html.find("37 / 2,145"), std::string::npos);
}

TEST(RenderLabReport, DrawsTheErrorMapAndTheSpeedChart) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find(R"(<svg class="error-map")"), std::string::npos);
  EXPECT_NE(r.html.find(R"(<svg class="speed-chart")"), std::string::npos);
  EXPECT_NE(r.html.find("cudaMemcpy2D"), std::string::npos);
  EXPECT_NE(r.html.find("1450 GB/s"), std::string::npos);
  EXPECT_NE(r.html.find("needs 70%"), std::string::npos);
}

TEST(RenderLabReport, ACheckWithoutARecordDidNotRun) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find(R"(<span class="verdict verdict-not-run">)"), std::string::npos);
  EXPECT_NE(r.html.find("not run"), std::string::npos);
  EXPECT_NE(r.html.find("did not run (run ctest -L lab1)"), std::string::npos);
  EXPECT_NE(r.html.find("0 / 2"), std::string::npos);
}

TEST(RenderLabReport, ABatchReportSaysWhyACheckDidNotRunWithoutCtest) {
  reports::ReportContext context{"2026-11-22T10:20:00Z", "kernel.cu (submitted by ada)",
                                 "labs/lab1-matrix-copy/README.md", "ada"};
  context.no_record_reason = "did not run: link error";
  const auto r = render_sample(context);
  EXPECT_NE(r.html.find("did not run: link error"), std::string::npos);
  // The student of a batch cannot run the grader's checks: no ctest advice anywhere.
  EXPECT_EQ(r.html.find("run ctest"), std::string::npos);
}

TEST(RenderLabReport, OpensTheDetailsOfChecksThatNeedWork) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find("id=\"check-1\">\n<details>"), std::string::npos);       // pass
  EXPECT_NE(r.html.find("id=\"check-2\">\n<details open>"), std::string::npos);  // fail
  EXPECT_NE(r.html.find("<code>ctest -R CopyMatrix.OddSizes</code>"), std::string::npos);
  EXPECT_EQ(r.html.find("<code>ctest -R CopyMatrix.Correctness</code>"), std::string::npos);
}

TEST(RenderLabReport, ShowsTheEnvironment) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(r.html.find("132"), std::string::npos);
  EXPECT_NE(r.html.find("labs/lab1-matrix-copy/README.md"), std::string::npos);
  EXPECT_NE(r.html.find("2026-11-22T10:20:00Z"), std::string::npos);
  EXPECT_EQ(r.html.find("Student:"), std::string::npos);
}

TEST(RenderLabReport, NamesTheStudentEscaped) {
  const auto r = render_sample({"", "", "", "Ada <Lovelace>"});
  EXPECT_NE(r.html.find("Student: <strong>Ada &lt;Lovelace&gt;</strong>"), std::string::npos);
}

TEST(RenderLabReport, ListsProblemsInAWarningBox) {
  auto spec = sample_spec();
  auto records = sample_records();
  records.push_back(record("Other.Check", Verdict::pass, ""));
  const auto html = reports::render_lab_report(contract::grade_lab(spec, records), {});
  EXPECT_NE(html.find(R"(<aside class="warning")"), std::string::npos);
  EXPECT_NE(html.find("Other.Check"), std::string::npos);
}

TEST(RenderLabReport, IsSelfContained) {
  const auto r = render_sample();
  EXPECT_EQ(r.html.find("http://"), std::string::npos);
  EXPECT_EQ(r.html.find("https://"), std::string::npos);
  EXPECT_EQ(r.html.find("<script"), std::string::npos);
  EXPECT_EQ(r.html.find("url("), std::string::npos);
  EXPECT_EQ(r.html.find("{{"), std::string::npos);  // every placeholder filled
  EXPECT_EQ(r.html.rfind("<!DOCTYPE html>", 0), 0u);
}

TEST(RenderLabReport, IsDeterministic) { EXPECT_EQ(render_sample().html, render_sample().html); }

TEST(RenderLabReport, RendersAGradeBuiltWithoutASpec) {
  contract::LabGrade grade;
  grade.lab = "lab9";
  contract::CheckGrade check;
  check.record = record("Loose.Check", Verdict::fail, "wrong");
  check.verdict = Verdict::fail;
  check.max_points = 1;
  grade.checks.push_back(check);
  grade.max_points = 1;
  const auto html = reports::render_lab_report(grade, {});
  EXPECT_NE(html.find("Loose.Check"), std::string::npos);
  EXPECT_NE(html.find("0 / 1 points"), std::string::npos);
}

// ---- a run under the CPU emulation: speed not measured, and the report says so ------------

contract::LabSpec tiled_spec(std::string speed_title) {
  auto document = nlohmann::json::parse(R"({
    "lab": "lab6", "title": "Tiled matmul",
    "checks": [
      {"id": "T.Integers", "kind": "correctness", "title": "exact on integers", "points": 50},
      {"id": "T.Shape", "kind": "structure", "title": "uses shared memory", "points": 20},
      {"id": "T.Speed", "kind": "speed", "title": "", "points": 15},
      {"id": "T.SpeedAt4096", "kind": "speed", "title": "matmul_tiled is faster than the naive kernel at width 4096", "points": 15}
    ]})");
  document["checks"][2]["title"] = std::move(speed_title);
  return contract::parse_spec(document, "spec.json");
}

std::vector<contract::CheckRecord> emulated_records(Verdict integers) {
  std::vector<contract::CheckRecord> records{
      record("T.Integers", integers, "all 5 widths are exact"),
      record("T.Shape", Verdict::pass, "every kernel uses shared memory"),
      record("T.Speed", Verdict::not_measured,
             "not measured: emulation (the kernels ran on the CPU; speed checks need a GPU)"),
      record("T.SpeedAt4096", Verdict::not_measured,
             "not measured: emulation (the kernels ran on the CPU; speed checks need a GPU)")};
  for (auto& r : records) {
    r.lab = "lab6";
    r.backend = "emulation: CPU emulation (2 threads, random schedule seeded by the lab's seed)";
  }
  return records;
}

std::string speed_section_of(const std::string& html) {
  const auto start = html.find(R"(<section aria-labelledby="speed-heading">)");
  if (start == std::string::npos) return {};
  return html.substr(start, html.find("</section>", start) - start);
}

TEST(RenderLabReport, UnderTheEmulationSaysSpeedWasNotMeasuredAndDrawsNoChart) {
  const auto spec = tiled_spec("matmul_tiled is faster than the naive kernel at width 2048");
  const auto html =
      reports::render_lab_report(contract::grade_lab(spec, emulated_records(Verdict::pass)), {});
  const auto speed = speed_section_of(html);
  ASSERT_FALSE(speed.empty());
  EXPECT_NE(speed.find("Speed was not measured: the checks ran under the CPU emulation"),
            std::string::npos)
      << speed;
  EXPECT_EQ(html.find("timed on the same GPU"), std::string::npos);
  EXPECT_EQ(speed.find("<svg"), std::string::npos) << "no empty chart";
  EXPECT_EQ(speed.find("nothing measured"), std::string::npos);
  EXPECT_EQ(speed.find("&#8230;"), std::string::npos) << "no title cut short";
  EXPECT_NE(speed.find(">matmul_tiled is faster than the naive kernel at width 2048</a>"),
            std::string::npos);
  EXPECT_NE(speed.find(">matmul_tiled is faster than the naive kernel at width 4096</a>"),
            std::string::npos);
  EXPECT_NE(speed.find("(30 points)"), std::string::npos);
}

// The emulator's facts stand beside "not measured" in the Speed section (each once, though both
// speed checks carry them) and in each check's details, escaped; the points stay the verdicts'.
TEST(RenderLabReport, UnderTheEmulationShowsWhatTheEmulatorMeasuredBesideNotMeasured) {
  const auto spec = tiled_spec("matmul_tiled is faster than the naive kernel at width 2048");
  auto records = emulated_records(Verdict::pass);
  const contract::Evidence conflict{
      "bank_conflict",
      "emulation",
      "kernel.cu",
      23,
      "transpose",
      "kernel.cu:23 (transpose): reading tile (float[32][32] in shared memory): 32-way bank "
      "conflict <script>alert(1)</script>",
      32,
      1};
  for (auto& r : records) {
    if (r.check != "T.Shape") r.evidence = {conflict};
  }
  const auto with = contract::grade_lab(spec, records);
  const auto html = reports::render_lab_report(with, {});
  const auto speed = speed_section_of(html);
  EXPECT_NE(speed.find("What the CPU emulation measured in your kernel"), std::string::npos)
      << speed;
  EXPECT_NE(speed.find("kernel.cu:23 (transpose): reading tile (float[32][32] in shared memory): "
                       "32-way bank conflict &lt;script&gt;"),
            std::string::npos)
      << speed;
  EXPECT_EQ(speed.find("32-way"), speed.rfind("32-way")) << "once in the Speed section";
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  const auto first = html.find("What the CPU emulation measured");
  const auto second = html.find("What the CPU emulation measured", first + 1);
  EXPECT_NE(second, std::string::npos) << "the checks' details show it too";
  EXPECT_EQ(with.points, contract::grade_lab(spec, emulated_records(Verdict::pass)).points);

  const auto without =
      reports::render_lab_report(contract::grade_lab(spec, emulated_records(Verdict::pass)), {});
  EXPECT_EQ(without.find("measured in your kernel"), std::string::npos);
  EXPECT_NE(speed_section_of(without).find("found none of the slow patterns"), std::string::npos)
      << "measured and clean is said so";
}

// A GPU's run measures how fast, not why: the Speed section says the accesses were not measured.
TEST(RenderLabReport, OnAGpuWithoutEvidenceTheAccessesAreNotMeasured) {
  const auto html = render_sample().html;
  EXPECT_NE(speed_section_of(html).find("Not measured in this run"), std::string::npos);
  EXPECT_EQ(html.find("found none of the slow patterns"), std::string::npos);
}

TEST(RenderLabReport, UnderTheEmulationARightSubmissionEarnedTheMostItCould) {
  const auto spec = tiled_spec("fast at 2048");
  const auto grade = contract::grade_lab(spec, emulated_records(Verdict::pass));
  EXPECT_DOUBLE_EQ(grade.points, 70) << "the words change, never the grade";
  const auto html = reports::render_lab_report(grade, {});
  EXPECT_NE(html.find("70 / 100 points"), std::string::npos);
  EXPECT_EQ(html.find("Not passed yet."), std::string::npos);
  EXPECT_NE(html.find("The most a run without a GPU can earn (speed, 30 points, is measured on a "
                      "GPU only)."),
            std::string::npos);
  EXPECT_NE(html.find(R"(<div class="score-card status-most">)"), std::string::npos);
  EXPECT_NE(html.find("<title>lab6 Tiled matmul: 70 / 100 points: the most a run without a GPU "
                      "can earn (speed, 30 points, is measured on a GPU only)</title>"),
            std::string::npos);
}

TEST(RenderLabReport, UnderTheEmulationMissedPointsAreStillNotPassed) {
  const auto spec = tiled_spec("fast at 2048");
  const auto grade = contract::grade_lab(spec, emulated_records(Verdict::fail));
  EXPECT_DOUBLE_EQ(grade.points, 20);
  const auto html = reports::render_lab_report(grade, {});
  EXPECT_NE(html.find("Not passed yet. Without a GPU at most 70 of the 100 points can be earned "
                      "(speed, 30 points, is measured on a GPU only)."),
            std::string::npos);
  EXPECT_NE(html.find(R"(<div class="score-card status-open">)"), std::string::npos);
  EXPECT_EQ(html.find("the most a run without a GPU can earn"), std::string::npos);
}

TEST(RenderLabReport, UnderTheEmulationEscapesTheSpeedChecksTitles) {
  const auto spec = tiled_spec(std::string(kHostile));
  const auto html =
      reports::render_lab_report(contract::grade_lab(spec, emulated_records(Verdict::pass)), {});
  EXPECT_EQ(html.find(kHostile), std::string::npos);
  EXPECT_NE(speed_section_of(html).find("&lt;script&gt;alert(1)&lt;/script&gt;"),
            std::string::npos);
}

// On a GPU the words stay as they were.
TEST(RenderLabReport, OnAGpuTheSpeedSectionAndHeadlineKeepTheirWords) {
  const auto r = render_sample();
  EXPECT_NE(r.html.find("timed on the same GPU in the same run"), std::string::npos);
  EXPECT_NE(r.html.find("Not passed yet."), std::string::npos);
  EXPECT_EQ(r.html.find("without a GPU"), std::string::npos);
  EXPECT_NE(r.html.find("<title>lab1 Matrix copy: 8.5 / 14 points</title>"), std::string::npos);
}

TEST(RenderLabReport, SurvivesAMalformedErrorMap) {
  auto spec = sample_spec();
  auto records = sample_records();
  records[1].cases[0].error_map->wrong_fraction.resize(2);
  const auto html = reports::render_lab_report(contract::grade_lab(spec, records), {});
  EXPECT_NE(html.find("error map cannot be drawn"), std::string::npos);
}

// ---- a speed figure beyond the GPU's ceiling: implausible, failed, a red line ---------------

// The sample's speed check at 41,800 GB/s on a GPU whose memory moves 3,350 GB/s at most. The
// ceiling's name carries markup: the report escapes it like every other text of a record.
std::vector<contract::CheckRecord> records_with_speed(Verdict verdict, double rate) {
  auto records = sample_records();
  auto& speed = records.back();
  speed.verdict = verdict;
  speed.reason = std::string(kHostile);
  speed.timing->rate = rate;
  speed.timing->ceiling = 3350;
  speed.timing->ceiling_name = "this GPU's memory bandwidth <b>(HBM3)</b>";
  speed.timing->verified_calls = 12;
  return records;
}

TEST(RenderLabReport, AnImplausibleSpeedIsARedLineWithTheFigureAndTheCeiling) {
  const auto spec = sample_spec();
  const auto grade = contract::grade_lab(spec, records_with_speed(Verdict::implausible, 41800));
  EXPECT_DOUBLE_EQ(grade.points, 5.5) << "an implausible figure earns nothing";
  const auto html = reports::render_lab_report(grade, {});
  EXPECT_NE(html.find(R"(<span class="verdict verdict-implausible">)"), std::string::npos);
  EXPECT_NE(html.find(R"(<tr class="row-implausible">)"), std::string::npos);
  EXPECT_NE(html.find("check-detail check-detail-implausible"), std::string::npos);
  EXPECT_NE(html.find(">1 implausible<"), std::string::npos);
  const std::string line =
      "implausible: measured 41.8 TB/s, beyond this GPU&#39;s memory bandwidth "
      "&lt;b&gt;(HBM3)&lt;/b&gt; of 3.35 TB/s.";
  EXPECT_NE(html.find(R"(<span class="implausible-line">)" + line), std::string::npos) << "table";
  EXPECT_NE(html.find(R"(<p class="implausible-line">)" + line), std::string::npos) << "details";
  EXPECT_NE(html.find("ceiling: 3.35 TB/s, this GPU&#39;s memory bandwidth"), std::string::npos);
  EXPECT_NE(html.find("verified on 12 timed calls"), std::string::npos);
  // No bar (it would squash the others) and no "why this speed" for a speed that cannot be.
  EXPECT_NE(html.find(R"(class="chart-implausible">implausible: 41.8 TB/s, beyond this GPU&#39;s )"
                      R"(ceiling of 3.35 TB/s<)"),
            std::string::npos);
  EXPECT_EQ(html.find(R"(class="speed-reading")"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find(kHostile), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

// A believable figure shows its ceiling and its verified calls, and no red line.
TEST(RenderLabReport, ATimingShowsItsCeilingAndVerifiedCallsWhenKnown) {
  const auto spec = sample_spec();
  const auto html = reports::render_lab_report(
      contract::grade_lab(spec, records_with_speed(Verdict::pass, 1450)), {});
  EXPECT_NE(html.find(R"(<span class="subtext">ceiling: 3.35 TB/s, this GPU&#39;s memory )"),
            std::string::npos)
      << "the speed table";
  EXPECT_NE(html.find(R"(<td>ceiling: 3.35 TB/s, this GPU&#39;s memory )"), std::string::npos)
      << "the check's timing";
  EXPECT_NE(html.find("<td>verified on 12 timed calls</td>"), std::string::npos);
  EXPECT_EQ(html.find("implausible:"), std::string::npos);
  // A record from before ceilings were known says nothing of them.
  EXPECT_EQ(render_sample().html.find(">ceiling: "), std::string::npos);
  EXPECT_EQ(render_sample().html.find("verified on"), std::string::npos);
}

TEST(Ceiling, RatesReadInTeraFromAThousandGiga) {
  EXPECT_EQ(reports::format_rate(66900, "GFLOP/s"), "66.9 TFLOP/s");
  EXPECT_EQ(reports::format_rate(3350, "GB/s"), "3.35 TB/s");
  EXPECT_EQ(reports::format_rate(812.4, "GB/s"), "812 GB/s");
}

TEST(Ceiling, ImplausibleWordsNameTheFigureAndTheCeiling) {
  contract::Timing t;
  t.rate_unit = "GFLOP/s";
  t.rate = 90100;
  EXPECT_EQ(reports::implausible_words(t),
            "implausible: measured 90.1 TFLOP/s, more than this GPU can do");
  EXPECT_FALSE(reports::beyond_ceiling(t)) << "an unknown ceiling is never exceeded";
  EXPECT_EQ(reports::ceiling_words(t), "");
  t.ceiling = 66900;
  EXPECT_TRUE(reports::beyond_ceiling(t));
  EXPECT_EQ(reports::implausible_words(t),
            "implausible: measured 90.1 TFLOP/s, beyond this GPU's physical ceiling of 66.9 "
            "TFLOP/s");
  t.ceiling_name = "this GPU's FP32 peak (132 SMs x 1980 MHz x 128 lanes x 2)";
  EXPECT_EQ(reports::ceiling_words(t),
            "66.9 TFLOP/s, this GPU's FP32 peak (132 SMs x 1980 MHz x 128 lanes x 2)");
  EXPECT_EQ(reports::verified_words(t), "");
  t.verified_calls = 1;
  EXPECT_EQ(reports::verified_words(t), "verified on 1 timed call");
  t.rate = 68000;
  EXPECT_FALSE(reports::beyond_ceiling(t)) << "within the lab program's margin";
}

}  // namespace

namespace {

// Batch grading shows why a submission never ran, with the compiler's own words, escaped.
TEST(RenderReport, ShowsACompileErrorWithTheCompilersMessageEscaped) {
  const auto spec = sample_spec();
  const auto grade = contract::grade_lab(spec, {});
  reports::ReportContext context;
  context.student = "mallory";
  context.submission_problem = "compile error";
  context.submission_output =
      std::string("kernel.cu(12): error: expected a \";\"\n  ") + std::string(kHostile);
  const auto html = reports::render_lab_report(grade, context);
  EXPECT_NE(html.find("compile error"), std::string::npos);
  EXPECT_NE(html.find("kernel.cu(12): error: expected a &quot;;&quot;"), std::string::npos);
  EXPECT_EQ(count_of(html, kHostile), 0u);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(RenderReport, NoSubmissionProblemNoSection) {
  const auto spec = sample_spec();
  const auto html = reports::render_lab_report(contract::grade_lab(spec, {}), {});
  EXPECT_EQ(html.find("submission-heading"), std::string::npos);
}

}  // namespace
