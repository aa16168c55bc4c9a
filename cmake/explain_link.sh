#!/bin/sh
# The link of a student's launcher in a ctest build (RULE_LAUNCH_LINK of the launcher targets,
# cmake/AddLab.cmake): runs the link command it is given, shows the linker's messages, and when
# the link fails says what its undefined symbols mean for the student, e.g.
#   kernel.cu calls cublasSgemm_v2 (cuBLAS), which this lab does not allow: the work must be done
#   by your kernel
# The words and the parsing are batch grading's (grader/batch/src/link_errors.cpp); the test
# batch.LinkErrors.TheCtestBuildSaysTheSame keeps the two in step.
#   explain_link.sh LINK-COMMAND...     link, explaining a failure
#   explain_link.sh --explain FILE      only the explanation of the linker messages in FILE
explain() {
  LC_ALL=C awk '
    function student_file(object,   base) {
      base = object
      sub(/^[ \t]+/, "", base); sub(/[ \t\r]+$/, "", base)
      sub(/.*\//, "", base)
      sub(/\.o$/, "", base)
      sub(/\.cu\.cpp$/, ".cu", base)
      if (base ~ /\.cu$/) return base
      if (base != "" && base !~ /\./) return base ".cu"
      return ""
    }
    function library_of(name) {
      if (name ~ /^cublasLt/) return "cuBLASLt"
      if (name ~ /^cublas/) return "cuBLAS"
      if (name ~ /^cusparse/) return "cuSPARSE"
      if (name ~ /^cufft/) return "cuFFT"
      if (name ~ /^curand/) return "cuRAND"
      if (name ~ /^cusolver/) return "cuSOLVER"
      if (name ~ /^cudnn/) return "cuDNN"
      if (name ~ /^cutensor/) return "cuTENSOR"
      if (name ~ /^nvjpeg/) return "nvJPEG"
      if (name ~ /^nccl/) return "NCCL"
      if (name ~ /^nvrtc/) return "NVRTC"
      if (name ~ /^cupti/) return "CUPTI"
      if (name ~ /^npp/) return "NPP"
      if (name ~ /^cu[A-Z]/) return "the CUDA driver API"
      return ""
    }
    function add(symbol, file) { symbols[++count] = symbol; files[count] = file }
    function unquoted(text,   end, at, quotes, i) {
      if (substr(text, 1, 1) == "`" || substr(text, 1, 1) == "\047" || substr(text, 1, 1) == "\"") {
        text = substr(text, 2)
      } else if (substr(text, 1, 3) == "\342\200\230") {
        text = substr(text, 4)
      }
      # The last closing quote ends the symbol.
      end = length(text) + 1
      split("\047 \342\200\231 \"", quotes, " ")
      for (i = 1; i <= 3; i++) {
        at = last_index(text, quotes[i])
        if (at > 0 && at < end) end = at
      }
      return substr(text, 1, end - 1)
    }
    function last_index(text, part,   at, from, found) {
      found = 0; from = 0
      while ((at = index(substr(text, from + 1), part)) > 0) { found = from + at; from = found }
      return found
    }
    {
      line = $0
      if (killed == "" && (at = index(line, "terminated with signal ")) > 0) {
        killed = line
        sub(/^[ \t]+/, "", killed); sub(/[ \t\r]+$/, "", killed)
        if ((at = index(killed, "error: ")) > 0) killed = substr(killed, at + 7)
      }
      if ((at = index(line, "undefined reference to ")) > 0) {
        file = current_file
        colon = index(line, ":")
        if (colon > 0 && index(line, ":function ") > 0) file = student_file(substr(line, 1, colon - 1))
        add(unquoted(substr(line, at + 23)), file)
        awaiting = 0
      } else if ((at = index(line, "undefined symbol: ")) > 0) {
        symbol = substr(line, at + 18)
        sub(/^[ \t]+/, "", symbol); sub(/[ \t\r]+$/, "", symbol)
        add(symbol, "")
        awaiting = count
      } else if ((at = index(line, ": in function ")) > 0) {
        object = substr(line, 1, at - 1)
        while ((colon = index(object, ": ")) > 0) object = substr(object, colon + 2)
        current_file = student_file(object)
      } else if (substr(line, 1, 4) == ">>> " && awaiting) {
        if ((call = index(line, ":(")) > 0) {
          object = substr(line, 5, call - 5)
          sub(/^[ \t]+/, "", object)
          sub(/^referenced by /, "", object)
          files[awaiting] = student_file(object)
          awaiting = 0
        }
      }
    }
    END {
      said = 0
      for (i = 1; i <= count; i++) {
        file = files[i] == "" ? "kernel.cu" : files[i]
        name = symbols[i]; sub(/\(.*/, "", name)
        library = library_of(name)
        if (library != "") {
          sentence = file " calls " name " (" library "), which this lab does not allow: the work must be done by your kernel"
        } else if (name ~ /^cuda/) {
          sentence = file " calls " name ", which a launcher cannot use here (the grader replays your launches; see the handout)"
        } else {
          sentence = file " does not define " symbols[i] " (a function of the lab\047s header, with exactly that signature?)"
        }
        if (!(sentence in seen)) { seen[sentence] = 1; print sentence; said++ }
      }
      if (said == 0 && killed != "") {
        print "The linker was stopped (" killed "): a limit of the grader\047s build, not a mistake in your files"
        said++
      }
      if (said == 0) print "The kernel compiled but did not link: does kernel.cu define the functions of the lab\047s header with exactly those signatures?"
    }' "$1"
}

if [ "$1" = "--explain" ]; then
  explain "$2"
  exit 0
fi
messages=$(mktemp) || exit 1
trap 'rm -f "$messages"' EXIT
"$@" > "$messages" 2>&1
status=$?
cat "$messages" >&2
if [ "$status" -ne 0 ]; then
  explain "$messages" >&2
fi
exit "$status"
