#include "rewrite.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>

#include "tokenizer.hpp"

namespace emu::rewriter {
namespace {

namespace fs = std::filesystem;

// A replacement of the source bytes [begin, end) by `text`.
struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

int count_newlines(std::string_view text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::string quote_path(std::string_view path) {
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
  Rewriter(std::string_view source, const RewriteOptions& options)
      : source_(source), options_(options), tokens_(tokenize(source)) {
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (!is_blank(tokens_[i]) && tokens_[i].kind != TokenKind::directive) sig_.push_back(i);
    }
  }

  RewriteResult run() {
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

  // For #define bodies: only the launches, on text that has no directives of its own.
  static std::string rewrite_launches_only(std::string_view text, const RewriteOptions& options,
                                           std::vector<std::string>& errors, int& launches) {
    Rewriter inner(text, options);
    inner.launches_only_ = true;
    inner.scan();
    errors.insert(errors.end(), inner.errors_.begin(), inner.errors_.end());
    launches += inner.launches_;
    return apply_edits(text, inner.edits_);
  }

 private:
  static std::string apply_edits(std::string_view text, std::vector<Edit> edits) {
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

  const Token& sig(std::size_t k) const { return tokens_[sig_[k]]; }
  bool sig_is(std::size_t k, std::string_view text) const {
    return k < sig_.size() && sig(k).text == text;
  }
  std::size_t end_of(std::size_t k) const { return sig(k).offset + sig(k).text.size(); }

  void error(int line, const std::string& message) {
    errors_.push_back(options_.source_path + ":" + std::to_string(line) + ": error: " + message);
  }

  // ---- preprocessor lines ----------------------------------------------------------------

  void directive(const Token& token) {
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
    } else if (std::smatch define; std::regex_search(text, define, define_re) &&
                                   text.find("<<<") != std::string::npos) {
      // The macro's body, after "#define", is C++ again.
      const std::size_t body = static_cast<std::size_t>(define.position(0) + define.length(0));
      edits_.push_back({token.offset + body, token.offset + token.text.size(),
                        rewrite_launches_only(text.substr(body), options_, errors_, launches_)});
    }
  }

  // ---- one pass over the significant tokens ---------------------------------------------

  void scan() {
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
      } else if (device_depth_ > 0 && k >= declaration_end_ &&
                 sig(k).kind == TokenKind::identifier) {
        device_identifier(k);
      }
    }
  }

  // ---- bounds checks in kernel code (emu/access.hpp) -------------------------------------

  // Whether the declaration [begin, brace) is of a __global__ or __device__ function.
  bool is_device_function(std::size_t begin, std::size_t brace) const {
    for (std::size_t k = begin; k < brace; ++k) {
      if (sig(k).text == "__global__" || sig(k).text == "__device__") return true;
    }
    return false;
  }

  // The parameters of the function whose body opens at `brace` that are pointers (or arrays).
  void track_pointer_parameters(std::size_t begin, std::size_t brace) {
    std::size_t close = brace;
    while (close > begin && sig(close - 1).text != ")") --close;
    if (close == begin) return;
    --close;  // the ')' of the parameter list
    std::size_t open = close;
    for (int depth = 0; open > begin; --open) {
      if (sig(open).text == ")") ++depth;
      if (sig(open).text == "(" && --depth == 0) break;
    }
    std::string name;
    bool pointer = false;
    int depth = 0;
    for (std::size_t k = open + 1; k <= close; ++k) {
      const auto t = sig(k).text;
      if (k == close || (depth == 0 && t == ",")) {
        if (pointer && !name.empty()) tracked_[name] = Tracked::pointer;
        name.clear();
        pointer = false;
        continue;
      }
      if (t == "(" || t == "<" || t == "{") ++depth;
      if (t == ")" || t == ">" || t == "}") --depth;
      if (depth != 0) continue;
      if (t == "*" || t == "[") pointer = true;
      if (sig(k).kind == TokenKind::identifier && t != "const" && t != "__restrict__" &&
          t != "volatile" && t != "restrict") {
        name = std::string(t);
      }
    }
  }

  // An identifier in kernel code: a pointer it declares (`T* name =`) is tracked from here on, and
  // a subscript of a tracked name is checked.
  void device_identifier(std::size_t k) {
    const std::string name(sig(k).text);
    const bool followed_by_declarator_end =
        k + 1 < sig_.size() && (sig_is(k + 1, "=") || sig_is(k + 1, ";") || sig_is(k + 1, ","));
    if (k > 0 && sig(k - 1).text == "*" && followed_by_declarator_end) {
      // `T* name = ...` declares a pointer; `a * b;` would be an expression with no effect. A
      // name tracked wrongly costs nothing: only its subscripts are wrapped, and they mean the
      // same.
      if (!tracked_.count(name)) tracked_[name] = Tracked::pointer;
      return;
    }
    const auto it = tracked_.find(name);
    if (it == tracked_.end() || !sig_is(k + 1, "[")) return;
    if (k > 0) {
      const auto& before = sig(k - 1);
      // A member (`s.A[i]`), a qualified name, a declaration (`float A[4]`) or an address (`&A[i]`:
      // no access) is left alone.
      if (before.text == "." || before.text == "->" || before.text == "::" || before.text == "&") {
        return;
      }
      if (before.kind == TokenKind::identifier && before.text != "return" &&
          before.text != "case" && before.text != "else" && before.text != "do") {
        return;
      }
    }
    // The whole chain of subscripts: `As[ty][tx]`.
    std::size_t last = k;
    while (sig_is(last + 1, "[")) {
      int depth = 0;
      std::size_t j = last + 1;
      for (; j < sig_.size(); ++j) {
        const auto t = sig(j).text;
        if (t == "(" || t == "[" || t == "{") ++depth;
        if (t == ")" || t == "]" || t == "}") --depth;
        if (depth == 0) break;
      }
      if (j >= sig_.size() || sig(j).text != "]") return;
      last = j;
    }
    // A write when the element (or a member of it) is assigned; an update when `+=` or `++` reads
    // and writes it (a read for the bounds checks, both for the race check).
    std::size_t after = last + 1;
    while ((sig_is(after, ".") || sig_is(after, "->")) && after + 1 < sig_.size() &&
           sig(after + 1).kind == TokenKind::identifier) {
      after += 2;
    }
    const char* access = ", ::emu::Access::read)";
    if (sig_is(after, "=")) {
      access = ", ::emu::Access::write)";
    } else if (is_update(after) ||
               (k > 0 && (sig(k - 1).text == "++" || sig(k - 1).text == "--"))) {
      access = ", ::emu::Access::update)";
    }
    const std::string site = ", __FILE__, " + std::to_string(sig(k).line) + access;
    if (it->second == Tracked::static_shared) {
      edits_.push_back({sig(k).offset, sig(k).offset, "::emu::at_shared("});
      edits_.push_back({end_of(last), end_of(last), ", " + name + ", \"" + name + "\"" + site});
    } else {
      edits_.push_back({sig(k).offset, sig(k).offset, "::emu::at("});
      edits_.push_back({end_of(last), end_of(last), site});
    }
    ++checked_;
  }

  // `+=`, `<<=`, `++`... after an element: it is read and written.
  bool is_update(std::size_t k) const {
    static constexpr std::string_view kUpdates[] = {
        "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
    if (k >= sig_.size()) return false;
    return std::find(std::begin(kUpdates), std::end(kUpdates), sig(k).text) != std::end(kUpdates);
  }

  static bool in_function(const std::vector<Scope>& scopes) {
    return std::any_of(scopes.begin(), scopes.end(),
                       [](Scope s) { return s == Scope::function_body || s == Scope::block; });
  }

  Scope classify(const std::vector<Scope>& scopes, std::size_t begin, std::size_t brace) const {
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
  std::optional<std::size_t> callee_start(std::size_t end) const {
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

  void launch(std::size_t open) {
    const int line = sig(open).line;
    const auto start = callee_start(open);
    if (!start) {
      error(line,
            "'<<<' must follow the name of a __global__ function, as in kernel<<<grid, "
            "block>>>(...)");
      return;
    }
    int depth = 0;
    std::optional<std::size_t> close;
    for (std::size_t k = open + 1; k < sig_.size(); ++k) {
      const auto t = sig(k).text;
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") --depth;
      if (depth < 0) break;
      if (depth == 0 && t == ">>>") {
        close = k;
        break;
      }
    }
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

  // ---- __shared__ ------------------------------------------------------------------------

  // Drops __align__(n), alignas(n) and __attribute__((...)) from a token range.
  std::vector<std::size_t> without_attributes(std::size_t begin, std::size_t end) const {
    std::vector<std::size_t> kept;
    for (std::size_t k = begin; k < end; ++k) {
      const auto t = sig(k).text;
      if ((t == "__align__" || t == "alignas" || t == "__attribute__") && sig_is(k + 1, "(")) {
        int depth = 0;
        for (++k; k < end; ++k) {
          if (sig(k).text == "(") ++depth;
          if (sig(k).text == ")" && --depth == 0) break;
        }
        continue;
      }
      kept.push_back(k);
    }
    return kept;
  }

  void shared(std::size_t at, std::size_t statement_start, bool inside_function) {
    const int line = sig(at).line;
    int depth = 0;
    std::optional<std::size_t> end;
    for (std::size_t k = at + 1; k < sig_.size(); ++k) {
      const auto t = sig(k).text;
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") --depth;
      if (depth == 0 && t == ";") {
        end = k;
        break;
      }
      if (depth < 0) break;
    }
    if (!end) return;  // not a declaration we understand: leave it to the compiler
    bool is_extern = false;
    for (std::size_t k = statement_start; k < *end; ++k) is_extern |= sig(k).text == "extern";
    ++shared_;
    declaration_end_ = *end;  // its names are declared, not subscripted
    if (is_extern) {
      extern_shared(statement_start, *end, line);
      return;
    }
    if (!inside_function) return;  // namespace scope: the __shared__ macro alone does the job
    std::string notes;
    for (const auto& name : declarator_names(at + 1, *end)) {
      notes += " ::emu::note_shared(" + name + ");";
      if (device_depth_ > 0) tracked_[name] = Tracked::static_shared;
    }
    edits_.push_back({end_of(*end), end_of(*end), notes});
  }

  // Names declared in [begin, end): per top-level comma, the last identifier before the first
  // '[', '=', '(' or '{'.
  std::vector<std::string> declarator_names(std::size_t begin, std::size_t end) const {
    std::vector<std::string> names;
    const auto kept = without_attributes(begin, end);
    std::string last;
    bool stopped = false;
    int depth = 0;
    for (const std::size_t k : kept) {
      const auto t = sig(k).text;
      if (depth == 0 && t == ",") {
        if (!last.empty()) names.push_back(last);
        last.clear();
        stopped = false;
        continue;
      }
      if (t == "(" || t == "[" || t == "{" || t == "<") {
        if (depth == 0 && t != "<") stopped = true;
        ++depth;
        continue;
      }
      if (t == ")" || t == "]" || t == "}" || t == ">") {
        --depth;
        continue;
      }
      if (depth == 0 && t == "=") stopped = true;
      if (!stopped && depth == 0 && sig(k).kind == TokenKind::identifier) last = std::string(t);
    }
    if (!last.empty()) names.push_back(last);
    return names;
  }

  // extern __shared__ T name[];  ->  static thread_local T* const name =
  // ::emu::dynamic_shared<T>();
  void extern_shared(std::size_t begin, std::size_t end, int line) {
    const auto kept = without_attributes(begin, end);
    std::vector<std::size_t> type;
    std::string name;
    for (const std::size_t k : kept) {
      const auto t = sig(k).text;
      if (t == "extern" || t == "__shared__" || t == "static") continue;
      if (t == "[") break;
      type.push_back(k);
    }
    if (type.size() < 2 || sig(type.back()).kind != TokenKind::identifier) {
      error(line, "expected a declaration like: extern __shared__ float name[];");
      return;
    }
    name = std::string(sig(type.back()).text);
    if (device_depth_ > 0) tracked_[name] = Tracked::pointer;  // checked by its address
    type.pop_back();
    std::string type_text;
    for (const std::size_t k : type) {
      if (!type_text.empty()) type_text += ' ';
      type_text += sig(k).text;
    }
    const std::size_t first = sig(begin).offset;
    std::string text = "static thread_local " + type_text + "* const " + name +
                       " = ::emu::dynamic_shared<" + type_text + ">();";
    text += std::string(count_newlines(source_.substr(first, end_of(end) - first)), '\n');
    edits_.push_back({first, end_of(end), std::move(text)});
  }

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

}  // namespace

RewriteResult rewrite(std::string_view source, const RewriteOptions& options) {
  return Rewriter(source, options).run();
}

}  // namespace emu::rewriter
