#include "batch/class_files.hpp"

#include <fstream>
#include <stdexcept>

#include "contract/record.hpp"
#include "exports/exports.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

void write_atomically(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  auto temporary = file;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  fs::rename(temporary, file);
}

}  // namespace

void write_class_files(const fs::path& out, const contract::LabSpec& spec,
                       const std::vector<exports::StudentOutcome>& students) {
  write_atomically(out / "gradebook.html",
                   exports::gradebook_html(spec, students, contract::utc_timestamp()));
  write_atomically(out / "gradebook.csv", exports::gradebook_csv(spec, students));
  write_atomically(out / "junit.xml", exports::junit_xml(spec, students));
}

}  // namespace batch
