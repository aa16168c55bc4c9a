// The files of an autograder package (`labgrade package`): the part of this project that builds a
// lab's grading kit (its sources, the lab's reference solution only, the setup script), and the
// platform's own files made from the templates in scripts/packaging/<platform>/.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

namespace grader {

struct PackageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A lab of the project at `source`: its id and its folder under labs/.
struct PackagedLab {
  std::string id;      // "lab6"
  std::string folder;  // "lab6-tiled-matmul"
};

// The lab named `id` (labs/<id>-*/spec.json whose "lab" is `id`). Throws PackageError naming the
// labs there are when there is none.
PackagedLab find_packaged_lab(const std::filesystem::path& source, const std::string& id);

// Copies into `project` what install-grader.sh needs to build the lab's kit: the top-level CMake
// files and the source folders, every lab's handout and checks (CMake configures them all), and
// solutions/<folder>/ of this lab alone (the reference the grader runs first).
void copy_project(const std::filesystem::path& source, const PackagedLab& lab,
                  const std::filesystem::path& project);

// scripts/packaging/<platform>/<name> with each @KEY@ replaced by its value, written to `target`
// with `mode` (0755 for scripts). Throws PackageError when the template is missing or keeps an
// @KEY@ no value was given for.
void write_from_template(const std::filesystem::path& source, const std::string& platform,
                         const std::string& name, const std::map<std::string, std::string>& values,
                         const std::filesystem::path& target, unsigned mode);

}  // namespace grader
