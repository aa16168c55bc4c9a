#include "rewrite.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>

#include "rewriter_class.hpp"

namespace emu::rewriter {
namespace detail {

namespace fs = std::filesystem;

Rewriter::Rewriter(std::string_view source, const RewriteOptions& options)
    : source_(source), options_(options), tokens_(tokenize(source)) {
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    if (!is_blank(tokens_[i]) && tokens_[i].kind != TokenKind::directive) sig_.push_back(i);
  }
}

RewriteResult Rewriter::run() {
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    if (tokens_[i].kind == TokenKind::directive) directive(tokens_[i]);
  }
  scan();
  RewriteResult result;
  result.errors = std::move(errors_);
  result.launches = launches_;
  result.shared_declarations = shared_;
  result.checked_subscripts = checked_;
  result.text = "#include <cuda_runtime.h>\n#line 1 " + quote_path(options_.source_path) + "\n";
  result.text += apply_edits(source_, edits_);
  return result;
}

std::string Rewriter::rewrite_launches_only(std::string_view text, const RewriteOptions& options,
                                            std::vector<std::string>& errors, int& launches) {
  Rewriter inner(text, options);
  inner.launches_only_ = true;
  inner.scan();
  errors.insert(errors.end(), inner.errors_.begin(), inner.errors_.end());
  launches += inner.launches_;
  return apply_edits(text, inner.edits_);
}

std::string Rewriter::apply_edits(std::string_view text, std::vector<Edit> edits) {
  // Stable: insertions at one place (a checked subscript's prefix) keep the order they were made.
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  std::size_t at = 0;
  for (const auto& edit : edits) {
    if (edit.begin < at) continue;  // overlapping edits: the first wins
    out.append(text.substr(at, edit.begin - at));
    out += edit.text;
    at = edit.end;
  }
  out.append(text.substr(at));
  return out;
}

// ---- preprocessor lines ----------------------------------------------------------------

void Rewriter::directive(const Token& token) {
  static const std::regex include_re(R"re(^(\s*#\s*include\s*)"([^"]+)"([^]*)$)re");
  static const std::regex define_re(R"re(^\s*#\s*define\s)re");
  const std::string text(token.text);
  std::smatch match;
  if (options_.resolve_includes && std::regex_match(text, match, include_re)) {
    const fs::path source_dir = fs::path(options_.source_path).parent_path();
    const fs::path candidate = source_dir / match[2].str();
    std::error_code ignored;
    if (!source_dir.empty() && fs::exists(candidate, ignored)) {
      const auto absolute = fs::absolute(candidate, ignored).lexically_normal().string();
      edits_.push_back({token.offset, token.offset + token.text.size(),
                        match[1].str() + quote_path(absolute) + match[3].str()});
    }
  } else if (std::smatch define;
             std::regex_search(text, define, define_re) && text.find("<<<") != std::string::npos) {
    // The macro's body, after "#define", is C++ again.
    const std::size_t body = static_cast<std::size_t>(define.position(0) + define.length(0));
    edits_.push_back({token.offset + body, token.offset + token.text.size(),
                      rewrite_launches_only(text.substr(body), options_, errors_, launches_)});
  }
}

// ---- one pass over the significant tokens ---------------------------------------------

void Rewriter::scan() {
  std::vector<Scope> scopes;
  std::size_t statement_start = 0;
  for (std::size_t k = 0; k < sig_.size(); ++k) {
    const auto text = sig(k).text;
    if (text == "<<<") {
      launch(k);
    } else if (launches_only_) {
      continue;
    } else if (text == "{") {
      const Scope scope = classify(scopes, statement_start, k);
      scopes.push_back(scope);
      if (scope == Scope::function_body && is_device_function(statement_start, k)) {
        device_depth_ = scopes.size();
        track_pointer_parameters(statement_start, k);
      }
      statement_start = k + 1;
    } else if (text == "}") {
      if (!scopes.empty() && scopes.size() == device_depth_) {
        device_depth_ = 0;
        tracked_.clear();
      }
      if (!scopes.empty()) scopes.pop_back();
      statement_start = k + 1;
    } else if (text == ";") {
      statement_start = k + 1;
    } else if (text == "__shared__") {
      shared(k, statement_start, in_function(scopes));
    } else if (device_depth_ > 0 && k >= declaration_end_ && sig(k).kind == TokenKind::identifier) {
      device_identifier(k);
    }
  }
}

Scope Rewriter::classify(const std::vector<Scope>& scopes, std::size_t begin,
                         std::size_t brace) const {
  if (in_function(scopes)) return Scope::block;
  if (begin >= brace) return Scope::block;
  const auto first = sig(begin).text;
  if (first == "namespace" || (first == "inline" && sig_is(begin + 1, "namespace"))) {
    return Scope::namespace_scope;
  }
  if (first == "extern" && begin + 1 < brace && sig(begin + 1).kind == TokenKind::string) {
    return Scope::namespace_scope;
  }
  bool has_paren = false;
  for (std::size_t k = begin; k < brace; ++k) {
    if (sig(k).text == "=") return Scope::initializer;
    if (sig(k).text == ")") has_paren = true;
  }
  return has_paren ? Scope::function_body : Scope::class_scope;
}

// ---- kernel launches -----------------------------------------------------------------

// Index of the first token of the id-expression (or parenthesized expression) that ends just
// before `end`, e.g. `ns::kernel<float, 4>` or `(kernel)`.
std::optional<std::size_t> Rewriter::callee_start(std::size_t end) const {
  if (end == 0) return std::nullopt;
  std::size_t k = end - 1;
  if (sig(k).text == ")") {
    int depth = 0;
    while (true) {
      if (sig(k).text == ")") ++depth;
      if (sig(k).text == "(" && --depth == 0) return k;
      if (k == 0) return std::nullopt;
      --k;
    }
  }
  while (true) {
    // Template arguments: walk back to the matching '<'.
    const auto closers = [](std::string_view t) {
      return t == ">" ? 1 : t == ">>" ? 2 : t == ">>>" ? 3 : 0;
    };
    if (closers(sig(k).text) > 0) {
      int depth = 0;
      while (true) {
        const auto t = sig(k).text;
        depth += closers(t);
        if (t == "<") --depth;
        if (t == "<<") depth -= 2;
        if (depth <= 0) break;
        if (k == 0) return std::nullopt;
        --k;
      }
      if (k == 0) return std::nullopt;
      --k;
    }
    if (sig(k).kind != TokenKind::identifier) return std::nullopt;
    std::size_t start = k;
    if (k == 0 || sig(k - 1).text != "::") return start;
    start = k - 1;  // '::'
    if (start == 0) return start;
    const auto& before = sig(start - 1);
    if (before.kind != TokenKind::identifier && before.text != ">" && before.text != ">>") {
      return start;  // a leading '::'
    }
    k = start - 1;
  }
}

// The '>>>' that closes the launch configuration opened at `open`.
std::optional<std::size_t> Rewriter::launch_close(std::size_t open) const {
  int depth = 0;
  for (std::size_t k = open + 1; k < sig_.size(); ++k) {
    const auto t = sig(k).text;
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") --depth;
    if (depth < 0) break;
    if (depth == 0 && t == ">>>") return k;
  }
  return std::nullopt;
}

void Rewriter::launch(std::size_t open) {
  const int line = sig(open).line;
  const auto start = callee_start(open);
  if (!start) {
    error(line,
          "'<<<' must follow the name of a __global__ function, as in kernel<<<grid, "
          "block>>>(...)");
    return;
  }
  const auto close = launch_close(open);
  if (!close) {
    error(line, "this kernel launch has no closing '>>>'");
    return;
  }
  if (*close + 1 >= sig_.size() || sig(*close + 1).text != "(") {
    error(line,
          "a kernel launch needs its argument list after '>>>', as in kernel<<<grid, "
          "block>>>(args)");
    return;
  }
  std::string callee;
  for (std::size_t k = *start; k < open; ++k) {
    if (!callee.empty()) callee += ' ';
    callee += sig(k).text;
  }
  const std::size_t begin = sig(*start).offset;
  const std::size_t config_begin = end_of(open);
  const std::size_t config_end = sig(*close).offset;
  std::string text = "::emu::launch(::emu::KernelSite{" + quote_path(callee) +
                     ", __FILE__, __LINE__}, [&](auto&... emu_args_) { " + callee +
                     "(emu_args_...); }, ";
  text += source_.substr(config_begin, config_end - config_begin);
  text += ")";
  // Newlines between the callee and '<<<' move after the call: lines stay where they were.
  text += std::string(count_newlines(source_.substr(begin, config_begin - begin)), '\n');
  edits_.push_back({begin, end_of(*close), std::move(text)});
  ++launches_;
}

}  // namespace detail

RewriteResult rewrite(std::string_view source, const RewriteOptions& options) {
  return detail::Rewriter(source, options).run();
}

}  // namespace emu::rewriter
