#include "tokenizer.hpp"

#include <array>
#include <cctype>

namespace emu::rewriter {
namespace {

bool is_identifier_start(char ch) {
  return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$';
}
bool is_identifier_char(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$';
}

// Longest first: the first match wins.
constexpr std::array<std::string_view, 27> kPunctuators = {
    "<<<", ">>>", "<=>", "<<=", ">>=", "...", "->*", "::", "->", "++", "--", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^="};

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  std::vector<Token> run() {
    bool line_start = true;  // only blanks so far on this line: a '#' starts a directive
    while (pos_ < src_.size()) {
      const std::size_t start = pos_;
      const int line = line_;
      const TokenKind kind = next(line_start);
      tokens_.push_back({kind, src_.substr(start, pos_ - start), start, line});
      if (kind == TokenKind::newline || kind == TokenKind::directive) {
        line_start = true;
      } else if (kind != TokenKind::space && kind != TokenKind::comment) {
        line_start = false;
      }
    }
    return std::move(tokens_);
  }

 private:
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool starts_with(std::string_view text) const { return src_.substr(pos_, text.size()) == text; }
  void advance(std::size_t count = 1) {
    for (std::size_t i = 0; i < count && pos_ < src_.size(); ++i) {
      if (src_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }
  bool at_continuation() const {
    return peek() == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'));
  }

  TokenKind next(bool line_start) {
    const char ch = peek();
    if (ch == '\n') {
      advance();
      return TokenKind::newline;
    }
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v' || at_continuation()) {
      while (peek() == ' ' || peek() == '\t' || peek() == '\r' || peek() == '\f' ||
             peek() == '\v' || at_continuation()) {
        advance(at_continuation() ? (peek(1) == '\r' ? 3 : 2) : 1);
      }
      return TokenKind::space;
    }
    if (starts_with("//")) {
      while (pos_ < src_.size() && peek() != '\n') advance(at_continuation() ? 2 : 1);
      return TokenKind::comment;
    }
    if (starts_with("/*")) {
      advance(2);
      while (pos_ < src_.size() && !starts_with("*/")) advance();
      advance(2);
      return TokenKind::comment;
    }
    if (ch == '#' && line_start) return directive();
    if (is_identifier_start(ch)) return word();
    if (std::isdigit(static_cast<unsigned char>(ch)) ||
        (ch == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      return number();
    }
    if (ch == '"') return quoted('"', TokenKind::string);
    if (ch == '\'') return quoted('\'', TokenKind::character);
    for (const auto punct : kPunctuators) {
      if (starts_with(punct)) {
        advance(punct.size());
        return TokenKind::punct;
      }
    }
    advance();
    return TokenKind::punct;
  }

  // An identifier, or the prefix of a string or character literal (R"(...)", u8"...", L'x').
  TokenKind word() {
    const std::size_t start = pos_;
    while (is_identifier_char(peek())) advance();
    const auto word = src_.substr(start, pos_ - start);
    const bool string_prefix = word == "R" || word == "u8R" || word == "uR" || word == "UR" ||
                               word == "LR" || word == "L" || word == "u8" || word == "u" ||
                               word == "U";
    if (string_prefix && peek() == '"') {
      if (word.back() == 'R') return raw_string();
      return quoted('"', TokenKind::string);
    }
    if (string_prefix && peek() == '\'') return quoted('\'', TokenKind::character);
    return TokenKind::identifier;
  }

  // pp-number: digits, letters, dots, digit separators and exponent signs.
  TokenKind number() {
    while (true) {
      const char c = peek();
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(1) == '+' || peek(1) == '-')) {
        advance(2);
      } else if (is_identifier_char(c) || c == '.' || (c == '\'' && is_identifier_char(peek(1)))) {
        advance();
      } else {
        break;
      }
    }
    return TokenKind::number;
  }

  TokenKind quoted(char quote, TokenKind kind) {
    advance();  // the opening quote
    while (pos_ < src_.size() && peek() != quote && peek() != '\n') {
      advance(peek() == '\\' ? 2 : 1);
    }
    if (peek() == quote) advance();
    return kind;
  }

  TokenKind raw_string() {
    advance();  // '"'
    const std::size_t start = pos_;
    while (pos_ < src_.size() && peek() != '(' && peek() != '\n') advance();
    const std::string terminator = ")" + std::string(src_.substr(start, pos_ - start)) + "\"";
    while (pos_ < src_.size() && !starts_with(terminator)) advance();
    advance(terminator.size());
    return TokenKind::string;
  }

  // The whole logical line; comments inside it are part of it.
  TokenKind directive() {
    while (pos_ < src_.size() && peek() != '\n') {
      if (at_continuation()) {
        advance(peek(1) == '\r' ? 3 : 2);
      } else if (starts_with("/*")) {
        advance(2);
        while (pos_ < src_.size() && !starts_with("*/")) advance();
        advance(2);
      } else if (starts_with("//")) {
        while (pos_ < src_.size() && peek() != '\n') advance();
      } else if (peek() == '"' || peek() == '\'') {
        quoted(peek(), TokenKind::string);
      } else {
        advance();
      }
    }
    return TokenKind::directive;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace emu::rewriter
