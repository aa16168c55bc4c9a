// A C++ tokenizer just good enough to rewrite CUDA sources: it knows comments, string and
// character literals (raw strings too), preprocessor lines and punctuators, so that a "<<<" inside
// a comment or a string is never taken for a kernel launch. It keeps every byte: the tokens, laid
// end to end, are the source again.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace emu::rewriter {

enum class TokenKind {
  identifier,
  number,
  string,     // "...", R"(...)", with any prefix (u8, L, ...)
  character,  // '...'
  punct,      // operators and punctuators, "<<<" and ">>>" as single tokens
  comment,    // // ... and /* ... */
  space,      // spaces, tabs and line continuations
  newline,
  directive,  // a whole preprocessor line (with its continuations), e.g. #include "lab1.h"
};

struct Token {
  TokenKind kind;
  std::string_view text;
  std::size_t offset = 0;  // into the source
  int line = 1;            // where the token starts, from 1
};

// Splits `source` into tokens; never fails (an unterminated literal runs to the end of its line).
std::vector<Token> tokenize(std::string_view source);

// Comments, spaces and newlines: what the rewriter looks through.
inline bool is_blank(const Token& token) {
  return token.kind == TokenKind::comment || token.kind == TokenKind::space ||
         token.kind == TokenKind::newline;
}

}  // namespace emu::rewriter
