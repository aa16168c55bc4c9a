// A check's title is what a student reads about it: a title that names sizes must name sizes the
// check runs, on a GPU and under the CPU emulation (whose "emulation" overrides shrink them).
#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "contract/spec.hpp"

namespace contract {
namespace {

using nlohmann::json;

// The one parameter that holds sizes (spec_schema.hpp).
const std::set<std::string>& size_keys() {
  static const std::set<std::string> keys{"sizes"};
  return keys;
}

void collect_integers(const json& value, std::set<long long>& out) {
  if (value.is_number_integer()) {
    out.insert(value.get<long long>());
  } else if (value.is_array()) {
    for (const auto& item : value) collect_integers(item, out);
  }
}

// Every size a check's parameters name (its "emulation" block not included).
std::set<long long> sizes_of(const CheckSpec& check) {
  std::set<long long> sizes;
  for (const auto& [key, value] : check.params.items()) {
    if (size_keys().contains(key)) collect_integers(value, sizes);
  }
  return sizes;
}

// The sizes of the GPU's run and of the emulation's, so a title naming either is known as sizes.
std::set<long long> every_size_of(const CheckSpec& check) {
  auto sizes = sizes_of(check);
  if (const auto it = check.params.find("emulation"); it != check.params.end()) {
    for (const auto& [key, value] : it->items()) {
      if (size_keys().contains(key)) collect_integers(value, sizes);
    }
  }
  return sizes;
}

struct TitleNumber {
  long long value = 0;
  bool in_product = false;  // a side of "AxB" or "A * B": a size whatever the parameters say
};

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The whole numbers a title names, leaving out shares ("90%"), names with digits ("FP32",
// "lab6") and powers ("^3").
std::vector<TitleNumber> numbers_in(const std::string& title) {
  std::vector<TitleNumber> numbers;
  std::size_t i = 0;
  while (i < title.size()) {
    if (!is_digit(title[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < title.size() && is_digit(title[i])) ++i;
    const char before = start > 0 ? title[start - 1] : ' ';
    const char after = i < title.size() ? title[i] : ' ';
    // "4096x4096": the x between two numbers is a product sign, not part of a name.
    const bool x_before = before == 'x' && start >= 2 && is_digit(title[start - 2]);
    const bool x_after = after == 'x' && i + 1 < title.size() && is_digit(title[i + 1]);
    const bool name_part = (is_letter(before) && !x_before) || (is_letter(after) && !x_after);
    const bool decimal = (before == '.' && start >= 2 && is_digit(title[start - 2])) ||
                         (after == '.' && i + 1 < title.size() && is_digit(title[i + 1]));
    if (name_part || decimal || after == '%' || before == '^') continue;
    const bool star_after = title.compare(i, 3, " * ") == 0;
    const bool star_before = start >= 3 && title.compare(start - 3, 3, " * ") == 0;
    numbers.push_back({std::stoll(title.substr(start, i - start)),
                       x_before || x_after || star_after || star_before});
  }
  return numbers;
}

// What is wrong with a check's title for the sizes it runs ("" when nothing).
std::string untrue_sizes(const CheckSpec& check, const std::set<long long>& known_sizes) {
  const auto runs = sizes_of(check);
  std::string wrong;
  for (const auto& number : numbers_in(check.title)) {
    const bool is_size = number.in_product || known_sizes.contains(number.value);
    if (is_size && !runs.contains(number.value)) {
      wrong += (wrong.empty() ? "" : ", ") + std::to_string(number.value);
    }
  }
  return wrong;
}

TEST(SpecTitles, NumbersInATitleAreFoundAsPeopleReadThem) {
  const auto values = [](const std::string& title) {
    std::vector<long long> out;
    for (const auto& n : numbers_in(title)) out.push_back(n.value);
    return out;
  };
  EXPECT_EQ(values("matmul_tiled is right at 2048 and 4096"), (std::vector<long long>{2048, 4096}));
  EXPECT_EQ(values("share of cuBLAS SGEMM (FP32) at 4096x1024 * 1024x8192 (short k)"),
            (std::vector<long long>{4096, 1024, 1024, 8192}));
  EXPECT_EQ(values("bonus: reaches 90% of cudaMemcpy's bandwidth, in two rounds"),
            std::vector<long long>{});
  EXPECT_EQ(values("copies 4 or more elements per thread"), std::vector<long long>{4});
  EXPECT_EQ(values("1.2x faster at width 64."), std::vector<long long>{64});
  EXPECT_TRUE(numbers_in("exact on a 16385x16385 matrix")[0].in_product);
  EXPECT_FALSE(numbers_in("copies 4 or more elements")[0].in_product);
}

TEST(SpecTitles, ATitleNamingSizesTheCheckDoesNotRunIsFound) {
  auto spec = parse_spec(json::parse(R"({
    "lab": "lab6", "title": "Tiled", "dimensions": ["width"],
    "checks": [
      {"id": "T.Large", "kind": "correctness", "title": "right at 2048 and 4096", "points": 10,
       "sizes": [[2048], [4096]], "emulation": {"sizes": [[768]]}},
      {"id": "T.Fixed", "kind": "correctness", "title": "right at 2048 and 4096", "points": 10,
       "sizes": [[2048], [4096]], "emulation": {"sizes": [[768]], "title": "right at 768"}},
      {"id": "T.Typo", "kind": "correctness", "title": "exact on a 8192x8192 matrix", "points": 1,
       "sizes": [[16385]]}
    ]})"),
                         "spec.json");
  EXPECT_EQ(untrue_sizes(spec.checks[0], every_size_of(spec.checks[0])), "");
  EXPECT_EQ(untrue_sizes(spec.checks[2], every_size_of(spec.checks[2])), "8192, 8192");
  const auto known = every_size_of(spec.checks[0]);
  apply_overrides(spec, "emulation");
  EXPECT_EQ(untrue_sizes(spec.checks[0], known), "2048, 4096");
  EXPECT_EQ(spec.checks[1].title, "right at 768");
  EXPECT_EQ(untrue_sizes(spec.checks[1], known), "");
}

TEST(SpecTitles, TheEmulationOverrideMayOnlyGiveATitleThatIsText) {
  for (const auto* bad : {R"(3)", R"("")", R"(["a"])"}) {
    auto document = json::parse(R"({"lab": "lab1", "title": "Copy", "dimensions": ["width"],
      "checks": [{"id": "A.B", "kind": "correctness", "title": "at 64", "points": 1,
                  "sizes": [[64]]}]})");
    document["checks"][0]["emulation"] = {{"title", json::parse(bad)}};
    try {
      parse_spec(document, "spec.json");
      ADD_FAILURE() << "title " << bad << " accepted";
    } catch (const SpecError& e) {
      EXPECT_NE(
          std::string(e.what()).find("check 'A.B': 'emulation': 'title' must be a non-empty text"),
          std::string::npos)
          << e.what();
    }
  }
}

// Every shipped lab: a title names only sizes its check runs, on a GPU and under the emulation.
// Speed checks are left out under the emulation: they run nothing there (not measured), and
// their titles say what a GPU measures.
TEST(SpecTitles, EveryShippedTitleNamesOnlySizesThatRun) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(LABS_SOURCE_DIR "/labs")) {
    const auto file = entry.path() / "spec.json";
    if (!entry.is_directory() || !std::filesystem::exists(file)) continue;
    SCOPED_TRACE(file.string());
    const auto gpu = load_spec(file);
    auto emulated = gpu;
    apply_overrides(emulated, "emulation");
    for (std::size_t i = 0; i < gpu.checks.size(); ++i) {
      const auto known = every_size_of(gpu.checks[i]);
      const auto& on_cpu = emulated.checks[i];
      EXPECT_EQ(untrue_sizes(gpu.checks[i], known), "")
          << gpu.checks[i].id << ": \"" << gpu.checks[i].title << "\" names sizes it does not run";
      if (on_cpu.kind == "speed") continue;
      EXPECT_EQ(untrue_sizes(on_cpu, known), "")
          << on_cpu.id << ": under the emulation \"" << on_cpu.title
          << "\" names sizes it does not run; give its \"emulation\" block a \"title\"";
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
}

}  // namespace
}  // namespace contract
