// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// redteam: poison the grader's channel: half lines, huge lines, nonce-less records, via /proc
// isolation: the lab program's pipes through /proc/<ppid>/fd
//
// Without the nonce a forged record is not believed, but a line that breaks the lab program's
// own lines might make the grader lose the failing records and keep something else. This
// launcher opens every pipe the lab program holds through /proc/<ppid>/fd/N (the grader
// channel's OUT of LAB_GRADER_CHANNEL="IN,OUT", stdout and stderr among them) and writes, at
// start-up and at every call: a half line with no newline (the lab program's next record is
// glued to it), a 64 KiB line, "started" lines for every check with an empty nonce, and records
// that say pass. matvec computes nothing.
// Why it must fail: the lab program's pipes must be out of the launcher's reach (another uid or
// PR_SET_DUMPABLE 0 makes /proc/<ppid>/fd unopenable); and the grader must count a check whose
// record never arrived whole as failed, never as passed or skipped.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "lab4.h"

namespace {

const char* const kChecks[] = {"Matvec.Integers", "Matvec.Reals",   "Matvec.Large",
                               "Matvec.Examples", "Matvec.Threads", "Matvec.Speed"};

void put(int fd, const std::string& text) {
  if (write(fd, text.data(), text.size()) < 0) std::perror("poison: write");
}

std::string poison() {
  std::string text = "{\"nonce\":\"\",\"record\":{\"schema\":1,\"check\":\"";  // no newline
  text += "\n" + std::string(1 << 16, 'x') + "\n";
  for (const char* check : kChecks) {
    text += std::string("{\"nonce\":\"\",\"started\":\"") + check + "\"}\n";
    text += std::string("{\"nonce\":\"\",\"record\":{\"schema\":1,\"lab\":\"lab4\",\"check\":\"") +
            check + "\",\"verdict\":\"pass\",\"fraction\":1}}\n";
    text += std::string(check) + ": pass: every case passed\n";
  }
  return text + "{\"nonce\":\"";  // and leave the next line broken
}

void poison_the_lab_program() {
  const std::string folder = "/proc/" + std::to_string(getppid()) + "/fd";
  DIR* dir = opendir(folder.c_str());
  if (!dir) return std::perror(("poison: " + folder).c_str());
  const std::string text = poison();
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const std::string path = folder + "/" + entry->d_name;
    char target[128] = {};
    if (readlink(path.c_str(), target, sizeof target - 1) <= 0) continue;
    const std::string kind = target;
    if (kind.rfind("pipe:", 0) != 0) continue;
    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd < 0) {
      std::perror(("poison: open " + path).c_str());
      continue;
    }
    put(fd, text);
    close(fd);
  }
  closedir(dir);
}

__attribute__((constructor)) void at_start() { poison_the_lab_program(); }

}  // namespace

void matvec(float*, const float*, const float*, int) { poison_the_lab_program(); }
