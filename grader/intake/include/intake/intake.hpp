// Intake of a class's submissions for batch grading: one entry per student in a folder (a folder,
// an archive or a bare kernel file), each turned into a display name, a slug safe for file names
// and the text of the kernel to grade, or one line saying why there is nothing to grade.
// Submissions are untrusted: names are arbitrary bytes, archives may try to write outside their
// folder or unpack to gigabytes, and kernel.cu may be a link to someone else's file. Nothing here
// runs student code.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace intake {

// The lab being graded: its id and the folder of its starter under labs/.
struct LabRef {
  std::string id;      // "lab6"
  std::string folder;  // "lab6-tiled-matmul"
  // Files taken too when they sit next to the kernel (a lab's bonus.cu); absent is fine.
  std::vector<std::string> optional_sources = {};
};

// Bounds on what one submission may cost to take in.
struct Limits {
  std::uint64_t max_kernel_bytes = 512 * 1024;
  std::uint64_t max_archive_bytes = 64ull << 20;  // total of an archive's unpacked files
  int max_archive_entries = 5000;
};

struct Submission {
  // The name as given (folder name, or archive or file name without its extension): untrusted
  // UTF-8 (spaces, unicode, quotes, markup), with any invalid byte replaced by U+FFFD.
  std::string student;
  // Safe for file names and URLs ([a-z0-9_-], never empty, never starting with '-'), derived
  // from `student` and unique within the class.
  std::string slug;
  std::filesystem::path source;  // the folder, archive or file the submission came from
  // The kernel file chosen (inside unpack_root/<slug>/ for archives), also when it was then
  // refused, so the problem can be traced; absent when none or several were found.
  std::optional<std::filesystem::path> kernel;
  std::string kernel_text;  // the kernel's content when accepted; empty otherwise
  // LabRef::optional_sources found next to the accepted kernel: file name -> content.
  std::map<std::string, std::string> optional_texts;
  // What was wrong with an optional file (it is then left out; the kernel is still graded).
  std::vector<std::string> notes;
  // Empty when accepted; otherwise one line for the gradebook, e.g.
  // "no kernel file: expected labs/lab6-tiled-matmul/kernel.cu".
  std::string problem;

  bool accepted() const { return problem.empty(); }
};

// Every entry of `folder`, sorted by student name (bytewise; ties by source file name). An entry is
// a subfolder, a .zip, .tar, .tar.gz or .tgz archive, or a file <student>.cu (a bare kernel);
// hidden entries, __MACOSX, `unpack_root` itself and other files are ignored. Archives are unpacked
// under unpack_root/<slug>/ (replacing what an earlier run left there; removed again when the
// archive is refused). Throws std::runtime_error only when `folder` itself is unusable (missing,
// not a folder, unreadable); an empty folder gives an empty vector.
std::vector<Submission> collect(const std::filesystem::path& folder, const LabRef& lab,
                                const std::filesystem::path& unpack_root, const Limits& = {});

// Whether this build reads archives (it does when libarchive was found at configure time);
// without it every archive gets a problem saying how to get support.
bool archives_supported();

}  // namespace intake
