#include "batch/shard.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "batch/class_files.hpp"
#include "batch/command_exit.hpp"
#include "batch/files.hpp"
#include "batch/grading_options.hpp"
#include "batch/kit.hpp"
#include "batch/outcome_file.hpp"
#include "batch/secret_seed.hpp"
#include "batch/status.hpp"
#include "batch/submission_digest.hpp"
#include "contract/record.hpp"
#include "intake/intake.hpp"
#include "lms_step.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "labgrade-shards/1";

fs::path manifest_file(const fs::path& out) { return out / "manifest.json"; }
fs::path shard_dir(const fs::path& out, int index) {
  return out / "shards" / std::to_string(index);
}

json read_manifest(const fs::path& out) {
  std::ifstream in(manifest_file(out), std::ios::binary);
  if (!in) {
    throw std::runtime_error(manifest_file(out).string() +
                             " is missing: run `labgrade shard plan` first");
  }
  json manifest = json::parse(in);
  if (manifest.value("format", "") != kFormat) {
    throw std::runtime_error(manifest_file(out).string() + " is not a labgrade shard plan");
  }
  return manifest;
}

void write_manifest(const fs::path& out, const json& manifest) {
  write_whole_file(manifest_file(out),
                   manifest.dump(1, ' ', false, json::error_handler_t::replace) + '\n');
}

// The plan's list of submissions, in intake's order (the gradebook's), each with its shard:
// dealt round the shards in name order, the ones to build first (a refused submission, no kernel
// or a bad archive, costs nothing, so the builds and runs are what to spread evenly). `sizes`
// gets each shard's count.
template <class Submissions>
json dealt_submissions(const Submissions& submissions, int count, std::vector<int>& sizes) {
  std::vector<int> shard_of(submissions.size(), 0);
  int dealt = 0;
  for (const bool accepted : {true, false}) {
    for (std::size_t i = 0; i < submissions.size(); ++i) {
      if (submissions[i].accepted() != accepted) continue;
      shard_of[i] = dealt++ % count;
      ++sizes[shard_of[i]];
    }
  }
  json list = json::array();
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    const auto& submission = submissions[i];
    list.push_back({{"student", submission.student},
                    {"slug", submission.slug},
                    {"digest", submission_digest(submission)},
                    {"accepted", submission.accepted()},
                    {"shard", shard_of[i]}});
  }
  return list;
}

}  // namespace

int plan_shards(const BatchOptions& options, int shards) {
  try {
    if (shards < 1) throw std::runtime_error("--shards must be at least 1");
    const Kit kit = load_kit(options.kit_dir);
    if (!fs::is_directory(options.submissions)) {
      throw std::runtime_error(options.submissions.string() + " is not a folder of submissions");
    }
    if (is_inside(options.out, options.submissions)) {
      throw std::runtime_error("the output folder is inside the submissions folder");
    }
    // Earlier shard results belong to an earlier plan (another seed, other submissions).
    fs::remove_all(options.out / "shards");
    const fs::path unpack = options.out / "shards" / ".plan-unpacked";
    // The roster is read before anything runs, as a batch reads it (one line when it cannot be
    // used), and the whole class matched here: the report is the plan's, each shard matches again.
    const auto lms = load_lms(options, kit.spec);
    // Slugs are unique within the whole class, so each shard collects the whole folder too and
    // keeps its own: the plan only names them.
    auto submissions =
        intake::collect(options.submissions, {kit.lab, kit.folder, kit.optional_sources}, unpack);
    fs::remove_all(unpack);
    if (lms) match_roster(*lms, submissions, kit.optional_sources, kit.spec, options.out);
    if (submissions.empty()) {
      throw std::runtime_error("no submissions in " + options.submissions.string());
    }
    const int count = std::min<int>(shards, static_cast<int>(submissions.size()));
    std::vector<int> sizes(count, 0);
    const json list = dealt_submissions(submissions, count, sizes);
    const json manifest{{"format", kFormat},
                        {"lab", kit.lab},
                        {"kit", fs::absolute(options.kit_dir).string()},
                        {"submissions_dir", fs::absolute(options.submissions).string()},
                        {"grader", grader_fingerprint(kit, options.labgrade_executable)},
                        {"seed", options.seed ? *options.seed : fresh_secret_seed()},
                        {"planned_at", contract::utc_timestamp()},
                        {"options", grading_options_json(options)},
                        {"lms", lms ? lms_plan_json(*lms, options) : json()},
                        {"shards", count},
                        {"submissions", list}};
    write_manifest(options.out, manifest);
    std::fprintf(stderr, "%s: %zu submissions in %d shard(s) of %d to %d: %s\n", kit.lab.c_str(),
                 submissions.size(), count, *std::min_element(sizes.begin(), sizes.end()),
                 *std::max_element(sizes.begin(), sizes.end()), manifest_file(options.out).c_str());
    std::printf("%d\n", count);
    return command_exit::ok;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade shard plan: %s\n", error.what());
    return command_exit::cannot_start;
  }
}

int run_shard(const fs::path& out, int index, const BatchOptions& node) {
  BatchOptions options = node;
  std::map<std::string, std::string> planned;  // slug -> digest, this shard's
  try {
    const json manifest = read_manifest(out);
    const int count = manifest.at("shards").get<int>();
    if (index < 0 || index >= count) {
      throw std::runtime_error("shard " + std::to_string(index) + " does not exist (the plan has " +
                               std::to_string(count) + ": 0 to " + std::to_string(count - 1) + ")");
    }
    options.lab = manifest.at("lab").get<std::string>();
    options.submissions = manifest.at("submissions_dir").get<std::string>();
    options.kit_dir = manifest.at("kit").get<std::string>();
    options.out = out;
    apply_grading_options(manifest.at("options"), options);
    apply_lms_plan(manifest.value("lms", json()), options);
    // Another labgrade or kit could grade differently from the shards already run.
    const Kit kit = load_kit(options.kit_dir);
    if (grader_fingerprint(kit, options.labgrade_executable) !=
        manifest.at("grader").get<std::string>()) {
      throw std::runtime_error(
          "labgrade or the grading kit changed since the plan; plan again (labgrade shard plan)");
    }
    options.seed = manifest.at("seed").get<std::uint64_t>();
    options.state_dir = shard_dir(out, index) / "state";
    options.outcomes_dir = shard_dir(out, index) / "outcomes";
    for (const auto& entry : manifest.at("submissions")) {
      if (entry.at("shard").get<int>() == index) {
        planned[entry.at("slug").get<std::string>()] = entry.at("digest").get<std::string>();
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade shard run: %s\n", error.what());
    return command_exit::cannot_start;
  }

  std::set<std::string> found;
  options.select = [&](const std::string& slug, const std::string& digest) {
    Selection selection;
    const auto it = planned.find(slug);
    selection.grade = it != planned.end();
    if (selection.grade) found.insert(slug);
    if (selection.grade && it->second != digest) {
      selection.note = "the submission changed after `labgrade shard plan`: graded as it is now";
    }
    return selection;
  };
  std::fprintf(stderr, "shard %d: %zu submission(s)\n", index, planned.size());
  const int status = run_batch(options);
  for (const auto& [slug, digest] : planned) {
    if (!found.count(slug)) {
      std::fprintf(stderr, "shard %d: %s is in the plan but no longer among the submissions\n",
                   index, slug.c_str());
    }
  }
  return status;
}

int merge_shards(const fs::path& out) {
  json manifest;
  Kit kit;
  try {
    manifest = read_manifest(out);
    kit = load_kit(manifest.at("kit").get<std::string>());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade shard merge: %s\n", error.what());
    return command_exit::cannot_start;
  }
  std::vector<exports::StudentOutcome> students;
  std::map<int, int> missing;  // shard -> submissions without an outcome
  int not_graded = 0;
  for (const auto& entry : manifest.at("submissions")) {
    const int shard = entry.at("shard").get<int>();
    auto outcome = read_outcome_file(shard_dir(out, shard) / "outcomes",
                                     entry.at("slug").get<std::string>(), kit.spec);
    if (!outcome) {
      ++missing[shard];
      outcome.emplace();
      outcome->student = entry.at("student").get<std::string>();
      outcome->status = status_words(Status::not_graded);
      outcome->message = "shard " + std::to_string(shard) +
                         " has not finished: run `labgrade shard run OUT --index " +
                         std::to_string(shard) + "`, then merge again";
    }
    if (outcome->status != status_words(Status::graded)) ++not_graded;
    students.push_back(std::move(*outcome));
  }
  try {
    write_class_files(out, kit.spec, students);
    write_lms_files(manifest.value("lms", json()), out, kit.spec, students);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade shard merge: %s\n", error.what());
    return command_exit::cannot_start;
  }
  std::fprintf(stderr, "merged %zu submissions of %d shard(s): %s\n", students.size(),
               manifest.at("shards").get<int>(), (out / "gradebook.html").c_str());
  for (const auto& [shard, count] : missing) {
    std::fprintf(stderr, "shard %d has not finished: %d submission(s) not graded\n", shard, count);
  }
  if (!missing.empty()) return command_exit::shards_missing;
  return not_graded > 0 ? command_exit::some_not_graded : command_exit::ok;
}

}  // namespace batch
