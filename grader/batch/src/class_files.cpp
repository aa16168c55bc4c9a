#include "batch/class_files.hpp"

#include "batch/files.hpp"
#include "contract/record.hpp"
#include "exports/exports.hpp"

namespace batch {

namespace fs = std::filesystem;

void write_class_files(const fs::path& out, const contract::LabSpec& spec,
                       const std::vector<exports::StudentOutcome>& students) {
  write_whole_file(out / "gradebook.html",
                   exports::gradebook_html(spec, students, contract::utc_timestamp()));
  write_whole_file(out / "gradebook.csv", exports::gradebook_csv(spec, students));
  write_whole_file(out / "junit.xml", exports::junit_xml(spec, students));
}

}  // namespace batch
