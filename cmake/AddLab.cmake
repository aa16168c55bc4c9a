# add_lab(<folder>): the one call that turns labs/<folder>/ into a lab.
#
# The folder holds README.md (handout), kernel.cu (starter), labN.h (contract), spec.json (points,
# sizes, thresholds) and tests/*.cu or tests/*.cpp (the checks, one LAB_CHECK per spec entry).
# add_lab makes
#   - target labN (EXCLUDE_FROM_ALL: `make labN` builds just that lab) from the kernel, the tests
#     and the harness; the kernel comes from solutions/<folder>/ when LABS_USE_SOLUTIONS is ON;
#   - labN.run (`labgrade run`: every check in one run of the lab program) and one ctest test per
#     spec check (labN.Suite.Name, labels labN and the check's kind: `labgrade verdict`, its part
#     of the output and its verdict); skipped with "not built: run make labN" until it is built;
#   - labN.setup (clears old results) and labN.report (renders build/reports/labN.html) as the
#     fixture around the checks, so `ctest -L labN` or `ctest -R ...` always ends with a report;
#   - on a GPU build, labN.sanitizer (`labcheck sanitize`: the batch's compute-sanitizer pass)
#     between labN.run and the checks' tests, whose records its findings can fail.
set(LABS_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
# nvcc flags for the student's sources only, in ctest's build and in the batch grader's (the kit's
# "compile"): -lineinfo maps the kernels' machine code to kernel.cu's lines, so compute-sanitizer
# names the student's line. It does not change the code nvcc generates.
set(LABS_STUDENT_CUDA_FLAGS "-lineinfo")
include("${CMAKE_CURRENT_LIST_DIR}/SpecTool.cmake")  # labs_read_spec: a lab's checks from labspec
include("${CMAKE_CURRENT_LIST_DIR}/GradingKit.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/LabContract.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/GpuResources.cmake")
set(LABS_SUMMARY_DIR "${CMAKE_BINARY_DIR}/reports/.ctest-run")
set_property(GLOBAL PROPERTY LABS_ALL_LABS "")
find_program(LABS_COMPUTE_SANITIZER compute-sanitizer
             HINTS "${CUDAToolkit_BIN_DIR}" /usr/local/cuda/bin)
# What `labcheck sanitize` is given: compute-sanitizer's path, or "" when it was not found (its
# tests are registered all the same, and skip saying so).
set(LABS_SANITIZER_FOR_TESTS "")
if(LABS_COMPUTE_SANITIZER)
  set(LABS_SANITIZER_FOR_TESTS "${LABS_COMPUTE_SANITIZER}")
endif()
find_program(LABS_CUOBJDUMP cuobjdump HINTS "${CUDAToolkit_BIN_DIR}" /usr/local/cuda/bin)

# The student's launcher program: their .cu files (host code and device code in one compile) with
# the lab's entries table and the stand-in CUDA runtime instead of libcudart (on a GPU), or the
# emulator that runs their kernels (under the CPU emulation).
# ${lab}_launcher_main (the lab's entries table) is built once; the grading kit ships it.
function(_labs_add_launcher target lab lab_dir)
  if(NOT TARGET ${lab}_launcher_main)
    labs_device_sources(launcher_main ${lab}_launcher_main "${LABS_LAUNCHER_MAIN}")
    add_library(${lab}_launcher_main STATIC EXCLUDE_FROM_ALL ${launcher_main}
                "${CMAKE_BINARY_DIR}/contracts/${lab}/${lab}_entries.cpp")
    target_include_directories(${lab}_launcher_main PRIVATE "${lab_dir}")
    target_link_libraries(${lab}_launcher_main PUBLIC labs_launcher_runtime)
  endif()
  add_executable(${target} EXCLUDE_FROM_ALL ${ARGN})
  target_include_directories(${target} PRIVATE "${lab_dir}")
  target_link_libraries(${target} PRIVATE ${lab}_launcher_main)
  # A link that fails says what its undefined symbols mean for the student (a cuBLAS call the lab
  # does not allow, a contract function missing): the batch grader's words, from the ctest build.
  set_property(TARGET ${target} PROPERTY RULE_LAUNCH_LINK
               "sh \"${LABS_CMAKE_DIR}/explain_link.sh\"")
  if(NOT LABS_EMULATION)
    set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY None)
    target_compile_options(${target} PRIVATE
                           "$<$<COMPILE_LANGUAGE:CUDA>:${LABS_STUDENT_CUDA_FLAGS}>")
  endif()
endfunction()

function(add_lab folder)
  if(NOT folder MATCHES "^(lab[0-9]+)-[a-z0-9-]+$")
    message(FATAL_ERROR "add_lab(${folder}): lab folders are named labN-some-slug")
  endif()
  set(lab "${CMAKE_MATCH_1}")
  set(lab_dir "${CMAKE_CURRENT_SOURCE_DIR}/${folder}")
  set(spec "${lab_dir}/spec.json")
  set(results "${CMAKE_BINARY_DIR}/results/${lab}")
  set(report "${CMAKE_BINARY_DIR}/reports/${lab}.html")

  if(LABS_USE_SOLUTIONS)
    set(kernel "${PROJECT_SOURCE_DIR}/solutions/${folder}/kernel.cu")
    set(kernel_label "solutions/${folder}/kernel.cu (reference solution)")
    if(NOT EXISTS "${kernel}")
      message(FATAL_ERROR "LABS_USE_SOLUTIONS is ON but ${kernel} does not exist "
                          "(a student kit has no solutions/)")
    endif()
  else()
    set(kernel "${lab_dir}/kernel.cu")
    set(kernel_label "labs/${folder}/kernel.cu")
  endif()
  foreach(required "${spec}" "${kernel}" "${lab_dir}/README.md")
    if(NOT EXISTS "${required}")
      message(FATAL_ERROR "add_lab(${folder}): ${required} is missing")
    endif()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
  # tests/*.cu, or tests/*.cpp for checks without kernels of their own: nvcc is much slower on
  # host code than the host compiler, and a student's first `make labN` compiles them.
  file(GLOB test_sources CONFIGURE_DEPENDS "${lab_dir}/tests/*.cu" "${lab_dir}/tests/*.cpp")

  # The checks are compiled once and linked with each kernel: the student's (or the solution),
  # and in self-test builds the starter and the known-wrong kernels.
  labs_device_sources(check_sources ${lab}_checks ${test_sources}
                      "${PROJECT_SOURCE_DIR}/harness/checks/src/lab_main.cpp")
  # The student's code is never linked into the lab program: the contract functions are proxies
  # to the student's launcher process (harness/student_call.hpp).
  labs_generate_contract(${lab} "${lab_dir}" contract_proxies contract_entries)
  list(APPEND check_sources "${contract_proxies}")
  add_library(${lab}_checks OBJECT EXCLUDE_FROM_ALL ${check_sources})
  target_include_directories(${lab}_checks PUBLIC "${lab_dir}")
  target_compile_definitions(${lab}_checks PRIVATE LAB_SPEC_PATH="${spec}"
                                                   LAB_RESULTS_DIR="${results}"
                                                   LAB_LAUNCHER_PATH="$<TARGET_FILE:${lab}_launcher>")
  # Only the labs whose checks use the matrix-multiply family link it: lab 1's build (a student's
  # first `make`) compiles none of it.
  set(checks_harness harness)
  foreach(source IN LISTS test_sources)
    file(STRINGS "${source}" uses_matmul REGEX "#include \"harness/matmul")
    if(uses_matmul)
      set(checks_harness harness_matmul)
    endif()
  endforeach()
  target_link_libraries(${lab}_checks PUBLIC ${checks_harness})

  # The optional bonus (bonus.cu next to kernel.cu) is built when it exists; without it the
  # bonus checks say "not attempted" (the launcher's entries declare the bonus functions weak,
  # cmake/LabContract.cmake, and say which the submission defines: LAB_STUDENT_DEFINES).
  # CONFIGURE_DEPENDS: a bonus.cu added later is picked up by the next build.
  get_filename_component(kernel_dir "${kernel}" DIRECTORY)
  # Under the CPU emulation too (it emulates warp shuffles): its correctness checks run there,
  # its speed checks say "not measured".
  file(GLOB bonus_source CONFIGURE_DEPENDS "${kernel_dir}/bonus.cu")
  labs_device_sources(kernel_sources ${lab} "${kernel}" ${bonus_source})
  # The lab program (trusted: checks and harness only) and the student's launcher (untrusted:
  # kernel.cu and bonus.cu, against the stand-in CUDA runtime on a GPU, or with the emulator);
  # `make labN` builds both.
  add_executable(${lab} EXCLUDE_FROM_ALL "${PROJECT_SOURCE_DIR}/harness/checks/src/lab_main_anchor.cpp")
  _labs_add_launcher(${lab}_launcher ${lab} "${lab_dir}" ${kernel_sources})
  add_dependencies(${lab} ${lab}_launcher)
  target_link_libraries(${lab} PRIVATE ${lab}_checks)
  # ctest runs the checks and the report through labcheck (or a labgrade given as LABS_LABGRADE):
  # `make labN` builds it, and with it none of the instructor's batch grading.
  get_property(ctest_steps GLOBAL PROPERTY LABS_CTEST_STEPS)
  if(NOT LABS_LABGRADE)
    add_dependencies(${lab} ${ctest_steps})
  endif()

  labs_read_spec("${spec}" ${lab})
  set(ids "${LAB_SPEC_IDS}")
  set(kinds "${LAB_SPEC_KINDS}")
  set(timeouts "${LAB_SPEC_TIMEOUTS}")
  _labs_run_check_command(runner ${lab})

  add_test(NAME ${lab}.setup COMMAND "${CMAKE_COMMAND}" -E rm -rf "${results}")
  set_tests_properties(${lab}.setup PROPERTIES FIXTURES_SETUP ${lab} LABELS "${lab}")

  # One run of the lab program for all its checks (a process, its CUDA contexts and the student's
  # launcher start once), then one test per check that shows its part and its verdict. Selecting
  # one check (ctest -R) still runs them all, through the fixture.
  set(run_timeout 60)
  foreach(timeout IN LISTS timeouts)
    math(EXPR run_timeout "${run_timeout} + ${timeout}" OUTPUT_FORMAT DECIMAL)
  endforeach()
  add_test(NAME ${lab}.run COMMAND ${runner} run "${spec}" "${results}")
  set_tests_properties(${lab}.run PROPERTIES
    LABELS "${lab}" FIXTURES_REQUIRED ${lab} FIXTURES_SETUP ${lab}_run SKIP_RETURN_CODE 77
    TIMEOUT ${run_timeout})
  labs_gpu_test(${lab}.run)
  # compute-sanitizer's pass over the run's records (labN.sanitizer) can fail checks: the checks'
  # tests and the report come after it. Its limit covers the pass's own worst case (every
  # correctness check to its limit, a process started again after each, 60 s to start), so that
  # ctest never kills it first: a killed fixture setup would leave every check's test "Not Run".
  set(sanitizer_timeout 900)
  set(pass_worst 60)
  foreach(kind timeout IN ZIP_LISTS kinds timeouts)
    if(kind STREQUAL "correctness")
      math(EXPR pass_worst "${pass_worst} + ${timeout} + 60" OUTPUT_FORMAT DECIMAL)
    endif()
  endforeach()
  if(pass_worst GREATER sanitizer_timeout)
    set(sanitizer_timeout ${pass_worst})
  endif()
  _labs_add_sanitizer_test(${lab} "${spec}" "${results}" "${runner}" ${sanitizer_timeout}
                           check_fixtures)
  foreach(id kind IN ZIP_LISTS ids kinds)
    add_test(NAME ${lab}.${id} COMMAND ${runner} verdict "${results}" "${id}")
    # labgrade verdict exits 77 for a check not judged (skipped, not measured, not attempted: the
    # verdict table in grader/batch/verdict_table.hpp; contract/exit_status.hpp's `skipped`).
    set_tests_properties(${lab}.${id} PROPERTIES
      LABELS "${lab};${kind}"
      FIXTURES_REQUIRED "${check_fixtures}"
      SKIP_RETURN_CODE 77
      TIMEOUT 30)
  endforeach()

  add_test(NAME ${lab}.report
           COMMAND ${runner} report "${spec}" "${results}" "${report}" "${kernel_label}"
                   "${lab_dir}/README.md")
  set_tests_properties(${lab}.report PROPERTIES
    FIXTURES_CLEANUP ${lab} LABELS "${lab};report" SKIP_RETURN_CODE 77)

  # nvcc for a GPU, or under the CPU emulation the rewriter and g++ (Slurm CI grades with it)
  _labs_add_grading_kit(${lab} ${folder} "${lab_dir}" "${spec}")
  set_property(GLOBAL APPEND PROPERTY LABS_ALL_LABS ${lab})
  if(TARGET all_labs)
    add_dependencies(all_labs ${lab})
  endif()
  if(LABS_BUILD_SELF_TESTS)
    _labs_add_must_fail_tests(${lab} "${lab_dir}" "${spec}" "${ids}" "${kinds}"
                              "${LAB_SPEC_BONUS_IDS}")
    _labs_add_must_pass_tests(${lab} "${lab_dir}" "${spec}" "${ids}")
    if(LABS_USE_SOLUTIONS)
      # The reference solution and the kit's kernels: no finding anywhere, every case (the
      # student's labN.sanitizer looks at first cases and charges the student's files only).
      _labs_add_must_stay_clean_test(${lab} "${spec}" solution.sanitizer "")
    endif()
  endif()
endfunction()

# `out`: the start of every ctest command of `lab` (cmake/run_check.sh with the lab program,
# labcheck or LABS_LABGRADE, the lab and the summary folder); the mode and its arguments follow.
function(_labs_run_check_command out lab)
  get_property(ctest_steps GLOBAL PROPERTY LABS_CTEST_STEPS)
  set(${out} sh "${LABS_CMAKE_DIR}/run_check.sh" "$<TARGET_FILE:${lab}>"
             "$<TARGET_FILE:${ctest_steps}>" "${lab}" "${LABS_SUMMARY_DIR}" PARENT_SCOPE)
endfunction()

# `out`: the command of a self-test of the checks: `labcheck expect <mode>` (grader/src/
# expect_command.hpp) through run_check.sh (skipped when the lab is not built; ctest's GPU), which
# runs the lab program with the launcher LAB_LAUNCHER names as `labcheck run` does (the batch's
# runner and verdict table) and decides from its records whether every check of `checks` (a list)
# failed or passed as it must. ARGN: `expect fail`'s options (--reason, --diagnosis, ...).
function(_labs_expect_command out lab spec mode results checks)
  _labs_run_check_command(run_check ${lab})
  string(REPLACE ";" ":" filter "${checks}")
  set(${out} ${run_check} expect ${mode}
             --spec "${spec}" --results "${results}" --checks "${filter}" ${ARGN}
             -- "$<TARGET_FILE:${lab}>" --spec "${spec}" PARENT_SCOPE)
endfunction()

# Kernels written as real students write them (tests/right/*.cu: multi-pass launchers that move
# partial results with cudaMemcpy, helper kernels that zero an output, ...): each must PASS the
# checks its "// must-pass: Suite.Name ..." lines name, so that no innocent loses points to a rule
# of the checks (`labcheck expect pass`). A speed check under the CPU emulation is not judged.
function(_labs_add_must_pass_tests lab lab_dir spec ids)
  file(GLOB right_kernels CONFIGURE_DEPENDS "${lab_dir}/tests/right/*.cu")
  foreach(file IN LISTS right_kernels)
    get_filename_component(name "${file}" NAME_WE)
    file(STRINGS "${file}" header_lines REGEX "^// must-pass:")
    set(must_pass "")
    foreach(line IN LISTS header_lines)
      string(REGEX REPLACE "^// must-pass:[ ]*" "" names "${line}")
      separate_arguments(names UNIX_COMMAND "${names}")
      list(APPEND must_pass ${names})
    endforeach()
    if(NOT must_pass)
      message(FATAL_ERROR "${file}: the first line must be // must-pass: Suite.Name ...")
    endif()
    foreach(id IN LISTS must_pass)
      if(NOT id IN_LIST ids)
        message(FATAL_ERROR "${file}: must-pass names '${id}', which is not a check of ${lab}")
      endif()
    endforeach()
    set(target ${lab}_right_${name})
    labs_device_sources(variant_sources ${target} "${file}")
    _labs_add_launcher(${target} ${lab} "${lab_dir}" ${variant_sources})
    add_dependencies(${lab} ${target})
    if(NOT TARGET all_known_wrong)
      add_custom_target(all_known_wrong)
    endif()
    add_dependencies(all_known_wrong ${lab})
    _labs_expect_command(expect ${lab} "${spec}" pass
                         "${CMAKE_BINARY_DIR}/results/must_pass/${target}" "${must_pass}")
    add_test(NAME ${lab}.must_pass.${name} COMMAND ${expect})
    set_tests_properties(${lab}.must_pass.${name} PROPERTIES
      LABELS "${lab};known_wrong" SKIP_RETURN_CODE 77 TIMEOUT 600
      ENVIRONMENT "LAB_LAUNCHER=$<TARGET_FILE:${target}>")
    labs_gpu_test(${lab}.must_pass.${name})
    # compute-sanitizer must not cost a right kernel points either (the pass a batch and ctest
    # charge findings by).
    _labs_add_must_stay_clean_test(${lab} "${spec}" must_pass.${name}.sanitizer
                                   "LAB_LAUNCHER=$<TARGET_FILE:${target}>")
  endforeach()
endfunction()

# <lab>.<name>: `labcheck sanitize --expect-no-findings`: compute-sanitizer over every correctness
# check, every case, charges no check of a right kernel (LAB_LAUNCHER's, or the lab's own build)
# and finds nothing in the kit's kernels. Not under the CPU emulation, which has no sanitizer.
function(_labs_add_must_stay_clean_test lab spec name launcher_env)
  if(LABS_EMULATION)
    return()
  endif()
  _labs_run_check_command(run_check ${lab})
  add_test(NAME ${lab}.${name}
           COMMAND ${run_check} sanitize "${spec}" "${CMAKE_BINARY_DIR}/results/clean/${lab}_${name}"
                   "${LABS_SANITIZER_FOR_TESTS}" --expect-no-findings)
  set_tests_properties(${lab}.${name} PROPERTIES
    LABELS "${lab};known_wrong;sanitizer" SKIP_RETURN_CODE 77 TIMEOUT 900
    ENVIRONMENT "${launcher_env}")
  labs_gpu_test(${lab}.${name})
endfunction()

# labN.sanitizer: compute-sanitizer over the run's correctness checks that earned points, the
# spec's tools (memcheck: out-of-bounds and misaligned accesses, reads too, which guard zones
# cannot see; racecheck: shared-memory races), each check's first case: `labcheck sanitize`, the
# batch's pass (grader_sanitizer), so that a finding fails its check with the sanitizer's words at
# kernel.cu's line and costs the points it costs in `labgrade batch`. It is a fixture setup
# (labN_sanitized) between the run and the checks' tests: a test skipped (77: no compute-sanitizer,
# no GPU, the CPU emulation's build has none) still lets CMake run its dependents, a failed one
# would not. Sets `out_fixtures` to the fixtures the checks' tests require.
function(_labs_add_sanitizer_test lab spec results runner timeout out_fixtures)
  set(fixtures "${lab};${lab}_run")
  # Under the CPU emulation the emulator checks the kernels' accesses in the run itself.
  if(NOT LABS_EMULATION)
    add_test(NAME ${lab}.sanitizer
             COMMAND ${runner} sanitize "${spec}" "${results}" "${LABS_SANITIZER_FOR_TESTS}")
    set_tests_properties(${lab}.sanitizer PROPERTIES
      LABELS "${lab};sanitizer" FIXTURES_REQUIRED "${lab};${lab}_run"
      FIXTURES_SETUP ${lab}_sanitized SKIP_RETURN_CODE 77 TIMEOUT ${timeout})
    labs_gpu_test(${lab}.sanitizer)
    list(APPEND fixtures ${lab}_sanitized)
  endif()
  set(${out_fixtures} "${fixtures}" PARENT_SCOPE)
endfunction()

# labN.must_fail.<name>.<tool>: compute-sanitizer's <tool> must catch the known-wrong kernel
# `file`: `labcheck sanitize --expect-findings` passes when the batch's pass charges a finding in
# that file to at least one correctness check, over every case (skipped without compute-sanitizer
# or a GPU).
function(_labs_add_must_catch_test lab spec name tool file launcher_env)
  _labs_run_check_command(run_check ${lab})
  get_filename_component(file_name "${file}" NAME)
  add_test(NAME ${lab}.must_fail.${name}.${tool}
           COMMAND ${run_check} sanitize "${spec}" "${CMAKE_BINARY_DIR}/results/must_fail/${lab}_${name}-${tool}"
                   "${LABS_SANITIZER_FOR_TESTS}" --tool ${tool} --student-file "${file_name}"
                   --expect-findings)
  set_tests_properties(${lab}.must_fail.${name}.${tool} PROPERTIES
    LABELS "${lab};known_wrong;sanitizer" SKIP_RETURN_CODE 77 TIMEOUT 900
    ENVIRONMENT "${launcher_env}")
  labs_gpu_test(${lab}.must_fail.${name}.${tool})
endfunction()

# <prefix>.emulated_<tool>: under the CPU emulation, the emulator's own finding in place of
# compute-sanitizer's <tool> must fail at least one of the checks (ARGN) with `reason`'s words.
function(_labs_add_emulated_finding_test prefix tool spec target launcher_env reason)
  string(REGEX MATCH "^[^.]+" lab "${prefix}")
  _labs_expect_command(expect ${lab} "${spec}" fail
                       "${CMAKE_BINARY_DIR}/results/must_fail/${target}-${tool}" "${ARGN}"
                       --any --reason "${reason}")
  add_test(NAME ${prefix}.emulated_${tool} COMMAND ${expect})
  set_tests_properties(${prefix}.emulated_${tool} PROPERTIES
    LABELS "${lab};known_wrong;emulation" SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "${launcher_env}")
endfunction()

# The launcher's view of the machine when a root lab program isolates it by hand (harness/runtime/
# src/student/launcher_view.hpp), tested once, with the first lab's program: a launcher that is a
# shell script under /tmp says what it sees (`labcheck expect launcher-view`). Skipped when not root.
function(_labs_add_launcher_view_test lab spec ids)
  get_property(registered GLOBAL PROPERTY LABS_LAUNCHER_VIEW_TEST)
  if(registered)
    return()
  endif()
  set_property(GLOBAL PROPERTY LABS_LAUNCHER_VIEW_TEST ON)
  list(GET ids 0 check)
  _labs_expect_command(expect ${lab} "${spec}" launcher-view
                       "${CMAKE_BINARY_DIR}/results/launcher_view" "${check}")
  add_test(NAME ${lab}.isolation.launcher_view COMMAND ${expect})
  set_tests_properties(${lab}.isolation.launcher_view PROPERTIES
    LABELS "${lab};known_wrong" SKIP_RETURN_CODE 77 TIMEOUT 120)
  labs_gpu_test(${lab}.isolation.launcher_view)
endfunction()

# Tests of the checks themselves (LABS_BUILD_SELF_TESTS=ON, an instructor's build; a student's
# build has none of them, so a student's `make labN` stays the lab alone). They belong to their
# lab: label labN (and known_wrong), and `make labN` builds their kernels, so that `ctest -L labN`
# runs what `make labN` built. The starter must fail every correctness check, and each
# known-wrong kernel in tests/wrong/ must fail the checks its "// must-fail: Suite.Name Suite.Other"
# lines name (one or more lines), where sanitizer.memcheck or sanitizer.racecheck means
# compute-sanitizer must report errors (a race does not always show in the results, the sanitizer
# always sees it). Without a GPU they are skipped. A "// diagnosis: id" line names the mistake the
# failing records must diagnose (harness/diagnose.hpp); the starter's is "unwritten". A
# "// evidence: kind [kind ...]" line names the CPU emulator's evidence facts (emulation/src/
# evidence.hpp) its records must carry under the emulation: there a kernel that is wrong only
# for speed (its checks "not measured") is judged by them instead of skipped.
# "// must-fail: build" is a kernel whose build must fail (a call into a library the launcher does
# not link): its test builds it and passes when the build fails saying the "// build-output:"
# words (`labcheck expect build-fail`). It is not part of all_known_wrong, which must build.
# The others run through `labcheck expect fail` (grader/src/expect_command.hpp), which checks the
# diagnosis, the evidence and the isolation too.
function(_labs_add_must_fail_tests lab lab_dir spec ids kinds bonus_ids)
  _labs_add_launcher_view_test(${lab} "${spec}" "${ids}")
  set(variants "starter=${lab_dir}/kernel.cu")
  set(nightly_variants "")
  # Hostile submissions (examples/redteam/<folder>/) are known-wrong kernels too: each must fail
  # every check it did not earn.
  get_filename_component(folder "${lab_dir}" NAME)
  file(GLOB wrong_kernels CONFIGURE_DEPENDS "${lab_dir}/tests/wrong/*.cu"
       "${PROJECT_SOURCE_DIR}/examples/redteam/${folder}/*.cu")
  foreach(file IN LISTS wrong_kernels)
    get_filename_component(name "${file}" NAME_WE)
    if(file MATCHES "/examples/redteam/")
      set(name "redteam_${name}")
    endif()
    # "// emulation: not built (why)": a kernel the CPU emulation cannot compile (tensor cores,
    # a library's kernels); its GPU test stays.
    file(STRINGS "${file}" not_emulated REGEX "^// emulation: not built")
    if(LABS_EMULATION AND not_emulated)
      continue()
    endif()
    list(APPEND variants "${name}=${file}")
    # "// emulation: nightly (why)": a kernel whose tests take long on the CPU (tens of seconds:
    # a Large check and its diagnosis re-runs on the emulator). Under the emulation its tests are
    # labelled `nightly`, which CI's emulation pass leaves out (scripts/run-tests.sh) to stay
    # within its time; the GPU job runs them as ever, and so does LABS_CI_NIGHTLY=1.
    file(STRINGS "${file}" nightly_line REGEX "^// emulation: nightly")
    if(LABS_EMULATION AND nightly_line)
      list(APPEND nightly_variants "${name}")
    endif()
  endforeach()
  set(correctness_checks "")
  foreach(id kind IN ZIP_LISTS ids kinds)
    # The bonus is optional: the starter's is "not attempted", not failed.
    if(kind STREQUAL "correctness" AND NOT id IN_LIST bonus_ids)
      list(APPEND correctness_checks "${id}")
    endif()
  endforeach()

  foreach(variant IN LISTS variants)
    string(REGEX REPLACE "=.*" "" name "${variant}")
    string(REGEX REPLACE "^[^=]*=" "" file "${variant}")
    # "// diagnosis: id [other-id ...]": the mistake the records must name (the starter's is
    # always "unwritten"); `labcheck expect fail --diagnosis` checks it.
    set(expected_diagnosis "")
    set(expected_evidence "")
    set(build_must_fail OFF)
    if(name STREQUAL "starter")
      set(must_fail ${correctness_checks})
      set(expected_diagnosis "unwritten")
    else()
      file(STRINGS "${file}" diagnosis_lines REGEX "^// diagnosis:")
      foreach(line IN LISTS diagnosis_lines)
        string(REGEX REPLACE "^// diagnosis:[ ]*" "" diagnosis_ids "${line}")
        string(STRIP "${diagnosis_ids}" diagnosis_ids)
        string(APPEND expected_diagnosis " ${diagnosis_ids}")
      endforeach()
      string(STRIP "${expected_diagnosis}" expected_diagnosis)
      # "// evidence: kind [kind ...]": the emulator's facts the records must carry
      # (`labcheck expect fail --evidence` checks it under the emulation).
      file(STRINGS "${file}" evidence_lines REGEX "^// evidence:")
      foreach(line IN LISTS evidence_lines)
        string(REGEX REPLACE "^// evidence:[ ]*" "" kinds_named "${line}")
        separate_arguments(kinds_named UNIX_COMMAND "${kinds_named}")
        foreach(evidence_kind IN LISTS kinds_named)
          if(NOT evidence_kind IN_LIST LABS_EVIDENCE_KINDS)
            message(FATAL_ERROR "${file}: // evidence: names '${evidence_kind}', which is not a "
                                "kind of the emulator's facts (emulation/src/evidence.hpp)")
          endif()
          string(APPEND expected_evidence " ${evidence_kind}")
        endforeach()
      endforeach()
      string(STRIP "${expected_evidence}" expected_evidence)
      # Every "// must-fail:" line counts, so a long list can wrap over several lines.
      file(STRINGS "${file}" header_lines REGEX "^// must-fail:")
      set(must_fail "")
      foreach(line IN LISTS header_lines)
        string(REGEX REPLACE "^// must-fail:[ ]*" "" names "${line}")
        separate_arguments(names UNIX_COMMAND "${names}")
        list(APPEND must_fail ${names})
      endforeach()
      if(NOT must_fail)
        message(FATAL_ERROR "${file}: the first line must be // must-fail: Suite.Name ...")
      endif()
      if(must_fail STREQUAL "build")
        set(build_must_fail ON)
        set(must_fail "")
        file(STRINGS "${file}" output_lines REGEX "^// build-output:")
        if(NOT output_lines)
          message(FATAL_ERROR "${file}: // must-fail: build needs a // build-output: line with "
                              "the words the failed build must say")
        endif()
        set(build_output "")
        foreach(line IN LISTS output_lines)
          string(REGEX REPLACE "^// build-output:[ ]*" "" words "${line}")
          string(STRIP "${words}" words)
          list(APPEND build_output "${words}")
        endforeach()
      endif()
      set(sanitizer_tools "")
      foreach(id IN LISTS must_fail)
        if(id MATCHES "^sanitizer\\.(memcheck|racecheck)$")
          list(APPEND sanitizer_tools "${CMAKE_MATCH_1}")
          list(REMOVE_ITEM must_fail "${id}")
        endif()
      endforeach()
      foreach(id IN LISTS must_fail)
        if(NOT id IN_LIST ids)
          message(FATAL_ERROR "${file}: must-fail names '${id}', which is not a check of ${lab}")
        endif()
      endforeach()
    endif()
    set(target ${lab}_${name})
    labs_device_sources(variant_sources ${target} "${file}")
    # Not in `all`: built by `make labN` and all_known_wrong (CI without a GPU only needs them for
    # the emulation). The variant is a launcher; the lab program is the lab's own.
    _labs_add_launcher(${target} ${lab} "${lab_dir}" ${variant_sources})
    if(build_must_fail)
      # Built by its test alone, with nothing of the lab program, which other tests may be running.
      # `labcheck expect build-fail` (grader/src/expect_build_command.hpp) through run_check.sh.
      _labs_run_check_command(run_check ${lab})
      set(says "")
      foreach(words IN LISTS build_output)
        list(APPEND says --says "${words}")
      endforeach()
      add_test(NAME ${lab}.must_fail.${name}
               COMMAND ${run_check} expect build-fail --prerequisite "$<TARGET_FILE:${lab}_launcher_main>" ${says}
                       -- "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target ${target}
                       -- -j1)
      set_tests_properties(${lab}.must_fail.${name} PROPERTIES
        LABELS "${lab};known_wrong" SKIP_RETURN_CODE 77 TIMEOUT 600)
      continue()
    endif()
    # `make labN` builds it (its tests are labN's); the test runs it with the lab program.
    add_dependencies(${lab} ${target})
    set(program "$<TARGET_FILE:${lab}>")
    set(launcher_env "LAB_LAUNCHER=$<TARGET_FILE:${target}>")
    # `make all_known_wrong`: every starter and known-wrong kernel and their lab programs,
    # without the rest of `all`.
    if(NOT TARGET all_known_wrong)
      add_custom_target(all_known_wrong)
    endif()
    add_dependencies(all_known_wrong ${lab})
    if(NOT name STREQUAL "starter")
      if(LABS_EMULATION AND "racecheck" IN_LIST sanitizer_tools)
        # No racecheck on the CPU: a missing __syncthreads() must show as a wrong result under
        # the emulator's schedules instead, in at least one correctness check.
        _labs_expect_command(expect ${lab} "${spec}" fail
                             "${CMAKE_BINARY_DIR}/results/must_fail/${target}-race"
                             "${correctness_checks}" --any)
        add_test(NAME ${lab}.must_fail.${name}.emulated_race COMMAND ${expect})
        set_tests_properties(${lab}.must_fail.${name}.emulated_race PROPERTIES
          LABELS "${lab};known_wrong;emulation" SKIP_RETURN_CODE 77 TIMEOUT 600
          ENVIRONMENT "${launcher_env}")
        # And the emulator's race check (emulation/src/shared_race_check.hpp) must report it, as
        # racecheck does on a GPU: a correctness check fails with its words, whatever the values.
        _labs_add_emulated_finding_test(${lab}.must_fail.${name} racecheck "${spec}"
          "${target}" "${launcher_env}" "the CPU emulation found a race on shared memory"
          ${correctness_checks})
      endif()
      if(LABS_EMULATION AND "memcheck" IN_LIST sanitizer_tools)
        # No memcheck on the CPU: the emulator checks kernels' subscripts against their buffers
        # (emulation/include/emu/access.hpp) and fails a correctness check an access outside
        # happens in, with the line, as the batch's memory pass does on a GPU.
        _labs_add_emulated_finding_test(${lab}.must_fail.${name} memcheck "${spec}"
          "${target}" "${launcher_env}" "the CPU emulation found an access outside the memory"
          ${correctness_checks})
      endif()
      foreach(tool IN LISTS sanitizer_tools)
        if(NOT LABS_EMULATION)
          _labs_add_must_catch_test(${lab} "${lab_dir}/spec.json" ${name} ${tool} "${file}"
                                    "${launcher_env}")
        endif()
      endforeach()
      if(NOT must_fail)
        continue()
      endif()
    endif()
    set(options "")
    if(expected_diagnosis)
      list(APPEND options --diagnosis "${expected_diagnosis}")
    endif()
    if(expected_evidence)
      # Where the named checks do not run the kernel under the emulation (speed: not measured),
      # the facts come from a run of the correctness checks of their suites (of every suite if
      # theirs have none).
      set(evidence_checks "")
      foreach(id kind IN ZIP_LISTS ids kinds)
        string(REGEX REPLACE "\\..*" "" suite "${id}")
        if(kind STREQUAL "correctness" AND NOT id IN_LIST bonus_ids AND
           "${must_fail}" MATCHES "(^|;)${suite}\\.")
          list(APPEND evidence_checks "${id}")
        endif()
      endforeach()
      if(NOT evidence_checks)
        set(evidence_checks ${correctness_checks})
      endif()
      string(REPLACE ";" ":" evidence_filter "${evidence_checks}")
      list(APPEND options --evidence "${expected_evidence}" --evidence-checks "${evidence_filter}")
    endif()
    # "// isolation: what it reaches for": a red-team case that only the launcher's isolation
    # stops. In a run that was not isolated (no bubblewrap, not root) one not caught is skipped,
    # saying so. Every other case is stopped by the checks themselves and must be caught anywhere.
    # "// sandbox: bubblewrap": where bubblewrap runs, the launcher must have run in it.
    file(STRINGS "${file}" isolation_lines REGEX "^// isolation:")
    file(STRINGS "${file}" sandbox_lines REGEX "^// sandbox: bubblewrap")
    set(isolation "")
    if(isolation_lines)
      set(isolation --isolation or-skip)
    elseif(sandbox_lines)
      set(isolation --isolation bubblewrap)
    endif()
    _labs_expect_command(expect ${lab} "${spec}" fail
                         "${CMAKE_BINARY_DIR}/results/must_fail/${target}" "${must_fail}"
                         ${options} ${isolation})
    add_test(NAME ${lab}.must_fail.${name} COMMAND ${expect})
    set_tests_properties(${lab}.must_fail.${name} PROPERTIES
      LABELS "${lab};known_wrong" SKIP_RETURN_CODE 77 TIMEOUT 600
      ENVIRONMENT "${launcher_env}")
    labs_gpu_test(${lab}.must_fail.${name})
    # An "// isolation:" case runs again without bubblewrap (LABGRADE_BWRAP names none), where a
    # root lab program isolates the launcher by hand (a uid and a PID namespace of its own); it
    # must be caught there too, and the run must say it was isolated. CI has bubblewrap and runs
    # as root: this is its test of the path without it. Skipped when not root.
    if(isolation_lines)
      _labs_expect_command(expect ${lab} "${spec}" fail
                           "${CMAKE_BINARY_DIR}/results/must_fail/${target}-without-bubblewrap"
                           "${must_fail}" ${options} --isolation by-hand)
      add_test(NAME ${lab}.must_fail.${name}.without_bubblewrap COMMAND ${expect})
      set_tests_properties(${lab}.must_fail.${name}.without_bubblewrap PROPERTIES
        LABELS "${lab};known_wrong" SKIP_RETURN_CODE 77 TIMEOUT 600
        ENVIRONMENT "${launcher_env};LABGRADE_BWRAP=/nonexistent/bwrap")
      labs_gpu_test(${lab}.must_fail.${name}.without_bubblewrap)
    endif()
  endforeach()
  foreach(name IN LISTS nightly_variants)
    foreach(suffix "" .emulated_race .emulated_racecheck .emulated_memcheck .without_bubblewrap)
      if(TEST ${lab}.must_fail.${name}${suffix})
        set_property(TEST ${lab}.must_fail.${name}${suffix} APPEND PROPERTY LABELS nightly)
      endif()
    endforeach()
  endforeach()
endfunction()

# The last words of every ctest run: each graded lab's score and report path, and which labs
# were skipped because they are not built.
function(labs_finish_ctest_summary)
  file(WRITE "${CMAKE_BINARY_DIR}/CTestCustom.cmake"
    "set(CTEST_CUSTOM_PRE_TEST \"\\\"${CMAKE_COMMAND}\\\" -E rm -rf \\\"${LABS_SUMMARY_DIR}\\\"\")\n"
    "set(CTEST_CUSTOM_POST_TEST \"\\\"${CMAKE_COMMAND}\\\" -DSUMMARY_DIR=${LABS_SUMMARY_DIR} -P \\\"${LABS_CMAKE_DIR}/print_summary.cmake\\\"\")\n")
endfunction()
