// A profiled block's warp-wide requests and their measures (access_profile.hpp).
#include "access_profile.hpp"

#include <algorithm>
#include <bit>

#include "block_runner.hpp"

namespace emu::detail {
namespace {

constexpr unsigned kLanes = 32;
constexpr std::uintptr_t kSectorBytes = 32;
constexpr std::size_t kStrideKinds = 16;  // distinct neighbour distances kept per site

// The lanes of the warp whose first request is `request` that make any of its requests at a site.
unsigned lanes_of_warp(const std::vector<std::uintptr_t>& requests, std::size_t request) {
  std::uint32_t lanes_seen = 0;
  for (std::size_t i = 0; i < std::size_t{kRequestsPerSite} * kLanes; ++i) {
    if (requests[request * kLanes + i] != 0) lanes_seen |= 1u << (i % kLanes);
  }
  return static_cast<unsigned>(std::popcount(lanes_seen));
}

}  // namespace

unsigned distinct_sectors(const std::uintptr_t* addresses, unsigned count, std::size_t bytes) {
  std::uintptr_t sectors[2 * kLanes];
  unsigned n = 0;
  for (unsigned i = 0; i < count; ++i) {
    sectors[n++] = addresses[i] / kSectorBytes;
    const std::uintptr_t last = (addresses[i] + bytes - 1) / kSectorBytes;
    if (last != sectors[n - 1]) sectors[n++] = last;  // an access across two sectors
  }
  std::sort(sectors, sectors + n);
  return static_cast<unsigned>(std::unique(sectors, sectors + n) - sectors);
}

unsigned bank_conflict_degree(const std::uintptr_t* offsets, unsigned count, std::size_t bytes) {
  const std::size_t words_each = std::max<std::size_t>(1, bytes / 4);
  const unsigned lanes_per_phase =
      static_cast<unsigned>(std::max<std::size_t>(1, kLanes / words_each));
  unsigned worst = 0;
  for (unsigned start = 0; start < count; start += lanes_per_phase) {
    std::uintptr_t words[kLanes];
    unsigned n = 0;
    for (unsigned i = start; i < std::min(count, start + lanes_per_phase); ++i) {
      for (std::size_t w = 0; w < words_each && n < kLanes; ++w) words[n++] = offsets[i] / 4 + w;
    }
    std::sort(words, words + n);
    n = static_cast<unsigned>(std::unique(words, words + n) - words);
    unsigned per_bank[kLanes] = {};
    for (unsigned i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[words[i] % kLanes]);
  }
  return worst;
}

void AccessProfile::start_block(unsigned threads, bool enabled) {
  enabled_ = enabled;
  threads_ = threads;
  sites_.clear();
  last_ = 0;
}

AccessProfile::Site& AccessProfile::site(const char* base, const char* name, bool shared,
                                         const SharedArrayShape* shape, const char* element,
                                         std::size_t bytes, const AccessSite& where) {
  const auto same = [&](const Site& s) {
    return s.line == where.line && s.base == base && s.access == where.access &&
           s.file == where.file;
  };
  if (last_ < sites_.size() && same(sites_[last_])) return sites_[last_];
  const auto it = std::find_if(sites_.begin(), sites_.end(), same);
  last_ = static_cast<std::size_t>(it - sites_.begin());
  if (it != sites_.end()) return *it;
  const unsigned warps = (threads_ + kLanes - 1) / kLanes;
  sites_.push_back({where.file, where.line, where.access, base, name, shared, shape, element, bytes,
                    std::vector<std::uint32_t>(threads_, 0),
                    std::vector<std::uintptr_t>(std::size_t{warps} * kRequestsPerSite * kLanes)});
  return sites_.back();
}

void AccessProfile::note(unsigned thread, const char* base, const char* name, bool shared,
                         const SharedArrayShape* shape, const char* address, std::size_t bytes,
                         const AccessSite& where, const char* element) {
  Site& s = site(base, name, shared, shape, element, bytes, where);
  std::uint32_t& k = s.executed[thread];
  if (k >= kRequestsPerSite || bytes != s.bytes) return;
  const std::size_t slot = (std::size_t{thread / kLanes} * kRequestsPerSite + k) * kLanes;
  s.requests[slot + thread % kLanes] = reinterpret_cast<std::uintptr_t>(address);
  ++k;
}

// Where the site is and what it reads or writes, before anything is measured.
SiteMeasure AccessProfile::described(const Site& s) {
  SiteMeasure m;
  m.file = short_file(s.file);
  m.line = s.line;
  m.access = s.access;
  m.name = s.name ? s.name : "the dynamic shared memory";
  m.shared = s.shared;
  if (s.shape) m.shape = *s.shape;
  m.element_bytes = s.bytes;
  if (s.element) m.element = s.element;
  return m;
}

SiteMeasure AccessProfile::measure(const Site& s) const {
  SiteMeasure m = described(s);
  const auto base = reinterpret_cast<std::uintptr_t>(s.base);
  std::uint32_t occurrence_lanes[kRequestsPerSite] = {};  // full warps' lanes per occurrence k
  unsigned warp_lanes = 0;  // the lanes of the warp that make any of its requests here
  for (std::size_t request = 0; request * kLanes < s.requests.size(); ++request) {
    if (request % kRequestsPerSite == 0) warp_lanes = lanes_of_warp(s.requests, request);
    std::uintptr_t lanes[kLanes];
    unsigned n = 0;
    unsigned previous_lane = kLanes, spacing = 0;  // spacing: 0 none yet, kLanes uneven
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      const std::uintptr_t address = s.requests[request * kLanes + lane];
      if (address == 0) continue;
      if (previous_lane < kLanes) {
        const unsigned gap = lane - previous_lane;
        spacing = spacing == 0 || spacing == gap ? gap : kLanes;
      }
      previous_lane = lane;
      const std::uintptr_t previous = lane > 0 ? s.requests[request * kLanes + lane - 1] : 0;
      if (previous != 0) {
        const long long step =
            (static_cast<long long>(address) - static_cast<long long>(previous)) /
            static_cast<long long>(s.bytes);
        if (m.strides.size() < kStrideKinds || m.strides.count(step)) ++m.strides[step];
      }
      lanes[n++] = s.shared ? address - base : address;
    }
    if (n == 0) continue;
    ++m.requests;
    const std::size_t warp = request / kRequestsPerSite;
    if ((warp + 1) * kLanes <= threads_) {  // a full warp: its idle lanes diverged
      ++m.warp_requests;
      m.active_lanes += n;
      m.working_lanes += warp_lanes;
      occurrence_lanes[request % kRequestsPerSite] += n;
      if (spacing > 1 && spacing < kLanes) {
        m.spacing_min = m.spacing_min == 0 ? spacing : std::min(m.spacing_min, spacing);
        m.spacing_max = std::max(m.spacing_max, spacing);
      }
    }
    if (s.shared) {
      const unsigned degree = bank_conflict_degree(lanes, n, s.bytes);
      m.worst_degree = std::max(m.worst_degree, degree);
      if (degree > 1) ++m.conflicted;
    } else {
      m.sectors += distinct_sectors(lanes, n, s.bytes);
      m.ideal += (n * s.bytes + kSectorBytes - 1) / kSectorBytes;
    }
  }
  for (const std::uint32_t lanes : occurrence_lanes)
    m.packed_requests += (lanes + kLanes - 1) / kLanes;
  return m;
}

void AccessProfile::end_block(LaunchEvidence& launch) {
  if (!enabled_) return;
  for (const Site& s : sites_) launch.add_site(measure(s));
  sites_.clear();
}

void note_global_profile(std::size_t region, const char* address, std::size_t bytes,
                         const AccessSite& site) {
  BlockRunner* runner = BlockRunner::active();
  if (!runner || !runner->in_kernel() || !runner->profile().enabled()) return;
  const CheckedRegion& r = access_bounds.regions[region];
  runner->profile().note(runner->current_thread(), r.begin, r.name, false, nullptr, address, bytes,
                         site, r.element);
}

}  // namespace emu::detail
