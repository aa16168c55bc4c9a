#include "launcher_session.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "buffer_registry.hpp"

namespace harness::student {
namespace {

constexpr int kHelloDeadlineMs = 30000;

std::string& launcher_program() {
  static std::string program;
  return program;
}

}  // namespace

const std::string& student_launcher() { return launcher_program(); }

void LauncherSession::spawn(const std::string& path, int arena_fd) {
  path_ = path;
  arena_fd_ = arena_fd;
  try {
    process_ = std::make_unique<LauncherProcess>(path, Sandbox::bubblewrap_first, arena_fd);
  } catch (const std::exception&) {
    process_.reset();  // hello() tries again and says why
  }
}

nlohmann::json LauncherSession::hello() {
  if (!process_) {
    process_ = std::make_unique<LauncherProcess>(path_, Sandbox::bubblewrap_first, arena_fd_);
  }
  std::string error;
  auto hello = process_->receive(kHelloDeadlineMs, error);
  // bubblewrap cannot run here (inside another sandbox without user namespaces, as under the
  // batch grader, whose sandbox confines it): the launcher starts without it, isolated by hand
  // when this program is root. Decided by bubblewrap alone: what the launcher printed is the
  // student's ("bwrap: ..." from a static initializer would ask for a run without the sandbox).
  if (!hello && process_->bubblewrap_failed()) {
    std::fprintf(stderr, "note: bubblewrap cannot run here: the launcher starts without it\n");
    process_.reset();
    process_ = std::make_unique<LauncherProcess>(path_, Sandbox::without_bubblewrap, arena_fd_);
    hello = process_->receive(kHelloDeadlineMs, error);
  }
  // Once, whether it said hello or not: how this run's launcher was kept from this program.
  report_isolation(process_->isolation());
  if (!hello) {
    throw std::runtime_error("your launcher (kernel.cu's host code) did not start: " + error +
                             output_suffix());
  }
  if (!hello->is_object() || !hello->contains("hello") || !hello->at("hello").is_object()) {
    throw std::runtime_error("your launcher sent a malformed hello");
  }
  return hello->at("hello");
}

void LauncherSession::reply(const nlohmann::json& message) {
  if (!process_->send(message)) {
    throw std::runtime_error("your launcher stopped before its first call" + output_suffix());
  }
}

nlohmann::json LauncherSession::ask(const nlohmann::json& request, const std::string& call_text,
                                    int deadline_ms) {
  if (lost_.empty() && !process_->send(request)) lost_ = "it had stopped";
  std::string error = lost_;
  std::optional<nlohmann::json> answer;
  if (error.empty()) answer = process_->receive(deadline_ms, error);
  const std::string printed = process_->take_output();
  if (!printed.empty()) {
    // Every line behind "| ": the launcher's text can never pass for a line of the lab
    // program's (gtest's "[ RUN      ] Suite.Name", which the sanitizer's findings are charged
    // by), whatever it prints.
    std::string relayed = fmt::format("[your launcher printed during {}]\n", call_text);
    std::string_view rest = printed;
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      relayed += "| ";
      relayed += rest.substr(0, end);
      relayed += '\n';
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    std::fputs(relayed.c_str(), stdout);
    std::fflush(stdout);
  }
  if (!answer) {
    lost_ = error;
    throw StudentError(cudaErrorLaunchFailure,
                       fmt::format("{}: your launcher failed: {}", call_text, error));
  }
  if (!answer->is_object()) {
    lost_ = "it sent a malformed answer";
    throw StudentError(cudaErrorLaunchFailure,
                       fmt::format("{}: your launcher failed: {}", call_text, lost_));
  }
  if (answer->contains("error") && answer->at("error").is_string()) {
    throw StudentError(cudaErrorLaunchFailure,
                       fmt::format("{}: {}", call_text, answer->at("error").get<std::string>()));
  }
  return std::move(*answer);
}

std::string LauncherSession::output_suffix() {
  if (!process_) return "";
  const auto text = process_->take_output();
  return text.empty() ? "" : "\nIt printed:\n" + text;
}

std::string describe_call(const std::string& name, const StudentArgs& args) {
  std::string text = name + "(";
  std::size_t at = 0;
  std::size_t pointer = 0;
  while (at < args.bytes.size()) {
    if (at > 0) text += ", ";
    if (pointer < args.pointer_offsets.size() && args.pointer_offsets[pointer] == at) {
      std::uintptr_t address = 0;
      std::memcpy(&address, args.bytes.data() + at, sizeof address);
      const auto* buffer = address ? find_buffer(address) : nullptr;
      text += buffer ? buffer->name : (address ? "?" : "nullptr");
      at += sizeof address;
      ++pointer;
    } else if (at + sizeof(int) <= args.bytes.size()) {
      int value = 0;
      std::memcpy(&value, args.bytes.data() + at, sizeof value);
      text += std::to_string(value);
      at += sizeof value;
    } else {
      break;
    }
  }
  return text + ")";
}

}  // namespace harness::student

namespace harness {

void set_student_launcher(const std::string& program) { student::launcher_program() = program; }

}  // namespace harness
