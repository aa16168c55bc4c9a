// What the grader keeps of a program's output: the head of stdout+stderr up to a cap, and the
// complete lines of the fd 4 channel up to a cap. Everything past a cap is read and dropped, so a
// program printing gigabytes costs neither memory nor disk.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace sandbox {

class HeadBuffer {
 public:
  explicit HeadBuffer(std::uint64_t cap) : cap_(cap) {}
  void append(std::string_view data);
  bool truncated() const { return truncated_; }
  std::string& text() { return text_; }

 private:
  std::uint64_t cap_;
  std::string text_;
  bool truncated_ = false;
};

class LineSplitter {
 public:
  using Callback = std::function<void(std::string_view)>;
  LineSplitter(std::uint64_t cap, Callback on_line) : cap_(cap), on_line_(std::move(on_line)) {}
  // Delivers each line completed by `data`, without its '\n'. A line that would cross the cap is
  // dropped with everything after it.
  void feed(std::string_view data);
  bool truncated() const { return truncated_; }

 private:
  std::uint64_t cap_;
  Callback on_line_;
  std::string pending_;  // the unfinished line
  std::uint64_t received_ = 0;
  bool truncated_ = false;
};

}  // namespace sandbox
