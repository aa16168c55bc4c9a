#include "batch/line_directives.hpp"

#include <cctype>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace batch {
namespace {

// The preprocessor's view of a source, reduced to what decides a directive: every comment and
// literal becomes one space, splices are removed, and each character keeps the line it started
// on (lines[i] for text[i]).
class Reducer {
 public:
  explicit Reducer(std::string_view source) : in_(source) {}

  void run() {
    while (pos_ < in_.size()) {
      if (splice()) continue;
      const char c = in_[pos_];
      if (c == '/' && next_is('/')) {
        line_comment();
      } else if (c == '/' && next_is('*')) {
        block_comment();
      } else if (c == 'R' && next_is('"') && raw_prefix_before()) {
        raw_string();
      } else if (c == '"' || (c == '\'' && !digit_separator())) {
        quoted(c);
      } else {
        put(c);
        ++pos_;
      }
    }
  }

  std::string text;
  std::vector<int> lines;

 private:
  bool next_is(char c) {
    std::size_t at = pos_ + 1;
    while (at + 1 < in_.size() && in_[at] == '\\' && in_[at + 1] == '\n') at += 2;
    return at < in_.size() && in_[at] == c;
  }
  static bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
  // The identifier (or number) the output ends with.
  std::string_view token_before() const {
    std::size_t start = text.size();
    while (start > 0 &&
           (word_char(text[start - 1]) || text[start - 1] == '.' || text[start - 1] == '\'')) {
      --start;
    }
    return std::string_view(text).substr(start);
  }
  // R" starts a raw string alone or after an encoding prefix (LR", u8R"...), not after a name.
  bool raw_prefix_before() const {
    const auto token = token_before();
    return token.empty() || token == "L" || token == "u" || token == "U" || token == "u8";
  }
  // A ' inside a number and before a digit or letter is a digit separator (1'000'000), not a
  // character literal (a pp-number continues with ' only so: 1'0'/*' is 1'0 and '/*').
  bool digit_separator() const {
    const auto token = token_before();
    const bool number =
        !token.empty() && (std::isdigit(static_cast<unsigned char>(token.front())) ||
                           (token.front() == '.' && token.size() > 1 &&
                            std::isdigit(static_cast<unsigned char>(token[1]))));
    return number && pos_ + 1 < in_.size() && word_char(in_[pos_ + 1]);
  }
  bool splice() {
    if (in_[pos_] == '\\' && pos_ + 1 < in_.size() && in_[pos_ + 1] == '\n') {
      pos_ += 2;
      ++line_;
      return true;
    }
    return false;
  }
  void put(char c) {
    text += c;
    lines.push_back(line_);
    if (c == '\n') ++line_;
  }
  void advance() {  // one source character inside a comment or literal (its newlines counted)
    if (!splice()) {
      if (in_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }
  void line_comment() {
    put(' ');
    while (pos_ < in_.size() && in_[pos_] != '\n') advance();
  }
  void block_comment() {
    put(' ');
    pos_ += 2;
    while (pos_ < in_.size() && !(in_[pos_] == '*' && next_is('/'))) advance();
    if (pos_ < in_.size()) advance();  // '*'
    if (pos_ < in_.size()) advance();  // '/'
  }
  void quoted(char quote) {
    put(' ');
    ++pos_;
    while (pos_ < in_.size() && in_[pos_] != quote && in_[pos_] != '\n') {
      if (in_[pos_] == '\\' && pos_ + 1 < in_.size() && in_[pos_ + 1] != '\n') ++pos_;
      advance();
    }
    if (pos_ < in_.size() && in_[pos_] == quote) ++pos_;
  }
  void raw_string() {  // R"delim( ... )delim"
    const auto open = in_.find('(', pos_ + 2);
    if (open == std::string_view::npos) {
      put('R');
      ++pos_;
      return;
    }
    const std::string close = ")" + std::string(in_.substr(pos_ + 2, open - pos_ - 2)) + "\"";
    const auto end = in_.find(close, open);
    const auto stop = end == std::string_view::npos ? in_.size() : end + close.size();
    put(' ');
    while (pos_ < stop) {
      if (in_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }

  std::string_view in_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

std::optional<int> first_line_directive(std::string_view source) {
  Reducer reduced(source);
  reduced.run();
  const std::string& text = reduced.text;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
    } else if (line_start && c == '#') {
      std::size_t at = i + 1;
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
      const bool digit = at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]));
      const bool word =
          text.compare(at, 4, "line") == 0 &&
          (at + 4 >= text.size() ||
           !(std::isalnum(static_cast<unsigned char>(text[at + 4])) || text[at + 4] == '_'));
      if (digit || word) return reduced.lines[i];
      line_start = false;
    } else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') {
      line_start = false;
    }
  }
  return std::nullopt;
}

std::optional<std::string> line_directive_problem(const std::filesystem::path& folder,
                                                  const std::vector<std::string>& sources) {
  for (const auto& name : sources) {
    std::ifstream in(folder / name, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (const auto line = first_line_directive(text)) {
      return fmt::format(
          "{}:{}: #line (or a line marker) is not allowed: it would hide your code's lines "
          "from the checks' reports",
          name, *line);
    }
  }
  return std::nullopt;
}

}  // namespace batch
