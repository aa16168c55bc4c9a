#include "slug.hpp"

#include <cstdint>
#include <set>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace intake {
namespace {

constexpr std::size_t kMaxSlug = 48;

struct Range {
  char32_t first;
  char32_t last;
  const char* ascii;
};

// Latin-1, Latin Extended-A, the Vietnamese letters and Russian Cyrillic: enough for most names
// in a class list. Ranges are searched in order; the first that holds the code point wins.
constexpr Range kTransliterations[] = {
    {0xC0, 0xC5, "a"},
    {0xC6, 0xC6, "ae"},
    {0xC7, 0xC7, "c"},
    {0xC8, 0xCB, "e"},
    {0xCC, 0xCF, "i"},
    {0xD0, 0xD0, "d"},
    {0xD1, 0xD1, "n"},
    {0xD2, 0xD6, "o"},
    {0xD8, 0xD8, "o"},
    {0xD9, 0xDC, "u"},
    {0xDD, 0xDD, "y"},
    {0xDE, 0xDE, "th"},
    {0xDF, 0xDF, "ss"},
    {0xE0, 0xE5, "a"},
    {0xE6, 0xE6, "ae"},
    {0xE7, 0xE7, "c"},
    {0xE8, 0xEB, "e"},
    {0xEC, 0xEF, "i"},
    {0xF0, 0xF0, "d"},
    {0xF1, 0xF1, "n"},
    {0xF2, 0xF6, "o"},
    {0xF8, 0xF8, "o"},
    {0xF9, 0xFC, "u"},
    {0xFD, 0xFD, "y"},
    {0xFE, 0xFE, "th"},
    {0xFF, 0xFF, "y"},
    // Latin Extended-A
    {0x100, 0x105, "a"},
    {0x106, 0x10D, "c"},
    {0x10E, 0x111, "d"},
    {0x112, 0x11B, "e"},
    {0x11C, 0x123, "g"},
    {0x124, 0x127, "h"},
    {0x128, 0x131, "i"},
    {0x132, 0x133, "ij"},
    {0x134, 0x135, "j"},
    {0x136, 0x138, "k"},
    {0x139, 0x142, "l"},
    {0x143, 0x14B, "n"},
    {0x14C, 0x151, "o"},
    {0x152, 0x153, "oe"},
    {0x154, 0x159, "r"},
    {0x15A, 0x161, "s"},
    {0x162, 0x167, "t"},
    {0x168, 0x173, "u"},
    {0x174, 0x175, "w"},
    {0x176, 0x178, "y"},
    {0x179, 0x17E, "z"},
    {0x17F, 0x17F, "s"},
    // Vietnamese: O and U with horn, then the Latin Extended Additional block's letters
    {0x1A0, 0x1A1, "o"},
    {0x1AF, 0x1B0, "u"},
    {0x1EA0, 0x1EB7, "a"},
    {0x1EB8, 0x1EC7, "e"},
    {0x1EC8, 0x1ECB, "i"},
    {0x1ECC, 0x1EE3, "o"},
    {0x1EE4, 0x1EF1, "u"},
    {0x1EF2, 0x1EF9, "y"},
    // Russian Cyrillic (upper case 0x410-0x42F, lower case 0x430-0x44F), BGN/PCGN style
    {0x401, 0x401, "e"},
    {0x451, 0x451, "e"}};

constexpr const char* kCyrillic[32] = {
    "a", "b", "v", "g", "d", "e",  "zh", "z",  "i",  "y",    "k", "l", "m", "n", "o",  "p",
    "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "",  "y", "",  "e", "yu", "ya"};

// What a code point becomes in a slug: letters and digits as ASCII, nullptr for a separator
// (spaces, punctuation, '_' and '-' alike, so "Smith_John" and "Smith-John" read the same).
const char* ascii_for(char32_t c, char (&one)[2]) {
  if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
    one[0] = static_cast<char>(c);
    return one;
  }
  if (c >= 'A' && c <= 'Z') {
    one[0] = static_cast<char>(c - 'A' + 'a');
    return one;
  }
  // Apostrophes join: "O'Brien" is one word.
  if (c == '\'' || c == 0x2019 || c == 0x2BC) return "";
  if (c >= 0x410 && c <= 0x44F) return kCyrillic[(c - 0x410) % 32];
  for (const Range& range : kTransliterations) {
    if (c >= range.first && c <= range.last) return range.ascii;
  }
  return nullptr;
}

// Only a trailing '-' can appear (a separator is written before a word, never at the start), and
// only when the length cut falls right after one.
std::string without_trailing_dash(std::string slug) {
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

std::uint32_t fnv1a(std::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (const char c : text) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  }
  return hash;
}

}  // namespace

std::string slugify(std::string_view student) {
  std::string slug;
  bool pending_separator = false;
  char32_t c = 0;
  for (std::size_t i = 0; i < student.size();) {
    const std::size_t length = common::utf8::decode(student, i, c);
    char one[2] = {0, 0};
    const char* ascii = length == 0 ? nullptr : ascii_for(c, one);
    i += length == 0 ? 1 : length;
    if (ascii == nullptr) {
      pending_separator = true;
      continue;
    }
    if (*ascii == '\0') continue;
    if (pending_separator && !slug.empty()) slug += '-';
    pending_separator = false;
    slug += ascii;
  }
  slug = without_trailing_dash(slug.substr(0, kMaxSlug));
  if (slug.empty()) slug = fmt::format("student-{:08x}", fnv1a(student));
  return slug;
}

std::vector<std::string> unique_slugs(const std::vector<std::string>& students) {
  std::vector<std::string> slugs;
  slugs.reserve(students.size());
  for (const std::string& student : students) slugs.push_back(slugify(student));

  std::set<std::string> taken(slugs.begin(), slugs.end());
  std::set<std::string> seen;
  for (std::string& slug : slugs) {
    if (seen.insert(slug).second) continue;  // the first with this slug keeps it
    for (int n = 2;; ++n) {
      std::string candidate = fmt::format("{}-{}", slug, n);
      if (taken.insert(candidate).second) {
        slug = std::move(candidate);
        break;
      }
    }
  }
  return slugs;
}

}  // namespace intake
