#include "output_buffers.hpp"

namespace sandbox {

void HeadBuffer::append(std::string_view data) {
  const std::uint64_t room = cap_ - text_.size();
  if (data.size() > room) {
    truncated_ = true;
    data = data.substr(0, room);
  }
  text_.append(data);
}

void LineSplitter::feed(std::string_view data) {
  if (truncated_) return;
  if (received_ + data.size() > cap_) {
    truncated_ = true;
    data = data.substr(0, cap_ - received_);
  }
  received_ += data.size();
  while (!data.empty()) {
    const auto end = data.find('\n');
    if (end == std::string_view::npos) {
      pending_.append(data);
      return;
    }
    pending_.append(data.substr(0, end));
    data.remove_prefix(end + 1);
    std::string line = std::move(pending_);
    pending_.clear();
    on_line_(line);
  }
}

}  // namespace sandbox
