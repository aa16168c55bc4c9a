// Bonus checks, checks scored by share, and timings measured in rounds (issue 8): spec fields,
// points, and the record's rounds. Host only.
#include <gtest/gtest.h>

#include "harness/contract.hpp"
#include "harness/sass.hpp"

namespace harness {
namespace {

LabSpec parse(const char* text) { return parse_spec(nlohmann::json::parse(text), "test spec"); }

const char* kSpec = R"({
  "lab": "lab1", "title": "Matrix copy",
  "checks": [
    {"id": "Copy.Correctness", "kind": "correctness", "title": "copies", "points": 60},
    {"id": "Copy.Speed", "kind": "speed", "title": "speed", "points": 40},
    {"id": "Fast.Correctness", "kind": "correctness", "title": "fast copies", "points": 5,
     "bonus": true},
    {"id": "Fast.Speed", "kind": "speed", "title": "fast", "points": 10, "bonus": true,
     "rounds": 2}
  ]})";

CheckRecord record(const std::string& check, Verdict verdict, double fraction = 0) {
  CheckRecord r;
  r.lab = "lab1";
  r.check = check;
  r.verdict = verdict;
  r.fraction = fraction;
  return r;
}

TEST(BonusSpec, BonusChecksAreOutsideTheBaseTotal) {
  const auto spec = parse(kSpec);
  EXPECT_FALSE(spec.at("Copy.Speed").bonus);
  EXPECT_TRUE(spec.at("Fast.Speed").bonus);
  EXPECT_DOUBLE_EQ(spec.total_points(), 100);
  EXPECT_DOUBLE_EQ(spec.bonus_points(), 15);
  EXPECT_EQ(spec.at("Fast.Speed").rounds(), 2);
  EXPECT_EQ(spec.at("Copy.Speed").rounds(), 1);
}

TEST(BonusSpec, BadFieldsNameTheCheck) {
  EXPECT_THROW(parse(R"({"lab": "l", "title": "t", "checks": [{"id": "A.B", "kind": "speed",
      "title": "t", "points": 1, "bonus": "yes"}]})"),
               SpecError);
  EXPECT_THROW(parse(R"({"lab": "l", "title": "t", "checks": [{"id": "A.B", "kind": "correctness",
      "title": "t", "points": 1, "full_points_at_ratio": 0.75}]})"),
               SpecError);
  EXPECT_THROW(parse(R"({"lab": "l", "title": "t", "checks": [{"id": "A.B", "kind": "speed",
      "title": "t", "points": 1, "full_points_at_ratio": 0}]})"),
               SpecError);
  // The table's range (contract/spec_schema.hpp): rejected when the spec loads.
  try {
    (void)parse(R"({"lab": "l", "title": "t", "checks": [{"id": "A.B", "kind": "speed",
      "title": "t", "points": 1, "rounds": 11}]})");
    FAIL() << "rounds 11 accepted";
  } catch (const SpecError& error) {
    EXPECT_NE(std::string(error.what()).find("check 'A.B': 'rounds'"), std::string::npos);
  }
}

TEST(BonusGrade, BonusPointsAreExtra) {
  const auto spec = parse(kSpec);
  const auto grade = grade_lab(
      spec, {record("Copy.Correctness", Verdict::pass), record("Copy.Speed", Verdict::pass),
             record("Fast.Correctness", Verdict::pass), record("Fast.Speed", Verdict::pass)});
  EXPECT_DOUBLE_EQ(grade.points, 115);
  EXPECT_DOUBLE_EQ(grade.max_points, 100);
  EXPECT_DOUBLE_EQ(grade.bonus_points, 15);
  EXPECT_DOUBLE_EQ(grade.bonus_max_points, 15);
  EXPECT_EQ(format_score(grade), "115 / 100 points (+15 of 15 bonus)");
}

TEST(BonusGrade, NotAttemptedEarnsNothingAndCostsNothing) {
  const auto spec = parse(kSpec);
  const auto grade = grade_lab(
      spec, {record("Copy.Correctness", Verdict::pass), record("Copy.Speed", Verdict::pass),
             record("Fast.Correctness", Verdict::not_attempted),
             record("Fast.Speed", Verdict::not_attempted)});
  EXPECT_DOUBLE_EQ(grade.points, 100);
  EXPECT_DOUBLE_EQ(grade.bonus_points, 0);
  EXPECT_EQ(format_score(grade), "100 / 100 points (+0 of 15 bonus)");
  EXPECT_EQ(verdict_words(Verdict::not_attempted), "not attempted");
  EXPECT_EQ(verdict_from_string("not_attempted"), Verdict::not_attempted);
}

TEST(BonusGrade, NoBonusPartWithoutBonusChecks) {
  const auto spec = parse(R"({"lab": "lab1", "title": "t", "checks": [{"id": "A.B",
      "kind": "correctness", "title": "t", "points": 10}]})");
  EXPECT_EQ(format_score(grade_lab(spec, {record("A.B", Verdict::fail, 0.5)})), "5 / 10 points");
}

TEST(ShareScoring, PointsScaleWithTheShareUpToFull) {
  const auto spec = parse(R"({"lab": "lab8", "title": "t", "checks": [{"id": "S.At4096",
      "kind": "speed", "title": "t", "points": 25, "full_points_at_ratio": 0.75}]})");
  const auto& check = spec.at("S.At4096");
  EXPECT_DOUBLE_EQ(check.full_points_at_ratio, 0.75);
  EXPECT_DOUBLE_EQ(points_for(check, Verdict::pass, 0.5), 12.5);  // half of full share
  EXPECT_DOUBLE_EQ(points_for(check, Verdict::pass, 1.0), 25);
  EXPECT_DOUBLE_EQ(points_for(check, Verdict::pass, 1.7), 25);  // clamped
  EXPECT_DOUBLE_EQ(points_for(check, Verdict::inconclusive, 1.0), 0);
  // Without the field a pass is all the points, whatever the fraction says.
  const auto plain = parse(R"({"lab": "l", "title": "t", "checks": [{"id": "S.Speed",
      "kind": "speed", "title": "t", "points": 25}]})");
  EXPECT_DOUBLE_EQ(points_for(plain.at("S.Speed"), Verdict::pass, 0.1), 25);
}

TEST(TimingRounds, RoundTripAndDisagreement) {
  CheckRecord r = record("Fast.Speed", Verdict::pass, 1);
  Timing t;
  t.ratio = 0.95;
  t.rounds = {{0.75, 0.004, 0.71, 0.002, 0.95}, {0.76, 0.005, 0.71, 0.003, 0.94}};
  r.timing = t;
  nlohmann::json json = r;
  ASSERT_TRUE(json["timing"].contains("rounds"));
  const auto back = json.get<CheckRecord>();
  ASSERT_TRUE(back.timing);
  ASSERT_EQ(back.timing->rounds.size(), 2u);
  EXPECT_DOUBLE_EQ(back.timing->rounds[1].ratio, 0.94);
  EXPECT_DOUBLE_EQ(back.timing->rounds[0].reference_spread, 0.002);
  EXPECT_NEAR(rounds_disagreement(*back.timing), 0.01 / 0.94, 1e-12);
  // A single measurement writes no rounds, as before.
  Timing single;
  r.timing = single;
  nlohmann::json plain = r;
  EXPECT_FALSE(plain["timing"].contains("rounds"));
  EXPECT_DOUBLE_EQ(rounds_disagreement(single), 0);
}

}  // namespace
}  // namespace harness

// ---- SASS scanning (lab 8's PlainFp32 check) ---------------------------------------------------

namespace harness {
namespace {

const char* kSass = R"sass(
Fatbin elf code:
================
arch = sm_90

	code for sm_90
		Function : _ZN12_GLOBAL__N_112sgemm_kernelEPKfS1_Pfiiibb
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
        /*0010*/                   HFMA2.MMA R5, -RZ, RZ, 0, 0 ;           /* 0x00000000ff057435 */
        /*0020*/              @!P0 FFMA R8, R12, R16, R8 ;                 /* 0x000000100c088223 */
        /*0030*/                   EXIT ;                                  /* 0x000000000000794d */
		Function : _Z17sgemm_tf32_kernelPKfS0_Pfiii
        /*0000*/                   LDS.128 R4, [R2] ;                      /* 0x0000000002047984 */
        /*0010*/               @P1 HMMA.1684.F32.TF32 R8, R4, R6, R8 ;     /* 0x000000060408723c */
        /*0020*/                   EXIT ;                                  /* 0x000000000000794d */

Fatbin elf code:
================
	code for sm_90
		Function : _Z5wgmmav
        /*0000*/                   HGMMA.64x128x8.F32.TF32 R24, gdesc[UR4], RZ ; /* 0x00e0 */
)sass";

TEST(Sass, SplitsFunctionsByDemangledName) {
  const auto functions = split_sass_functions(kSass);
  ASSERT_EQ(functions.size(), 3u);
  const auto it = functions.find(
      "(anonymous namespace)::sgemm_kernel(float const*, float const*, float*, int, int, int, "
      "bool, bool)");
  ASSERT_NE(it, functions.end());
  EXPECT_NE(it->second.find("FFMA"), std::string::npos);
  EXPECT_EQ(it->second.find("HMMA"), std::string::npos);  // the next function is not part of it
}

TEST(Sass, TensorCoreOpcodesButNotTheMmaModifier) {
  const auto functions = split_sass_functions(kSass);
  for (const auto& [name, text] : functions) {
    SCOPED_TRACE(name);
    EXPECT_EQ(sass_uses_tensor_cores(text), name.find("sgemm_kernel") == std::string::npos);
  }
  EXPECT_FALSE(sass_uses_tensor_cores("  /*0010*/  HFMA2.MMA R5, -RZ, RZ, 0, 0 ;"));
  EXPECT_TRUE(sass_uses_tensor_cores("  /*0010*/  @!UP0 IMMA.16832.S8.S8 R4, R8, R12, R4 ;"));
  EXPECT_TRUE(sass_uses_tensor_cores("  /*0010*/  UTCHMMA gdesc[UR4], gdesc[UR6], tmem[UR8] ;"));
  EXPECT_FALSE(sass_uses_tensor_cores("no instructions here: HMMA in a comment line"));
}

}  // namespace
}  // namespace harness
