// The rewriter's kernel-code part (rewriter_class.hpp): the bounds checks it wraps around the
// subscripts of kernel pointers and __shared__ arrays (emu/access.hpp), and __shared__
// declarations.
#include <algorithm>
#include <optional>

#include "rewriter_class.hpp"

namespace emu::rewriter::detail {

// ---- bounds checks in kernel code (emu/access.hpp) -------------------------------------

// Whether the declaration [begin, brace) is of a __global__ or __device__ function.
bool Rewriter::is_device_function(std::size_t begin, std::size_t brace) const {
  for (std::size_t k = begin; k < brace; ++k) {
    if (sig(k).text == "__global__" || sig(k).text == "__device__") return true;
  }
  return false;
}

// The parameters of the function whose body opens at `brace` that are pointers (or arrays).
void Rewriter::track_pointer_parameters(std::size_t begin, std::size_t brace) {
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
void Rewriter::device_identifier(std::size_t k) {
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
  if (it == tracked_.end() || !is_checked_subscript(k)) return;
  const auto last = subscripts_end(k);
  if (!last) return;
  const std::string site = ", __FILE__, " + std::to_string(sig(k).line) + access_of(k, *last);
  if (it->second == Tracked::static_shared) {
    edits_.push_back({sig(k).offset, sig(k).offset, "::emu::at_shared("});
    edits_.push_back({end_of(*last), end_of(*last), ", " + name + ", \"" + name + "\"" + site});
  } else {
    edits_.push_back({sig(k).offset, sig(k).offset, "::emu::at("});
    edits_.push_back({end_of(*last), end_of(*last), site});
  }
  ++checked_;
}

// Whether the tracked name at `k` is subscripted there as an access.
bool Rewriter::is_checked_subscript(std::size_t k) const {
  if (!sig_is(k + 1, "[")) return false;
  if (k == 0) return true;
  const auto& before = sig(k - 1);
  // A member (`s.A[i]`), a qualified name, a declaration (`float A[4]`) or an address (`&A[i]`:
  // no access) is left alone.
  if (before.text == "." || before.text == "->" || before.text == "::" || before.text == "&") {
    return false;
  }
  return before.kind != TokenKind::identifier || before.text == "return" || before.text == "case" ||
         before.text == "else" || before.text == "do";
}

// The last ']' of the whole chain of subscripts after `k`: `As[ty][tx]`.
std::optional<std::size_t> Rewriter::subscripts_end(std::size_t k) const {
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
    if (j >= sig_.size() || sig(j).text != "]") return std::nullopt;
    last = j;
  }
  return last;
}

// A write when the element (or a member of it) is assigned; an update when `+=` or `++` reads
// and writes it (a read for the bounds checks, both for the race check).
const char* Rewriter::access_of(std::size_t k, std::size_t last) const {
  std::size_t after = last + 1;
  while ((sig_is(after, ".") || sig_is(after, "->")) && after + 1 < sig_.size() &&
         sig(after + 1).kind == TokenKind::identifier) {
    after += 2;
  }
  if (sig_is(after, "=")) return ", ::emu::Access::write)";
  if (is_update(after) || (k > 0 && (sig(k - 1).text == "++" || sig(k - 1).text == "--"))) {
    return ", ::emu::Access::update)";
  }
  return ", ::emu::Access::read)";
}

// `+=`, `<<=`, `++`... after an element: it is read and written.
bool Rewriter::is_update(std::size_t k) const {
  static constexpr std::string_view kUpdates[] = {
      "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
  if (k >= sig_.size()) return false;
  return std::find(std::begin(kUpdates), std::end(kUpdates), sig(k).text) != std::end(kUpdates);
}

// ---- __shared__ ------------------------------------------------------------------------

// Drops __align__(n), alignas(n) and __attribute__((...)) from a token range.
std::vector<std::size_t> Rewriter::without_attributes(std::size_t begin, std::size_t end) const {
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

void Rewriter::shared(std::size_t at, std::size_t statement_start, bool inside_function) {
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
std::vector<std::string> Rewriter::declarator_names(std::size_t begin, std::size_t end) const {
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
void Rewriter::extern_shared(std::size_t begin, std::size_t end, int line) {
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

}  // namespace emu::rewriter::detail
