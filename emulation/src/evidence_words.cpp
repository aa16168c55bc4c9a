// The evidence engine's facts (evidence.hpp): a launch's measures summed over its blocks, worded
// when it ends, and kept until the launcher takes them (emu::take_evidence).
#include <algorithm>
#include <cstdio>

#include "evidence.hpp"
#include "words.hpp"

namespace emu::detail {
namespace {

// A fact when a site's sectors per request exceed this many times the ideal.
constexpr double kUncoalescedFactor = 2.0;
constexpr std::size_t kKeptFacts = 32;
// A divergence fact when at most 1/kDivergentShare of a warp's lanes make each request, in
// kDivergentFactor times the requests packed lanes would make, or more.
constexpr double kDivergentShare = 4.0;
constexpr std::uint64_t kDivergentFactor = 2;

struct Kept {
  std::mutex mutex;
  std::vector<EvidenceFact> facts;
};

Kept& kept() {
  static Kept instance;
  return instance;
}

std::string one_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string where(const std::string& file, int line, const char* kernel) {
  return file + ":" + std::to_string(line) + " (" + kernel + ")";
}

// The distance between neighbouring lanes' elements most requests show, when it is not 0 or 1.
std::string stride_text(const SiteMeasure& m) {
  if (m.strides.empty()) return "";
  const auto most = std::max_element(m.strides.begin(), m.strides.end(),
                                     [](auto& a, auto& b) { return a.second < b.second; });
  const long long step = most->first;
  if (step == 0 || step == 1) return "";
  return "neighbouring threads' elements are " +
         element_text(m.element_bytes, step < 0 ? -step : step, m.element) + " apart" +
         (step < 0 ? " (descending)" : "");
}

std::string shape_text(const SiteMeasure& m) {
  std::string text = m.name + " (";
  if (m.shape && m.shape->floats) {
    text += "float";
  } else {
    text += std::to_string(m.element_bytes) + "-byte elements";
  }
  if (m.shape) {
    for (unsigned d = 0; d < m.shape->rank; ++d)
      text += "[" + std::to_string(m.shape->extents[d]) + "]";
  }
  return text + " in shared memory)";
}

std::optional<EvidenceFact> coalescing_fact(const SiteMeasure& m, const char* kernel) {
  if (m.requests == 0 || m.ideal == 0) return std::nullopt;
  const double sectors = static_cast<double>(m.sectors) / static_cast<double>(m.requests);
  const double ideal = static_cast<double>(m.ideal) / static_cast<double>(m.requests);
  if (sectors <= kUncoalescedFactor * ideal) return std::nullopt;
  const bool write = m.access == Access::write;
  std::string words = where(m.file, m.line, kernel) + ": each warp's " +
                      (write ? "write of " : "read of ") + m.name + " touches " +
                      one_decimal(sectors) + " sectors of 32 bytes per request instead of " +
                      one_decimal(ideal) + " (the same threads " + (write ? "writing" : "reading") +
                      " consecutive elements)";
  if (const auto stride = stride_text(m); !stride.empty()) words += ": " + stride;
  words += "; measured over " + grouped(m.requests) + " warp-wide requests";
  return EvidenceFact{"uncoalesced_access", m.file, m.line, kernel, words, sectors, ideal};
}

std::optional<EvidenceFact> bank_fact(const SiteMeasure& m, const char* kernel) {
  if (m.worst_degree < 2) return std::nullopt;
  const std::string degree = std::to_string(m.worst_degree);
  std::string words = where(m.file, m.line, kernel) + ": " +
                      (m.access == Access::read ? "reading " : "writing ") + shape_text(m) + ": " +
                      degree + "-way bank conflict (" + degree +
                      " of a warp's words fall in one bank of 32, so the access takes " + degree +
                      " turns instead of 1) in " + grouped(m.conflicted) + " of " +
                      grouped(m.requests) + " warp-wide requests";
  if (const auto stride = stride_text(m); !stride.empty()) words += "; " + stride;
  if (m.shape && m.shape->rank == 2 && m.shape->extents[1] % 32 == 0) {
    words += ": pad the rows, e.g. " + m.name + "[" + std::to_string(m.shape->extents[0]) + "][" +
             std::to_string(m.shape->extents[1] + 1) + "]";
  }
  return EvidenceFact{
      "bank_conflict", m.file, m.line, kernel, words, static_cast<double>(m.worst_degree), 1};
}

std::string ordinal(unsigned n) {
  const unsigned tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th"
                       : n % 10 == 1            ? "st"
                       : n % 10 == 2            ? "nd"
                       : n % 10 == 3            ? "rd"
                                                : "th";
  return std::to_string(n) + suffix;
}

// Threads of one warp taking different paths at a site: at most a quarter of a full warp's lanes
// make each request on average, the requests are at least twice those the same lanes would make
// packed into whole warps (a block's one thread, or a tail of the tree in one warp, is not), and
// at most half of the lanes that work at the site in their warp work at each request (a guard
// that keeps a warp's lanes outside the matrix out of every request is not).
std::optional<EvidenceFact> divergence_fact(const SiteMeasure& m, const char* kernel) {
  if (m.warp_requests == 0 || m.packed_requests == 0) return std::nullopt;
  const double lanes = static_cast<double>(m.active_lanes) / static_cast<double>(m.warp_requests);
  if (lanes * kDivergentShare > 32.0 || m.warp_requests < kDivergentFactor * m.packed_requests ||
      m.active_lanes * kDivergentFactor > m.working_lanes) {
    return std::nullopt;
  }
  const double packed =
      static_cast<double>(m.active_lanes) / static_cast<double>(m.packed_requests);
  std::string words = where(m.file, m.line, kernel) + ": on average " + one_decimal(lanes) +
                      " of a warp's 32 threads make each " +
                      (m.access == Access::read ? "read of " : "write of ") + m.name +
                      " here (the others wait): the working threads are spread over the warps";
  if (m.spacing_max != 0) {
    words += " (every " + ordinal(m.spacing_min) +
             (m.spacing_max != m.spacing_min ? " to " + ordinal(m.spacing_max) : "") + " thread)";
  }
  words += ", so " + grouped(m.warp_requests) + " warp-wide requests do what " +
           grouped(m.packed_requests) +
           " would with them packed into whole warps; let consecutive threads do the work "
           "(threads 0 .. k-1: for a tree, if (tid < s) with sequential addressing) so that "
           "whole warps finish";
  return EvidenceFact{"divergence", m.file, m.line, kernel, words, lanes, packed};
}

}  // namespace

std::string element_text(std::size_t bytes, long long count, const std::string& element) {
  const auto n = static_cast<std::uint64_t>(count);
  if (!element.empty()) return grouped(n) + " " + element + (n == 1 ? "" : "s");
  if (bytes == 4) return grouped(n) + (n == 1 ? " float" : " floats");
  return grouped(n) + (n == 1 ? " element" : " elements") + " of " + std::to_string(bytes) +
         " bytes";
}

void LaunchEvidence::add_site(SiteMeasure measure) {
  std::lock_guard lock(mutex_);
  const auto key =
      std::tuple(measure.file, measure.line, static_cast<int>(measure.access), measure.name);
  auto [it, fresh] = sites_.try_emplace(key, measure);
  if (fresh) return;
  SiteMeasure& m = it->second;
  m.requests += measure.requests;
  m.sectors += measure.sectors;
  m.ideal += measure.ideal;
  m.worst_degree = std::max(m.worst_degree, measure.worst_degree);
  m.conflicted += measure.conflicted;
  m.warp_requests += measure.warp_requests;
  m.active_lanes += measure.active_lanes;
  m.packed_requests += measure.packed_requests;
  m.working_lanes += measure.working_lanes;
  if (measure.spacing_min != 0) {
    m.spacing_min =
        m.spacing_min == 0 ? measure.spacing_min : std::min(m.spacing_min, measure.spacing_min);
  }
  m.spacing_max = std::max(m.spacing_max, measure.spacing_max);
  for (const auto& [step, count] : measure.strides) m.strides[step] += count;
}

void LaunchEvidence::keep_uninitialised_read(std::tuple<std::uint64_t, std::uint64_t> key,
                                             const UninitialisedRead* read, std::uint64_t words) {
  std::lock_guard lock(mutex_);
  uninitialised_words_ += words;
  if (!read || (uninitialised_key_ && !(key < *uninitialised_key_))) return;
  uninitialised_key_ = key;
  uninitialised_ = *read;
}

std::optional<EvidenceFact> LaunchEvidence::uninitialised_fact() const {
  if (!uninitialised_key_) return std::nullopt;
  const UninitialisedRead& r = uninitialised_;
  std::string words = where(r.file, r.line, request_.site.name) + ", thread " + triple(r.thread) +
                      " of block " + triple(r.block) + ": reads " + r.place +
                      " in shared memory before any thread of its block wrote it (its value is "
                      "whatever the memory held)";
  if (uninitialised_words_ > 1) {
    words += ", and " + grouped(uninitialised_words_ - 1) + " more words like it";
  }
  return EvidenceFact{"uninitialised_shared_read",
                      r.file,
                      r.line,
                      request_.site.name,
                      words,
                      static_cast<double>(uninitialised_words_),
                      0};
}

std::optional<EvidenceFact> LaunchEvidence::aliasing_fact() const {
  if (aliasing_.writers.size() < 2) return std::nullopt;
  const auto [region, word] = aliasing_.key;
  const std::string name = regions_[region].name;
  auto first = aliasing_.writers.begin();
  auto second = std::next(first);
  // The line of the lowest writer whose write found the other (both are mostly of one line).
  std::pair<const char*, int> at{nullptr, 0};
  for (const auto& [writer, site] : aliasing_.writers) {
    if (site.first && !at.first) at = site;
  }
  const std::string file = short_file(at.first);
  // The index of the 4-byte word, as a subscript of a float buffer reads it.
  const std::string element = name + "[" + std::to_string(word) + "]";
  std::string words = where(file, at.second, request_.site.name) + ": thread " +
                      triple(thread_of(first->first)) + " of block " +
                      triple(block_of(first->first)) + " and thread " +
                      triple(thread_of(second->first)) + " of block " +
                      triple(block_of(second->first)) + " both write " + element;
  if (aliasing_.elements.size() > 1) {
    words += ", and " + grouped(aliasing_.elements.size() - 1) + " more elements are written " +
             "by two threads";
  }
  words +=
      ": one of them writes where another's result belongs (a thread outside the matrix past a "
      "missing or off-by-one guard, or an index that maps two threads to one element)";
  return EvidenceFact{"aliasing_write",
                      file,
                      at.second,
                      request_.site.name,
                      words,
                      static_cast<double>(aliasing_.elements.size()),
                      0};
}

std::optional<EvidenceFact> LaunchEvidence::idle_fact() const {
  const std::uint64_t idle = idle_blocks_.load();
  if (busy_blocks_.load() == 0 || idle * 4 <= blocks_) return std::nullopt;
  const std::string file = short_file(request_.site.file);
  const std::string words =
      std::string(request_.site.name) + " (launched at " + file + ":" +
      std::to_string(request_.site.line) + "): " + grouped(idle) + " of " + grouped(blocks_) +
      " blocks (" + grouped(idle_threads_.load()) + " of " + grouped(blocks_ * threads_per_block_) +
      " threads) wrote nothing to global memory: at this size the grid is larger than the work "
      "needs";
  return EvidenceFact{"idle_blocks",
                      file,
                      request_.site.line,
                      request_.site.name,
                      words,
                      static_cast<double>(idle),
                      static_cast<double>(blocks_ - idle)};
}

std::vector<EvidenceFact> LaunchEvidence::facts() const {
  std::vector<EvidenceFact> facts;
  for (const auto& [key, measure] : sites_) {
    if (auto fact = measure.shared ? bank_fact(measure, request_.site.name)
                                   : coalescing_fact(measure, request_.site.name)) {
      facts.push_back(std::move(*fact));
    }
    if (auto fact = divergence_fact(measure, request_.site.name)) facts.push_back(std::move(*fact));
  }
  for (auto fact : {uninitialised_fact(), aliasing_fact(), idle_fact()}) {
    if (fact) facts.push_back(std::move(*fact));
  }
  return facts;
}

void LaunchEvidence::finish() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  keep_evidence(facts());
}

void keep_evidence(std::vector<EvidenceFact> facts) {
  auto& k = kept();
  std::lock_guard lock(k.mutex);
  // One per kind, file and line: the one that measured most (of the largest launch, mostly).
  for (auto& fact : facts) {
    const auto same = std::find_if(k.facts.begin(), k.facts.end(), [&](const EvidenceFact& f) {
      return f.kind == fact.kind && f.file == fact.file && f.line == fact.line;
    });
    if (same != k.facts.end()) {
      if (fact.figure > same->figure) *same = std::move(fact);
    } else if (k.facts.size() < kKeptFacts) {
      k.facts.push_back(std::move(fact));
    }
  }
}

}  // namespace emu::detail

namespace emu {

std::vector<EvidenceFact> take_evidence() {
  auto& k = detail::kept();
  std::lock_guard lock(k.mutex);
  return std::exchange(k.facts, {});
}

}  // namespace emu
