// collect(): the class folder's entries, named and slugged, each taken in by its kind.

#include "entries.hpp"
#include "intake/intake.hpp"
#include "kernel_file.hpp"
#include "kernel_search.hpp"
#include "slug.hpp"
#include "unpack.hpp"

namespace fs = std::filesystem;

namespace intake {
namespace {

void take_optional_sources(Submission& submission, const fs::path& root, const fs::path& relative,
                           const LabRef& lab, const Limits& limits) {
  for (const auto& name : lab.optional_sources) {
    const fs::path beside = relative.parent_path() / name;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(root / beside, ec))) continue;  // not attempted: fine
    KernelFile file = read_kernel(root, beside, limits);
    if (file.problem.empty()) {
      submission.optional_texts[name] = std::move(file.text);
    } else {
      submission.notes.push_back(name + " left out: " + file.problem);
    }
  }
}

void take_kernel(Submission& submission, const fs::path& root, const fs::path& relative,
                 const LabRef& lab, const Limits& limits) {
  submission.kernel = root / relative;
  KernelFile file = read_kernel(root, relative, limits);
  submission.kernel_text = std::move(file.text);
  submission.problem = std::move(file.problem);
  if (submission.accepted()) take_optional_sources(submission, root, relative, lab, limits);
}

void search_and_take(Submission& submission, const fs::path& root, const LabRef& lab,
                     const Limits& limits) {
  KernelSearch search = find_kernel(root, lab);
  if (!search.relative) {
    submission.problem = std::move(search.problem);
    return;
  }
  take_kernel(submission, root, *search.relative, lab, limits);
}

}  // namespace

std::vector<Submission> collect(const fs::path& folder, const LabRef& lab,
                                const fs::path& unpack_root, const Limits& limits) {
  const std::vector<Entry> entries = list_entries(folder, unpack_root);
  std::vector<std::string> students;
  students.reserve(entries.size());
  for (const Entry& entry : entries) students.push_back(entry.student);
  const std::vector<std::string> slugs = unique_slugs(students);

  std::vector<Submission> submissions;
  submissions.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& entry = entries[i];
    Submission& submission = submissions.emplace_back();
    submission.student = entry.student;
    submission.slug = slugs[i];
    submission.source = entry.path;
    switch (entry.kind) {
      case EntryKind::link:
        // Following it could read another student's work, or anything else on the machine.
        submission.problem =
            "the submission is a symbolic link: copy the folder or file itself into the class "
            "folder";
        break;
      case EntryKind::folder:
        search_and_take(submission, entry.path, lab, limits);
        break;
      case EntryKind::bare_kernel:
        // A bare <student>.cu has no folder of its own: nothing beside it is the student's.
        take_kernel(submission, folder, entry.path.filename(), LabRef{}, limits);
        break;
      case EntryKind::archive: {
        const fs::path destination = unpack_root / submission.slug;
        submission.problem = unpack(entry.path, destination, limits);
        if (submission.problem.empty()) search_and_take(submission, destination, lab, limits);
        break;
      }
    }
  }
  return submissions;
}

}  // namespace intake
