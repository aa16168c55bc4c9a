#include "csv_reader.hpp"

#include <fmt/format.h>

#include "lms/roster.hpp"

namespace lms {
namespace {

// The separator of the first line: ';' when it has more of them than commas outside quotes.
char separator_of(std::string_view text) {
  std::size_t commas = 0;
  std::size_t semicolons = 0;
  bool quoted = false;
  for (const char c : text) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '\n' || c == '\r') break;
    commas += c == ',';
    semicolons += c == ';';
  }
  return semicolons > commas ? ';' : ',';
}

class CsvParser {
 public:
  CsvParser(std::string_view text, const std::string& file)
      : text_(text), file_(file), separator_(separator_of(text)) {}

  std::vector<CsvRow> rows() {
    row_.line = line_;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '"' && field_.empty() && !field_started_) {
        quoted_field();
      } else if (c == separator_) {
        end_field();
        ++at_;
      } else if (c == '\r' || c == '\n') {
        end_row();
        at_ += (c == '\r' && at_ + 1 < text_.size() && text_[at_ + 1] == '\n') ? 2 : 1;
        ++line_;
        row_.line = line_;
      } else {
        field_ += c;
        field_started_ = true;
        ++at_;
      }
    }
    end_row();
    return std::move(rows_);
  }

 private:
  void quoted_field() {
    const std::size_t opened = line_;
    ++at_;
    for (;;) {
      if (at_ >= text_.size()) {
        throw RosterError(fmt::format("{}:{}: a quoted field is never closed", file_, opened));
      }
      const char c = text_[at_];
      if (c == '"') {
        if (at_ + 1 < text_.size() && text_[at_ + 1] == '"') {
          field_ += '"';
          at_ += 2;
          continue;
        }
        ++at_;
        break;
      }
      // A line break inside quotes is part of the field; it still moves the line count on.
      if (c == '\n' || (c == '\r' && (at_ + 1 >= text_.size() || text_[at_ + 1] != '\n'))) {
        ++line_;
      }
      field_ += c;
      ++at_;
    }
    field_started_ = true;
    if (at_ < text_.size() && text_[at_] != separator_ && text_[at_] != '\r' &&
        text_[at_] != '\n') {
      throw RosterError(fmt::format("{}:{}: text after a closing quote", file_, line_));
    }
  }

  void end_field() {
    row_.fields.push_back(std::move(field_));
    field_.clear();
    field_started_ = false;
  }

  void end_row() {
    end_field();
    if (!row_.blank()) rows_.push_back(std::move(row_));
    row_ = CsvRow{};
  }

  std::string_view text_;
  const std::string& file_;
  char separator_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  std::string field_;
  bool field_started_ = false;
  CsvRow row_;
  std::vector<CsvRow> rows_;
};

}  // namespace

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

std::string CsvRow::at(std::size_t column) const {
  return column < fields.size() ? trimmed(fields[column]) : std::string();
}

bool CsvRow::blank() const {
  for (const auto& field : fields) {
    if (!trimmed(field).empty()) return false;
  }
  return true;
}

std::vector<CsvRow> read_csv(std::string_view text, const std::string& file) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  return CsvParser(text, file).rows();
}

}  // namespace lms
