// The linker's messages, line by line (batch/link_errors.hpp). The formats:
//   GNU ld  "ld: kernel.o: in function `f':" then "...: undefined reference to `sym'"
//   gold    "kernel.o:kernel.cpp:function f: error: undefined reference to 'sym'"
//   lld     "ld.lld: error: undefined symbol: sym" then ">>>     kernel.o:(f)"; mold the same
// Quotes may be ` ' or, in a UTF-8 locale, ‘ ’.
#include "batch/link_errors.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

namespace batch {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

constexpr std::array<std::string_view, 4> kOpeningQuotes{"`", "'", "\xE2\x80\x98", "\""};
constexpr std::array<std::string_view, 3> kClosingQuotes{"'", "\xE2\x80\x99", "\""};

// "`sym'" -> "sym".
std::string unquoted(std::string_view text) {
  for (const auto quote : kOpeningQuotes) {
    if (starts_with(text, quote)) {
      text.remove_prefix(quote.size());
      break;
    }
  }
  std::size_t end = text.size();
  for (const auto quote : kClosingQuotes) end = std::min(end, text.rfind(quote));
  return std::string(text.substr(0, end));
}

// The student's source an object was compiled from: "kernel.o" (batch) and
// ".../kernel.cu.o" (CMake) are kernel.cu, ".../kernel.cu.cpp.o" is the emulation's rewrite of
// kernel.cu; anything else (the kit's own objects, an archive member) is not the student's.
std::string student_file(std::string_view object) {
  object = trimmed(object);
  if (const auto slash = object.rfind('/'); slash != std::string_view::npos) {
    object.remove_prefix(slash + 1);
  }
  if (ends_with(object, ".o")) object.remove_suffix(2);
  if (ends_with(object, ".cu.cpp")) object.remove_suffix(4);
  if (ends_with(object, ".cu")) return std::string(object);
  if (!object.empty() && object.find('.') == std::string_view::npos) {
    return std::string(object) + ".cu";
  }
  return "";
}

}  // namespace

std::vector<UndefinedSymbol> undefined_symbols(std::string_view output) {
  std::vector<UndefinedSymbol> found;
  std::string current_file;  // GNU ld: from the last "in function" line
  // lld, mold: the symbol whose ">>>" line comes next, or npos.
  std::size_t awaiting_file = std::string_view::npos;
  constexpr std::string_view kReference = "undefined reference to ";
  constexpr std::string_view kSymbol = "undefined symbol: ";
  constexpr std::string_view kInFunction = ": in function ";
  while (!output.empty()) {
    const auto end = output.find('\n');
    const std::string_view line = output.substr(0, end);
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);

    const auto reference_at = line.find(kReference);
    const auto symbol_at = line.find(kSymbol);
    const auto function_at = line.find(kInFunction);
    if (reference_at != std::string_view::npos) {
      std::string file = current_file;
      // gold names the object first: "kernel.o:kernel.cpp:function f: error: ..."
      if (const auto colon = line.find(':');
          colon != std::string_view::npos && line.find(":function ") != std::string_view::npos) {
        file = student_file(line.substr(0, colon));
      }
      found.push_back({unquoted(line.substr(reference_at + kReference.size())), file});
      awaiting_file = std::string_view::npos;
    } else if (symbol_at != std::string_view::npos) {
      found.push_back({std::string(trimmed(line.substr(symbol_at + kSymbol.size()))), ""});
      awaiting_file = found.size() - 1;
    } else if (function_at != std::string_view::npos) {
      std::string_view object = line.substr(0, function_at);
      if (const auto colon = object.rfind(": "); colon != std::string_view::npos) {
        object.remove_prefix(colon + 2);
      }
      current_file = student_file(object);
    } else if (starts_with(line, ">>> ") && awaiting_file != std::string_view::npos) {
      // ">>>               kernel.o:(sgemm(float const*, int))"; mold may put it after
      // "referenced by ".
      if (const auto call = line.find(":("); call != std::string_view::npos) {
        std::string_view object = trimmed(line.substr(4, call - 4));
        constexpr std::string_view kReferencedBy = "referenced by ";
        if (starts_with(object, kReferencedBy)) object.remove_prefix(kReferencedBy.size());
        found[awaiting_file].file = student_file(object);
        awaiting_file = std::string_view::npos;
      }
    }
  }
  return found;
}

std::string cuda_library_of(std::string_view function) {
  // Longer prefixes first: cublasLt before cublas.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kLibraries{{
      {"cublasLt", "cuBLASLt"},
      {"cublas", "cuBLAS"},
      {"cusparse", "cuSPARSE"},
      {"cufft", "cuFFT"},
      {"curand", "cuRAND"},
      {"cusolver", "cuSOLVER"},
      {"cudnn", "cuDNN"},
      {"cutensor", "cuTENSOR"},
      {"nvjpeg", "nvJPEG"},
      {"nccl", "NCCL"},
      {"nvrtc", "NVRTC"},
      {"cupti", "CUPTI"},
      {"npp", "NPP"},
  }};
  for (const auto& [prefix, library] : kLibraries) {
    if (starts_with(function, prefix)) return std::string(library);
  }
  // The driver API: cuLaunchKernel, cuMemAlloc_v2 (the runtime's are cudaX).
  if (function.size() > 2 && starts_with(function, "cu") && function[2] >= 'A' &&
      function[2] <= 'Z') {
    return "the CUDA driver API";
  }
  return "";
}

std::vector<std::string> explain_link_error(std::string_view linker_output) {
  std::vector<std::string> sentences;
  for (const auto& [symbol, used_in] : undefined_symbols(linker_output)) {
    const std::string file = used_in.empty() ? "kernel.cu" : used_in;
    const std::string function = symbol.substr(0, symbol.find('('));
    std::string sentence;
    if (const auto library = cuda_library_of(function); !library.empty()) {
      sentence = fmt::format(
          "{} calls {} ({}), which this lab does not allow: the work must be done by your kernel",
          file, function, library);
    } else if (starts_with(function, "cuda")) {
      sentence = fmt::format(
          "{} calls {}, which a launcher cannot use here (the grader replays your launches; see "
          "the handout)",
          file, function);
    } else {
      sentence = fmt::format(
          "{} does not define {} (a function of the lab's header, with exactly that signature?)",
          file, symbol);
    }
    if (std::find(sentences.begin(), sentences.end(), sentence) == sentences.end()) {
      sentences.push_back(std::move(sentence));
    }
  }
  // The linker itself killed (a file size or memory limit of the grader's build): no fault of
  // the student's, whatever the signature question below would suggest.
  if (sentences.empty()) {
    constexpr std::string_view kKilled = "terminated with signal ";
    if (const auto at = linker_output.find(kKilled); at != std::string_view::npos) {
      const auto line_start = linker_output.rfind('\n', at);
      std::string_view line =
          linker_output.substr(line_start == std::string_view::npos ? 0 : line_start + 1);
      line = trimmed(line.substr(0, line.find('\n')));
      if (const auto fatal = line.find("error: "); fatal != std::string_view::npos) {
        line.remove_prefix(fatal + 7);
      }
      sentences.push_back(fmt::format(
          "The linker was stopped ({}): a limit of the grader's build, not a mistake in your "
          "files",
          line));
      return sentences;
    }
  }
  if (sentences.empty()) {
    sentences.emplace_back(
        "The kernel compiled but did not link: does kernel.cu define the functions of the lab's "
        "header with exactly those signatures?");
  }
  return sentences;
}

}  // namespace batch
