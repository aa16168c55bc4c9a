#include "test_archives.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <memory>
#include <stdexcept>

namespace intake::testing {
namespace {

void check(archive* writer, int status, const char* what) {
  if (status < ARCHIVE_WARN) {
    const char* message = archive_error_string(writer);
    throw std::runtime_error(std::string(what) + ": " + (message ? message : "?"));
  }
}

}  // namespace

void write_archive(const std::filesystem::path& path, Format format,
                   const std::vector<Item>& items) {
  std::unique_ptr<archive, decltype(&archive_write_free)> writer(archive_write_new(),
                                                                 &archive_write_free);
  archive* w = writer.get();
  if (format == Format::zip || format == Format::zip_encrypted) {
    check(w, archive_write_set_format_zip(w), "zip format");
    if (format == Format::zip_encrypted) {
      check(w, archive_write_set_options(w, "zip:encryption=zipcrypt"), "zip encryption");
      check(w, archive_write_set_passphrase(w, "secret"), "passphrase");
    }
  } else {
    check(w, archive_write_set_format_pax_restricted(w), "tar format");
    if (format == Format::tar_gz) check(w, archive_write_add_filter_gzip(w), "gzip filter");
  }
  check(w, archive_write_open_filename(w, path.c_str()), "open");

  for (const Item& item : items) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(),
                                                                        &archive_entry_free);
    archive_entry* e = entry.get();
    archive_entry_set_pathname(e, item.name.c_str());
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, 0);
    switch (item.kind) {
      case Item::Kind::file:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_size(e, static_cast<la_int64_t>(item.data.size()));
        break;
      case Item::Kind::folder:
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, 0755);
        break;
      case Item::Kind::symlink:
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_set_symlink(e, item.target.c_str());
        break;
      case Item::Kind::hardlink:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_hardlink(e, item.target.c_str());
        break;
      case Item::Kind::fifo:
        archive_entry_set_filetype(e, AE_IFIFO);
        break;
    }
    check(w, archive_write_header(w, e), "header");
    if (item.kind == Item::Kind::file && !item.data.empty()) {
      if (archive_write_data(w, item.data.data(), item.data.size()) < 0) {
        check(w, ARCHIVE_FATAL, "data");
      }
    }
  }
  check(w, archive_write_close(w), "close");
}

}  // namespace intake::testing
