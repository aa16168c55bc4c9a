// The ids in the names of an LMS's bulk download ("Download submissions"), so that a submission
// can be found in the roster whatever its owner called their file.
//   Canvas: {sortable name}_{late_}{user id}_{attachment id}_{file name}, the name lowercased with
//     everything but letters, digits and '_' removed ("smithjohn_12345_678_kernel.cu",
//     "smithjohn_late_12345_679_kernel-1.cu"; a file submitted again is renamed "kernel-1.cu").
//   Moodle: {Full name}_{participant number}_assignsubmission_file[_] as a folder of the
//     student's files, or as the prefix of each file ("Zoë Ødegård_123456_assignsubmission_file_
//     kernel.cu"), the name keeping its spaces and accents ('_' in it become spaces);
//     "Participant_123456_..." under blind marking.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lms {

enum class Lms { canvas, moodle };

struct DownloadName {
  Lms lms = Lms::canvas;
  std::string name;  // as the download writes it: "smithjohn", "Zoë Ødegård", "Participant"
  std::string id;    // the Canvas user id or the Moodle participant number
  bool late = false;
  std::uint64_t attachment = 0;  // Canvas: the file's id; a larger one was uploaded later
  std::string original;          // the student's file name, extension removed: "kernel-1"
  std::string original_base;     // without Canvas's renaming of a file submitted again: "kernel"
  int resubmission = 0;          // that renaming's number: 1 for "kernel-1", 0 for "kernel"
};

// The readings of a download's name without its extension (intake's student name), likeliest
// first; empty when it has the shape of neither LMS's downloads. A Canvas name can be read more
// than one way when the student's file name holds "_<digits>_<digits>_": every reading is given,
// and the roster decides.
std::vector<DownloadName> read_download_name(std::string_view stem);

}  // namespace lms
