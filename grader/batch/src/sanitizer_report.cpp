// compute-sanitizer's text report (batch/sanitizer_report.hpp). The blocks it reads (CUDA 13):
//   ========= Invalid __global__ read of size 4 bytes
//   =========     at K(const float *, int)+0x290 in kernel.cu:21
//   =========     by thread (1,0,0) in block (0,0,0)
//   =========     Access to 0x7f4f52a00204 is out of bounds      (or "Address 0x... is misaligned")
//   =========     and is 1 bytes after the nearest allocation at 0x7f4f52a00200 of size 4 bytes
//   =========     Saved host backtrace up to driver entry point at kernel launch time
//   =========         Host Frame: AnySize_Integers_Test::TestBody() [0xaa289] in lab7
//   =========
//   ========= Error: Race reported between Write access at K(...)+0x310 in kernel.cu:18
//   =========     and Read access at K(...)+0x320 in kernel.cu:19 [960 hazards]
//   =========
// Hardware exceptions ("Warp Misaligned Address", "Out-of-range Shared or Local Address") are
// blocks like the first; cuda-memcheck's older "at 0x290 in /dir/kernel.cu:21:K(...)" is read too.
// Any other "=========" line ("Program hit cudaErrorIllegalAddress ...", the summaries) ends a
// block and starts none: the lines indented under it are not a kernel's.
// The wording of a finding for the student is in sanitizer_wording.cpp.
#include "batch/sanitizer_report.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "batch/sanitizer_text.hpp"

namespace batch {
namespace {

using namespace sanitizer_text;

constexpr std::string_view kMarker = "========= ";
constexpr std::string_view kBareMarker = "=========";
constexpr std::string_view kRunLine = "[ RUN      ] ";
constexpr std::string_view kRace = "Race reported between ";
constexpr std::string_view kTestBody = "_Test::TestBody()";
// "void MatMulKernel<16>(const float *, int)" -> "MatMulKernel<16>": no parameter list, no
// return type (the sanitizer names template instances with theirs).
std::string kernel_name(std::string_view signature) {
  signature = trimmed(signature);
  if (!signature.empty() && signature.back() == ')') {
    int depth = 0;
    for (std::size_t i = signature.size(); i-- > 0;) {
      if (signature[i] == ')') ++depth;
      if (signature[i] == '(' && --depth == 0) {
        signature = trimmed(signature.substr(0, i));
        break;
      }
    }
  }
  int depth = 0;
  std::size_t name_start = 0;
  for (std::size_t i = 0; i < signature.size(); ++i) {
    const char c = signature[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) --depth;
    if (c == ' ' && depth == 0) name_start = i + 1;
  }
  return capped(signature.substr(std::min(name_start, signature.size())));
}

struct CodePlace {
  std::string kernel;
  std::string file;  // the name only
  int line = 0;
};

// "file.cu:21" (or "/dir/file.cu:21", or "lab7" without -lineinfo).
void read_file_and_line(std::string_view location, CodePlace& place) {
  location = trimmed(location);
  const auto colon = location.rfind(':');
  if (colon != std::string_view::npos && line_number(location.substr(colon + 1)) > 0) {
    place.line = line_number(location.substr(colon + 1));
    location = location.substr(0, colon);
  }
  place.file = capped(file_name_only(location));
}

// The text after "at ": "K(const float *, int)+0x290 in /dir/kernel.cu:21", "K(...)+0x290",
// or cuda-memcheck's "0x290 in /dir/kernel.cu:21:K(...)".
CodePlace code_place(std::string_view text) {
  text = trimmed(text);
  // racecheck: "... in kernel.cu:19 [960 hazards]"
  if (text.ends_with("hazards]") || text.ends_with("hazard]")) {
    text = trimmed(text.substr(0, text.rfind('[')));
  }
  CodePlace place;
  if (text.starts_with("0x")) {
    const auto in = after(text, " in ");
    if (!in) return place;
    // "/dir/kernel.cu:21:K(...)": the first ":digits:" ends the file.
    for (std::size_t colon = in->find(':'); colon != std::string_view::npos;
         colon = in->find(':', colon + 1)) {
      const auto next = in->find(':', colon + 1);
      if (next != std::string_view::npos && line_number(in->substr(colon + 1, next - colon - 1))) {
        read_file_and_line(in->substr(0, next), place);
        place.kernel = kernel_name(in->substr(next + 1));
        return place;
      }
    }
    place.kernel = kernel_name(*in);
    return place;
  }
  std::string_view function = text;
  if (const auto in = text.rfind(" in "); in != std::string_view::npos) {
    function = text.substr(0, in);
    read_file_and_line(text.substr(in + 4), place);
  }
  if (const auto offset = function.rfind("+0x"); offset != std::string_view::npos) {
    function = function.substr(0, offset);
  }
  place.kernel = kernel_name(function);
  return place;
}

// "(1,0,0) in block (0,0,0)" -> "(1,0,0)".
std::string parenthesized(std::string_view text) {
  const auto open = text.find('(');
  const auto close = text.find(')', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return "";
  return capped(text.substr(open, close - open + 1));
}

// "Write" -> "a write"; the words a race names its accesses with.
std::string access_words(std::string_view kind) {
  std::string word;
  for (const char c : kind) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) || word.size() > 16) return "an access";
    word += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  if (word.empty()) return "an access";
  const bool vowel = std::string_view("aeiou").find(word.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + word;
}

std::string with_line(const std::string& access, int line) {
  return line > 0 ? fmt::format("{} (line {})", access, line) : access;
}

struct RaceAccess {
  std::string kind;  // "Read"
  CodePlace place;
  std::uint64_t hazards = 0;
};

// Reads the output line by line: the block being read (its finding so far) and the check that
// gtest is running.
class ReportReader {
 public:
  ReportReader(std::string_view tool, const std::vector<std::string>& check_ids)
      : memory_errors_(tool != "racecheck"), races_(tool != "memcheck"), check_ids_(check_ids) {}

  void read_line(std::string_view line) {
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // The last marker of the line: a student's text printed without a newline may come first.
    const auto marker = line.rfind(kMarker);
    if (marker == std::string_view::npos) {
      if (line.ends_with(kBareMarker)) {
        end_block();  // "========= " with its space stripped
      } else {
        read_program_line(line);
      }
      return;
    }
    const std::string_view content = line.substr(marker + kMarker.size());
    if (trimmed(content).empty()) {
      end_block();
    } else if (is_space(content.front())) {
      read_block_line(trimmed(content));
    } else {
      read_header(trimmed(content));
    }
  }

  std::vector<SanitizerFinding> finish() {
    end_block();
    return merged(std::move(found_));
  }

 private:
  enum class Block { none, memory, race };

  // The program's own output: only gtest's "[ RUN      ] Suite.Name" matters, at the start of
  // a line (the lab program relays the launcher's text behind "| ", so a student cannot move
  // the findings that follow onto another check by printing one).
  void read_program_line(std::string_view line) {
    if (!line.starts_with(kRunLine)) return;
    const auto name_text = after(line, kRunLine);
    if (!name_text) return;
    std::string_view name = trimmed(*name_text);
    name = name.substr(0, std::min(name.find_first_of(" \t"), name.size()));
    const bool known = check_ids_.empty() ||
                       std::find(check_ids_.begin(), check_ids_.end(), name) != check_ids_.end();
    running_check_ = known ? capped(name) : "";
  }

  void read_header(std::string_view header) {
    end_block();
    if (races_ && contains(header, kRace)) {
      start_race(header);
    } else if (memory_errors_ && is_memory_error(header)) {
      block_ = Block::memory;
      current_ = {};
      current_.tool = "memcheck";
      current_.what = capped(header);
      current_.check = running_check_;
    }
  }

  static bool is_memory_error(std::string_view header) {
    return header.starts_with("Invalid __") || header.starts_with("Warp ") ||
           header.starts_with("Lane ") || contains(header, "Shared or Local Address") ||
           header.starts_with("Malloc/Free error");
  }

  // "Error: Race reported between Write access at K(...)+0x310 in kernel.cu:18"
  void start_race(std::string_view header) {
    block_ = Block::race;
    current_ = {};
    current_.tool = "racecheck";
    current_.check = running_check_;
    race_partners_.clear();
    const std::string_view first = after(header, kRace).value_or("");
    race_first_kind_ = std::string(first.substr(0, std::min(first.find(' '), first.size())));
    const CodePlace place = code_place(after(first, " at ").value_or(""));
    current_.kernel = place.kernel;
    current_.file = place.file;
    current_.line = place.line;
  }

  void read_block_line(std::string_view text) {
    if (block_ == Block::memory) {
      read_memory_line(text);
    } else if (block_ == Block::race) {
      // "and Read access at K(...)+0x320 in kernel.cu:19 [960 hazards]"
      const auto place = after(text, " access at ");
      if (!text.starts_with("and ") || !place) return;
      RaceAccess access;
      const std::string_view kind = text.substr(4);
      access.kind = std::string(kind.substr(0, std::min(kind.find(' '), kind.size())));
      access.place = code_place(*place);
      if (const auto open = text.rfind('['); open != std::string_view::npos) {
        access.hazards = count_number(text.substr(open + 1)).value_or(0);
      }
      race_partners_.push_back(std::move(access));
    }
  }

  void read_memory_line(std::string_view text) {
    if (text.starts_with("at ") && !placed_) {
      const CodePlace place = code_place(text.substr(3));
      current_.kernel = place.kernel;
      current_.file = place.file;
      current_.line = place.line;
      placed_ = true;
    } else if (text.starts_with("by thread ")) {
      current_.thread = parenthesized(text.substr(10));
      current_.block = parenthesized(after(text, " block ").value_or(""));
    } else if (text.starts_with("Access to ") || text.starts_with("Access at ") ||
               text.starts_with("Address ")) {
      // "Access to 0x7f4f52a00204 is out of bounds", "Address 0x400 is misaligned"
      const auto number = text.substr(text.starts_with("Address ") ? 8 : 10);
      current_.address = hex_number(number);
      misaligned_ = misaligned_ || contains(text, "misaligned");
    } else if (text.starts_with("and is ") && contains(text, "nearest allocation at ")) {
      current_.nearest_base = hex_number(after(text, "nearest allocation at ").value_or(""));
      current_.nearest_bytes = count_number(after(text, " of size ").value_or(""));
    } else if (text.starts_with("Host Frame:") && !from_backtrace_) {
      if (auto check = check_of_test_body(text); !check.empty()) {
        current_.check = std::move(check);
        from_backtrace_ = true;
      }
    }
  }

  // "Host Frame: AnySize_Integers_Test::TestBody() [0xaa289] in lab7" -> "AnySize.Integers",
  // when that is one of the check ids (gtest names TEST(Suite, Name)'s class Suite_Name_Test).
  std::string check_of_test_body(std::string_view frame) const {
    const auto end = frame.find(kTestBody);
    if (end == std::string_view::npos) return "";
    std::size_t start = end;
    while (start > 0) {
      const char c = frame[start - 1];
      if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '_')) {
        break;
      }
      --start;
    }
    const std::string_view class_name = frame.substr(start, end - start);
    for (const auto& id : check_ids_) {
      std::string as_class = id;
      std::replace(as_class.begin(), as_class.end(), '.', '_');
      if (as_class == class_name) return id;
    }
    return "";
  }

  void end_block() {
    if (block_ == Block::memory) {
      if (misaligned_) current_.what += ", misaligned";
      found_.push_back(std::move(current_));
    } else if (block_ == Block::race) {
      end_race();
    }
    block_ = Block::none;
    current_ = {};
    placed_ = false;
    misaligned_ = false;
    from_backtrace_ = false;
  }

  // One finding per other access (kind and line) the first one races with, its hazards summed
  // over the instructions of those lines.
  void end_race() {
    const std::string first = with_line(access_words(race_first_kind_), current_.line);
    if (race_partners_.empty()) {
      current_.what = fmt::format("Race between {} and another access of shared memory", first);
      found_.push_back(current_);
      return;
    }
    std::vector<SanitizerFinding> races;
    std::map<std::string, std::size_t> index_of_what;  // a printed flood of partners stays linear
    for (const auto& partner : race_partners_) {
      std::string what = fmt::format("Race between {} and {} of shared memory", first,
                                     with_line(access_words(partner.kind), partner.place.line));
      const auto [it, inserted] = index_of_what.emplace(what, races.size());
      if (inserted) {
        races.push_back(current_);
        races.back().what = std::move(what);
        races.back().other_line = partner.place.line;
      }
      races[it->second].hazards += partner.hazards;
    }
    for (auto& race : races) found_.push_back(std::move(race));
  }

  static std::vector<SanitizerFinding> merged(std::vector<SanitizerFinding> all) {
    std::vector<SanitizerFinding> kept;
    std::map<std::string, std::size_t> index_of_kind;
    for (auto& finding : all) {
      const std::string kind = fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", finding.tool,
                                           finding.what, finding.kernel, finding.file, finding.line,
                                           finding.other_line, finding.check);
      const auto [it, inserted] = index_of_kind.emplace(kind, kept.size());
      if (inserted) {
        kept.push_back(std::move(finding));
      } else {
        kept[it->second].like_it += 1 + finding.like_it;
      }
    }
    return kept;
  }

  const bool memory_errors_;
  const bool races_;
  const std::vector<std::string>& check_ids_;
  std::string running_check_;

  Block block_ = Block::none;
  SanitizerFinding current_;
  bool placed_ = false;          // memcheck: the kernel's "at" line read (device frames follow)
  bool misaligned_ = false;      // memcheck: "... is misaligned"
  bool from_backtrace_ = false;  // memcheck: the check named by the host backtrace
  std::string race_first_kind_;
  std::vector<RaceAccess> race_partners_;

  std::vector<SanitizerFinding> found_;
};

}  // namespace

std::vector<SanitizerFinding> parse_sanitizer_output(std::string_view tool, std::string_view output,
                                                     const std::vector<std::string>& check_ids) {
  ReportReader reader(tool, check_ids);
  while (!output.empty()) {
    const auto end = output.find('\n');
    reader.read_line(output.substr(0, end));
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);
  }
  return reader.finish();
}

}  // namespace batch
