// Unpacking with libarchive. Entries are read one by one and only regular files and folders are
// written, by this code, at paths it has checked: libarchive's own extraction to disk (and its
// ARCHIVE_EXTRACT_SECURE_* flags) is not used at all, so nothing it would create (links, devices,
// permissions, owners) can come out of a student's archive.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>
#include <variant>

#include <fmt/format.h>

#include "archive_path.hpp"
#include "unpack.hpp"
#include "wording.hpp"

namespace fs = std::filesystem;

namespace intake {
namespace {

struct ArchiveFree {
  void operator()(archive* reader) const { archive_read_free(reader); }
};
using Reader = std::unique_ptr<archive, ArchiveFree>;

std::string corrupt(archive* reader) {
  const char* message = archive_error_string(reader);
  return "corrupt archive: " + wording::one_line(message ? message : "unknown error");
}

class Unpacker {
 public:
  Unpacker(archive* reader, fs::path destination, const Limits& limits)
      : reader_(reader), destination_(std::move(destination)), limits_(limits) {}

  // "" when every entry was unpacked, else the problem.
  std::string run() {
    for (;;) {
      archive_entry* entry = nullptr;
      const int status = archive_read_next_header(reader_, &entry);
      if (status == ARCHIVE_EOF) return "";
      if (status != ARCHIVE_OK && status != ARCHIVE_WARN) return corrupt(reader_);
      if (++entries_ > limits_.max_archive_entries) {
        return fmt::format("the archive has more than {} entries", limits_.max_archive_entries);
      }
      if (std::string problem = take(entry); !problem.empty()) return problem;
    }
  }

 private:
  std::string too_big() const {
    return fmt::format("the archive unpacks to more than {}",
                       wording::bytes(limits_.max_archive_bytes));
  }

  std::string take(archive_entry* entry) {
    const char* raw_name = archive_entry_pathname(entry);
    if (raw_name == nullptr) raw_name = archive_entry_pathname_utf8(entry);
    if (raw_name == nullptr) return "corrupt archive: an entry has no name";
    const std::string_view name = raw_name;

    auto destination = entry_destination(name);
    if (auto* problem = std::get_if<std::string>(&destination)) return *problem;
    const fs::path relative = std::get<fs::path>(destination);

    if (archive_entry_hardlink(entry) != nullptr) {
      return fmt::format("the archive contains a hard link: entry {}", wording::quoted(name));
    }
    switch (archive_entry_filetype(entry)) {
      case AE_IFDIR:
        return make_folder(relative, name);
      case AE_IFREG:
        break;
      case AE_IFLNK:
        return fmt::format("the archive contains a symbolic link: entry {}", wording::quoted(name));
      default:
        return fmt::format("the archive contains a special file (device, FIFO or socket): entry {}",
                           wording::quoted(name));
    }
    if (archive_entry_is_encrypted(entry)) {
      return fmt::format("the archive is encrypted: entry {}; submit it without a password",
                         wording::quoted(name));
    }
    if (relative.empty()) return "";  // "." as a file: nothing to write
    // A declared size past the limit stops the archive before a byte is written.
    if (archive_entry_size_is_set(entry) && static_cast<std::uint64_t>(archive_entry_size(entry)) >
                                                limits_.max_archive_bytes - unpacked_) {
      return too_big();
    }
    return write_file(relative, name);
  }

  std::string make_folder(const fs::path& relative, std::string_view name) {
    std::error_code error;
    fs::create_directories(destination_ / relative, error);
    if (error) {
      return fmt::format("cannot unpack entry {}: {}", wording::quoted(name), error.message());
    }
    return "";
  }

  std::string write_file(const fs::path& relative, std::string_view name) {
    if (std::string problem = make_folder(relative.parent_path(), name); !problem.empty()) {
      return problem;
    }
    // Only folders made here exist under the destination, so no link can redirect this open;
    // O_NOFOLLOW is one more guard.
    const fs::path path = destination_ / relative;
    const int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      return fmt::format("cannot unpack entry {}: {}", wording::quoted(name), strerror(errno));
    }
    const std::string problem = copy_data(fd, name);
    ::close(fd);
    return problem;
  }

  // Counts what is actually unpacked: a declared size can lie, or be missing.
  std::string copy_data(int fd, std::string_view name) {
    std::array<char, 64 * 1024> buffer{};
    for (;;) {
      const la_ssize_t count = archive_read_data(reader_, buffer.data(), buffer.size());
      if (count == 0) return "";
      if (count < 0) return corrupt(reader_);
      unpacked_ += static_cast<std::uint64_t>(count);
      if (unpacked_ > limits_.max_archive_bytes) return too_big();
      for (la_ssize_t done = 0; done < count;) {
        const ssize_t written = ::write(fd, buffer.data() + done, count - done);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) {
          return fmt::format("cannot unpack entry {}: {}", wording::quoted(name), strerror(errno));
        }
        done += written;
      }
    }
  }

  archive* reader_;
  fs::path destination_;
  const Limits& limits_;
  int entries_ = 0;
  std::uint64_t unpacked_ = 0;
};

std::string unpack_into(const fs::path& archive_path, const fs::path& destination,
                        const Limits& limits) {
  Reader reader(archive_read_new());
  if (!reader) return "cannot read archives: out of memory";
  // Zip and tar only (plain or compressed): the formats asked for, and less parser exposed to
  // untrusted bytes than all of libarchive's. Zip is read through its central directory (the
  // seekable reader), as unzip does: a cut-off zip is then refused rather than read up to where
  // it breaks, and local headers that disagree with the directory cannot smuggle entries in.
  // "empty" reads an empty file as an empty archive (then "no kernel file"), not a corrupt one.
  archive_read_support_filter_all(reader.get());
  archive_read_support_format_zip_seekable(reader.get());
  archive_read_support_format_tar(reader.get());
  archive_read_support_format_gnutar(reader.get());
  archive_read_support_format_empty(reader.get());
  if (archive_read_open_filename(reader.get(), archive_path.c_str(), 64 * 1024) != ARCHIVE_OK) {
    return corrupt(reader.get());
  }
  return Unpacker(reader.get(), destination, limits).run();
}

}  // namespace

bool archives_supported() { return true; }

std::string unpack(const fs::path& archive_path, const fs::path& destination,
                   const Limits& limits) {
  // What an earlier run left is not this archive's; remove_all removes links, never follows them.
  std::error_code error;
  fs::remove_all(destination, error);
  if (!error) fs::create_directories(destination, error);
  if (error) {
    return fmt::format("cannot make the unpack folder {}: {}",
                       wording::quoted(destination.string()), error.message());
  }
  std::string problem = unpack_into(archive_path, destination, limits);
  if (!problem.empty()) fs::remove_all(destination, error);
  return problem;
}

}  // namespace intake
