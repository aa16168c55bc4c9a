#include "batch/cache.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

}  // namespace

ResultCache::ResultCache(fs::path dir, std::string grader)
    : dir_(std::move(dir)), grader_(std::move(grader)) {
  fs::create_directories(dir_);
}

std::optional<GradedOutcome> ResultCache::find(const std::string& slug,
                                               const std::string& kernel_text) const {
  std::ifstream in(dir_ / (slug + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  try {
    const json entry = json::parse(in);
    if (entry.at("grader").get<std::string>() != grader_) return std::nullopt;
    if (entry.at("kernel").get<std::string>() != kernel_text) return std::nullopt;
    GradedOutcome outcome;
    const auto status = status_from_words(entry.at("status").get<std::string>());
    if (!status) return std::nullopt;  // a status this grader does not know: graded again
    outcome.status = *status;
    outcome.message = entry.at("message").get<std::string>();
    outcome.build_output = entry.at("build_output").get<std::string>();
    for (const auto& record : entry.at("records")) {
      contract::CheckRecord parsed;
      contract::from_json(record, parsed);
      outcome.records.push_back(std::move(parsed));
    }
    return outcome;
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged entry is graded again
  }
}

void ResultCache::store(const std::string& slug, const std::string& kernel_text,
                        const GradedOutcome& outcome) const {
  json entry{{"grader", grader_},
             {"kernel", kernel_text},
             {"status", status_words(outcome.status)},
             {"message", outcome.message},
             {"build_output", outcome.build_output},
             {"records", json::array()}};
  for (const auto& record : outcome.records) {
    json one;
    contract::to_json(one, record);
    entry["records"].push_back(std::move(one));
  }
  try {
    // Invalid UTF-8 in student text must not stop the cache: replace it.
    common::write_file_atomically(dir_ / (slug + ".json"),
                                  entry.dump(-1, ' ', false, json::error_handler_t::replace));
  } catch (const common::FileWriteError&) {
    // The result is still reported; only resuming loses it.
  }
}

}  // namespace batch
