// Reading Canvas's and Moodle's download names. The shapes are the LMSs' own code:
//   Canvas, ContentZipper (app/models/content_zipper.rb): [sortable name, "LATE" if late, user id]
//     joined by '_', every character but [[:word:]] removed and lowercased, then
//     "_{attachment id}_{display name}"; a file submitted again under a name the student already
//     used gets "-1", "-2" before its extension. Older Canvas wrote the name with '-' for spaces
//     and "-late" before the id ("smith--john-late_12345").
//   Moodle, mod_assign\downloader::get_student_prefix (mod/assign/classes/downloader.php): the full
//     name with '_' turned to spaces, '_', the participant number (get_uniqueid_for_user), then
//     "_assignsubmission_file" and the file's path (a folder since Moodle 3.1), or
//     "_assignsubmission_file_" and the file name when downloaded without folders.
#include "lms/download_name.hpp"

#include <charconv>
#include <optional>

namespace lms {
namespace {

constexpr std::string_view kMoodleMarker = "_assignsubmission_";

bool digits_only(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Canvas keeps only word characters, lowercased (and older Canvas '-'): an ASCII capital, a
// space or other punctuation means the name is not one of its downloads. Bytes of accented
// letters are kept, as Canvas keeps the letters.
bool canvas_name_characters(std::string_view text) {
  for (const char c : text) {
    const bool ascii = static_cast<unsigned char>(c) < 0x80;
    if (ascii && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
      return false;
    }
  }
  return true;
}

bool equals_folded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// "kernel-1" -> ("kernel", 1); "kernel" -> ("kernel", 0).
void split_resubmission(DownloadName& name) {
  name.original_base = name.original;
  const auto dash = name.original.rfind('-');
  if (dash == std::string::npos || dash == 0) return;
  const std::string_view number = std::string_view(name.original).substr(dash + 1);
  if (!digits_only(number) || number.size() > 4) return;
  std::from_chars(number.data(), number.data() + number.size(), name.resubmission);
  name.original_base = name.original.substr(0, dash);
}

std::vector<DownloadName> moodle_reading(std::string_view stem) {
  const auto marker = stem.find(kMoodleMarker);
  if (marker == std::string_view::npos) return {};
  const std::string_view prefix = stem.substr(0, marker);
  const auto cut = prefix.rfind('_');
  if (cut == std::string_view::npos || !digits_only(prefix.substr(cut + 1))) return {};
  DownloadName name;
  name.lms = Lms::moodle;
  name.name = std::string(prefix.substr(0, cut));
  name.id = std::string(prefix.substr(cut + 1));
  // After the marker: the plugin ("file"), then nothing (a folder), '_' (a folder, Moodle before
  // 4.1) or '_' and the file's name.
  const std::string_view rest = stem.substr(marker + kMoodleMarker.size());
  if (const auto underscore = rest.find('_'); underscore != std::string_view::npos) {
    name.original = std::string(rest.substr(underscore + 1));
  }
  split_resubmission(name);
  return {name};
}

std::vector<std::string_view> tokens_of(std::string_view stem) {
  std::vector<std::string_view> tokens;
  for (std::size_t start = 0;;) {
    const auto underscore = stem.find('_', start);
    tokens.push_back(stem.substr(start, underscore - start));
    if (underscore == std::string_view::npos) return tokens;
    start = underscore + 1;
  }
}

// The Canvas reading with the user id at token `at`, or nothing when the tokens do not fit.
std::optional<DownloadName> canvas_reading_at(const std::vector<std::string_view>& tokens,
                                              std::size_t at, std::string_view stem) {
  if (at + 2 >= tokens.size() || !digits_only(tokens[at]) || !digits_only(tokens[at + 1])) {
    return std::nullopt;
  }
  DownloadName name;
  name.id = std::string(tokens[at]);
  std::size_t name_tokens = at;
  if (name_tokens > 0 && equals_folded(tokens[name_tokens - 1], "late")) {
    name.late = true;
    --name_tokens;
  }
  for (std::size_t i = 0; i < name_tokens; ++i) {
    if (i > 0) name.name += '_';
    name.name += tokens[i];
  }
  if (!name.late && name.name.ends_with("-late")) {  // older Canvas: "smith--john-late_12345"
    name.late = true;
    name.name.resize(name.name.size() - 5);
  }
  if (!canvas_name_characters(name.name)) return std::nullopt;
  const std::string_view attachment = tokens[at + 1];
  if (attachment.size() > 19) return std::nullopt;  // no 64-bit id has more digits
  std::from_chars(attachment.data(), attachment.data() + attachment.size(), name.attachment);
  // The student's file name is the rest of the stem, '_' and all.
  name.original =
      std::string(stem.substr(static_cast<std::size_t>(tokens[at + 2].data() - stem.data())));
  if (name.original.empty()) return std::nullopt;
  split_resubmission(name);
  return name;
}

std::vector<DownloadName> canvas_readings(std::string_view stem) {
  const std::vector<std::string_view> tokens = tokens_of(stem);
  std::vector<DownloadName> readings;
  for (std::size_t at = 0; at + 2 < tokens.size(); ++at) {
    if (auto reading = canvas_reading_at(tokens, at, stem)) readings.push_back(std::move(*reading));
  }
  return readings;
}

}  // namespace

std::vector<DownloadName> read_download_name(std::string_view stem) {
  if (auto moodle = moodle_reading(stem); !moodle.empty()) return moodle;
  return canvas_readings(stem);
}

}  // namespace lms
