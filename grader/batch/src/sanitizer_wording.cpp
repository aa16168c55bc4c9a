// The sentence that tells the student what compute-sanitizer found (batch/sanitizer_report.hpp,
// describe_finding): where in their kernel, which thread, and where the bad address lies among the
// lab's buffers ("4 bytes past the end of B"). Reading the sanitizer's text is
// sanitizer_report.cpp's.
#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "batch/sanitizer_report.hpp"
#include "batch/sanitizer_text.hpp"

namespace batch {
namespace {

using namespace sanitizer_text;

// The lab's buffers hold floats or ints (harness DeviceBuffer, the note's element): offsets are
// also shown as indexes.
constexpr std::uint64_t kElementBytes = 4;

std::string bytes_text(std::uint64_t bytes) {
  return fmt::format("{} byte{}", grouped(bytes), bytes == 1 ? "" : "s");
}

// " (B holds 1 float, 4 bytes)", " (col_index holds 9 ints, 36 bytes)"
std::string holds(const contract::DeviceBufferPlace& buffer) {
  if (buffer.bytes == 0) return fmt::format(" ({} is empty)", buffer.name);
  if (buffer.bytes % kElementBytes != 0) {
    return fmt::format(" ({} holds {})", buffer.name, bytes_text(buffer.bytes));
  }
  const std::uint64_t count = buffer.bytes / kElementBytes;
  return fmt::format(" ({} holds {} {}{}, {})", buffer.name, grouped(count), buffer.element,
                     count == 1 ? "" : "s", bytes_text(buffer.bytes));
}

// "B + 8 bytes (B[2])", "A - 8 bytes (A[-2])".
std::string offset_text(const std::string& name, std::uint64_t distance, bool before) {
  std::string text = fmt::format("{} {} {}", name, before ? '-' : '+', bytes_text(distance));
  if (distance % kElementBytes == 0) {
    text += fmt::format(" ({}[{}{}])", name, before && distance > 0 ? "-" : "",
                        grouped(distance / kElementBytes));
  }
  return text;
}

struct AccessFacts {
  std::string access;      // "read", "write", "atomic"
  std::string space;       // "__global__", "__shared__", "__local__"
  std::uint64_t size = 0;  // bytes, 0 when not known
  bool misaligned = false;
};

// "Invalid __global__ read of size 4 bytes, misaligned"
AccessFacts access_facts(std::string_view what) {
  AccessFacts facts;
  facts.misaligned = what.ends_with(", misaligned");
  std::string_view words = what.substr(std::string_view("Invalid ").size());
  const auto space_end = std::min(words.find(' '), words.size());
  facts.space = std::string(words.substr(0, space_end));
  words = words.substr(std::min(space_end + 1, words.size()));
  facts.access = std::string(words.substr(0, std::min(words.find(' '), words.size())));
  if (facts.access.empty()) facts.access = "access";
  facts.size = count_number(after(what, " of size ").value_or("")).value_or(0);
  return facts;
}

std::string misalignment(const AccessFacts& facts) {
  if (facts.size == 0) return "misaligned";
  return fmt::format("misaligned: a {} of {} must start at a multiple of {}", facts.access,
                     bytes_text(facts.size), bytes_text(facts.size));
}

// Where an address inside one of the lab's buffers lies; nothing when it is in none of them.
std::optional<std::string> inside_a_buffer(
    std::uint64_t address, const AccessFacts& facts,
    const std::vector<contract::DeviceBufferPlace>& buffers) {
  for (const auto& buffer : buffers) {
    if (address < buffer.address || address - buffer.address >= buffer.bytes) continue;
    const std::uint64_t offset = address - buffer.address;
    std::string text = "at " + offset_text(buffer.name, offset, false);
    if (facts.misaligned) {
      text += fmt::format(", inside {} but {}", buffer.name, misalignment(facts));
    } else if (facts.size > 0 && offset + facts.size > buffer.bytes) {
      text += fmt::format(", running {} past the end of {}",
                          bytes_text(offset + facts.size - buffer.bytes), buffer.name);
    } else {
      text += fmt::format(", inside {}", buffer.name);
    }
    return text + holds(buffer);
  }
  return std::nullopt;
}

// How far an address lies outside [base, base + bytes), and on which side.
struct Outside {
  std::uint64_t distance = 0;
  bool before = false;
};

Outside outside_of(std::uint64_t address, std::uint64_t base, std::uint64_t bytes) {
  return address < base ? Outside{base - address, true} : Outside{address - base - bytes, false};
}

// "8 bytes before the start of B", "just past the end of B", ...
std::string relation(const Outside& where, const std::string& what) {
  if (where.before)
    return fmt::format("{} before the start of {}", bytes_text(where.distance), what);
  if (where.distance == 0) return "just past the end of " + what;
  return fmt::format("{} past the end of {}", bytes_text(where.distance), what);
}

// The buffer the sanitizer names as the nearest allocation, else the nearest by distance (null
// when the lab noted none), and how far outside it `address` lies.
std::pair<const contract::DeviceBufferPlace*, Outside> nearest_buffer(
    std::uint64_t address, const SanitizerFinding& finding,
    const std::vector<contract::DeviceBufferPlace>& buffers) {
  const contract::DeviceBufferPlace* nearest = nullptr;
  Outside nearest_outside;
  for (const auto& buffer : buffers) {
    const Outside here = outside_of(address, buffer.address, buffer.bytes);
    if (finding.nearest_base == buffer.address) return {&buffer, here};
    if (!nearest || here.distance < nearest_outside.distance) {
      nearest = &buffer;
      nearest_outside = here;
    }
  }
  return {nearest, nearest_outside};
}

// Where a __global__ address lies: in or next to one of the lab's buffers, else next to the
// allocation the sanitizer names.
std::string global_place(const SanitizerFinding& finding, const AccessFacts& facts,
                         const std::vector<contract::DeviceBufferPlace>& buffers) {
  if (!finding.address) return facts.misaligned ? misalignment(facts) : "out of bounds";
  const std::uint64_t address = *finding.address;
  const std::string misaligned = facts.misaligned ? ", " + misalignment(facts) : "";

  if (auto inside = inside_a_buffer(address, facts, buffers)) return *inside;
  const auto outside = [address](std::uint64_t base, std::uint64_t bytes) {
    return outside_of(address, base, bytes);
  };

  if (address < 0x10000) {
    return fmt::format("at address {:#x}, next to address 0 (a null pointer?){}", address,
                       misaligned);
  }
  const auto [nearest, nearest_outside] = nearest_buffer(address, finding, buffers);
  const bool sanitizer_allocation = finding.nearest_base && finding.nearest_bytes;
  std::optional<Outside> allocation_outside;
  if (sanitizer_allocation && address >= *finding.nearest_base &&
      address - *finding.nearest_base < *finding.nearest_bytes) {
    return fmt::format(
        "at {:#x}, inside an allocation of {} at {:#x} that is none of the lab's "
        "buffers{}",
        address, bytes_text(*finding.nearest_bytes), *finding.nearest_base, misaligned);
  }
  if (sanitizer_allocation) {
    allocation_outside = outside(*finding.nearest_base, *finding.nearest_bytes);
  }
  // The lab's buffer, unless the sanitizer names a closer allocation that is none of them.
  if (nearest && (!allocation_outside || finding.nearest_base == nearest->address ||
                  nearest_outside.distance <= allocation_outside->distance)) {
    return fmt::format(
        "at {}, {}{}{}",
        offset_text(nearest->name,
                    nearest_outside.before ? nearest_outside.distance : address - nearest->address,
                    nearest_outside.before),
        relation(nearest_outside, nearest->name), holds(*nearest), misaligned);
  }
  if (allocation_outside) {
    return fmt::format(
        "at {:#x}, {}{}", address,
        relation(*allocation_outside,
                 fmt::format("the nearest allocation ({} at {:#x})",
                             bytes_text(*finding.nearest_bytes), *finding.nearest_base)),
        misaligned);
  }
  return fmt::format("at {:#x}{}", address, facts.misaligned ? misaligned : ", out of bounds");
}

// "invalid read of 4 bytes at B + 8 bytes (B[2]), 4 bytes past the end of B (...)"
std::string memory_problem(const SanitizerFinding& finding,
                           const std::vector<contract::DeviceBufferPlace>& buffers) {
  if (!finding.what.starts_with("Invalid ")) {
    std::string text = fmt::format("the GPU reported \"{}\"", finding.what);
    if (finding.address) text += fmt::format(" at {:#x}", *finding.address);
    return text;
  }
  const AccessFacts facts = access_facts(finding.what);
  const std::string access =
      facts.access == "read" || facts.access == "write" ? facts.access : facts.access + " access";
  std::string text = "invalid " + access;
  if (facts.size > 0) text += " of " + bytes_text(facts.size);
  if (facts.space == "__shared__" || facts.space == "__local__") {
    text += facts.space == "__shared__" ? " in shared memory"
                                        : " in local memory (the thread's own arrays)";
    if (finding.address) text += fmt::format(" at address {:#x}", *finding.address);
    text += facts.misaligned ? ", " + misalignment(facts)
            : facts.space == "__shared__"
                ? ", outside the block's shared memory (an index past the end of a __shared__ "
                  "array?)"
                : ", out of bounds";
    return text;
  }
  return text + " " + global_place(finding, facts, buffers);
}

// "Race between a write (line 18) and a read (line 19) of shared memory" -> "a write and a read";
// "two writes" when both are writes.
std::string race_accesses(std::string_view what) {
  std::string text(what);
  for (auto open = text.find(" (line "); open != std::string::npos; open = text.find(" (line ")) {
    const auto close = text.find(')', open);
    text.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
  }
  std::string_view accesses = text;
  constexpr std::string_view kPrefix = "Race between ";
  constexpr std::string_view kSuffix = " of shared memory";
  if (accesses.starts_with(kPrefix)) accesses.remove_prefix(kPrefix.size());
  if (accesses.ends_with(kSuffix)) accesses.remove_suffix(kSuffix.size());
  const auto and_at = accesses.find(" and ");
  if (and_at != std::string_view::npos) {
    const std::string_view first = accesses.substr(0, and_at);
    const std::string_view second = accesses.substr(and_at + 5);
    const auto space = first.find(' ');
    if (first == second && space != std::string_view::npos) {
      return fmt::format("two {}s", first.substr(space + 1));
    }
  }
  return std::string(accesses);
}

bool is_student_file(const std::string& file, const std::vector<std::string>& student_files) {
  if (file.empty()) return false;
  return std::any_of(student_files.begin(), student_files.end(), [&](const std::string& own) {
    return file_name_only(own) == file_name_only(file);
  });
}

}  // namespace

std::string describe_finding(const SanitizerFinding& finding,
                             const std::vector<contract::DeviceBufferPlace>& buffers,
                             const std::vector<std::string>& student_files) {
  const bool race = finding.tool == "racecheck";
  // "kernel.cu:21 (MatMulAnyKernel)"; only the kernel when the file is not the student's.
  std::string where;
  if (is_student_file(finding.file, student_files)) {
    const std::string file(file_name_only(finding.file));
    const auto at_line = [&](int line) {
      return line > 0 ? fmt::format("{}:{}", file, line) : file;
    };
    where = at_line(finding.line > 0 ? finding.line : finding.other_line);
    if (race && finding.line > 0 && finding.other_line > 0 && finding.other_line != finding.line) {
      where += " and " + at_line(finding.other_line);
    }
    if (!finding.kernel.empty()) where += fmt::format(" ({})", finding.kernel);
  } else {
    where = finding.kernel.empty() ? "in a kernel" : "in " + finding.kernel;
  }

  std::string text = fmt::format("compute-sanitizer {}: {}",
                                 finding.tool.empty() ? "memcheck" : finding.tool, where);
  if (race) {
    text += fmt::format(": {} of the same shared memory without a __syncthreads() between them",
                        race_accesses(finding.what));
    if (finding.hazards > 0) {
      text +=
          fmt::format(" ({} hazard{})", grouped(finding.hazards), finding.hazards == 1 ? "" : "s");
    }
  } else {
    if (!finding.thread.empty()) text += ", thread " + finding.thread;
    if (!finding.block.empty()) {
      text += (finding.thread.empty() ? ", block " : " of block ") + finding.block;
    }
    text += ": " + memory_problem(finding, buffers);
  }
  if (finding.like_it > 0) text += fmt::format(" and {} more like it", finding.like_it);
  return text;
}

}  // namespace batch
