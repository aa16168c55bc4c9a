// What `labgrade autograder` grades with: the platform's submission folder turned into a class of
// one for `labgrade batch`, and, where bubblewrap cannot run, a kit whose compiler runs as nobody.
#pragma once

#include <filesystem>
#include <string>

#include "batch/kit.hpp"

namespace grader {

// The one student's name in the class (and so in the report): the platforms know who submitted;
// the grade does not need to.
inline constexpr const char* kAutograderStudent = "student";

// Fills `class_dir` (made empty first) with one entry for `submission`: a copy of the folder, or
// the archive itself when the folder holds nothing but one .zip, .tar, .tar.gz or .tgz. Links are
// copied as links (the intake refuses a linked kernel.cu). Throws std::runtime_error saying what
// is wrong with the folder.
void make_class_of_one(const std::filesystem::path& submission,
                       const std::filesystem::path& class_dir);

// A kit like `kit` whose compiler (kit.json's "nvcc") is a script that compiles each source as
// nobody (uid 65534, setpriv) in a folder of its own, for grading without bubblewrap as root:
// the preprocessor and the assembler then read only what any user may (the kit, not the
// solutions or the grader's build). Written to `dir`: kit.json, compile-as-nobody, and lib (a
// link to the kit's). Returns `dir`; throws std::runtime_error when setpriv is missing.
std::filesystem::path unprivileged_compile_kit(const batch::Kit& kit,
                                               const std::filesystem::path& dir);

}  // namespace grader
