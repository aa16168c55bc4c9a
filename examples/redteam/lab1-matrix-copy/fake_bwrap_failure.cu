// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: prints bubblewrap's own failure ("bwrap: ...") and exits, to be started without it
// sandbox: bubblewrap
//
// Where bubblewrap cannot run (inside another sandbox without user namespaces) the lab program
// starts the launcher again without it: isolated by hand when it is root, not at all when it is
// not, and then the launcher runs under the grader's own uid, free to rewrite records and the
// isolation file. The lab program used to read "bubblewrap failed" from "bwrap:" in the
// launcher's output, which the launcher writes itself: a static initializer that prints what
// bubblewrap prints when it cannot make a namespace, and exits 1 as bubblewrap does, had it
// started again outside its sandbox. The second launcher does the same here (a real attack would
// now write passing records); the copies compute nothing.
// Why it must fail: the checks fail (no launcher ever says hello), and the run must keep the
// launcher in bubblewrap wherever bubblewrap runs (`labcheck expect fail --isolation
// bubblewrap`): only bubblewrap's word (its --json-status-fd report, a run of its own) says that it
// failed, never the launcher's output.
#include <unistd.h>

#include <cstdio>

#include "lab1.h"

namespace {

__attribute__((constructor)) void pretend_bubblewrap_failed() {
  const char* const kBwrapSays = "bwrap: Creating new namespace failed: Operation not permitted\n";
  std::fputs(kBwrapSays, stderr);
  std::fputs(kBwrapSays, stdout);
  std::fflush(nullptr);
  ::_exit(1);
}

}  // namespace

void copy_matrix(const float*, float*, int, int) {}

void copy_matrix_strided(const float*, float*, int, int) {}
