// The rewriter's one pass (rewrite.hpp's rewrite): shared by rewrite.cpp (directives, the scan,
// kernel launches) and rewrite_kernel_code.cpp (the bounds checks of kernel code, __shared__).
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rewrite.hpp"
#include "tokenizer.hpp"

namespace emu::rewriter::detail {

// A replacement of the source bytes [begin, end) by `text`.
struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

inline int count_newlines(std::string_view text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

inline std::string quote_path(std::string_view path) {
  std::string out = "\"";
  for (char ch : path) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// Where a brace opens: the rewriter must know whether a declaration is inside a function.
enum class Scope { namespace_scope, class_scope, function_body, block, initializer };

class Rewriter {
 public:
  Rewriter(std::string_view source, const RewriteOptions& options);

  RewriteResult run();

  // For #define bodies: only the launches, on text that has no directives of its own.
  static std::string rewrite_launches_only(std::string_view text, const RewriteOptions& options,
                                           std::vector<std::string>& errors, int& launches);

 private:
  static std::string apply_edits(std::string_view text, std::vector<Edit> edits);

  const Token& sig(std::size_t k) const { return tokens_[sig_[k]]; }
  bool sig_is(std::size_t k, std::string_view text) const {
    return k < sig_.size() && sig(k).text == text;
  }
  std::size_t end_of(std::size_t k) const { return sig(k).offset + sig(k).text.size(); }

  void error(int line, const std::string& message) {
    errors_.push_back(options_.source_path + ":" + std::to_string(line) + ": error: " + message);
  }

  // ---- preprocessor lines and the pass (rewrite.cpp) --------------------------------------
  void directive(const Token& token);
  void scan();
  static bool in_function(const std::vector<Scope>& scopes) {
    return std::any_of(scopes.begin(), scopes.end(),
                       [](Scope s) { return s == Scope::function_body || s == Scope::block; });
  }
  Scope classify(const std::vector<Scope>& scopes, std::size_t begin, std::size_t brace) const;

  // ---- kernel launches (rewrite.cpp) ------------------------------------------------------
  std::optional<std::size_t> callee_start(std::size_t end) const;
  std::optional<std::size_t> launch_close(std::size_t open) const;
  void launch(std::size_t open);

  // ---- bounds checks in kernel code, emu/access.hpp (rewrite_kernel_code.cpp) --------------
  bool is_device_function(std::size_t begin, std::size_t brace) const;
  void track_pointer_parameters(std::size_t begin, std::size_t brace);
  void device_identifier(std::size_t k);
  bool is_checked_subscript(std::size_t k) const;
  std::optional<std::size_t> subscripts_end(std::size_t k) const;
  const char* access_of(std::size_t k, std::size_t last) const;
  bool is_update(std::size_t k) const;

  // ---- __shared__ (rewrite_kernel_code.cpp) -----------------------------------------------
  std::vector<std::size_t> without_attributes(std::size_t begin, std::size_t end) const;
  void shared(std::size_t at, std::size_t statement_start, bool inside_function);
  std::vector<std::string> declarator_names(std::size_t begin, std::size_t end) const;
  void extern_shared(std::size_t begin, std::size_t end, int line);

  std::string_view source_;
  RewriteOptions options_;
  std::vector<Token> tokens_;
  std::vector<std::size_t> sig_;  // indices of the tokens that are not blanks or directives
  std::vector<Edit> edits_;
  std::vector<std::string> errors_;
  int launches_ = 0;
  int shared_ = 0;
  int checked_ = 0;
  bool launches_only_ = false;
  // Kernel code: the scope depth of the __global__/__device__ function being scanned (0 outside
  // one), and the names whose subscripts are checked there.
  enum class Tracked { pointer, static_shared };
  std::size_t device_depth_ = 0;
  std::map<std::string, Tracked> tracked_;
  std::size_t declaration_end_ = 0;  // the end of the __shared__ declaration being scanned
};

}  // namespace emu::rewriter::detail
