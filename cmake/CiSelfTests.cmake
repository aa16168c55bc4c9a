# Tests of the CI and cluster tooling (label "ci"), none of which needs a GPU: the GPU runner
# templates (yamllint and a structural check, each also shown a broken fixture it must reject),
# ctest's GPU resource handling (cmake/GpuResources.cmake, cmake/ctest_gpu.sh) and the shell
# syntax of the Slurm scripts. The Slurm run itself is scripts/ci/slurm-test.sh (.ci/run).
find_program(LABS_PYTHON3 NAMES python3)
set(templates "${PROJECT_SOURCE_DIR}/ci-templates")

add_test(NAME ci.templates.yamllint COMMAND sh "${templates}/lint-templates.sh")
if(LABS_PYTHON3)
  add_test(NAME ci.templates.structure
           COMMAND "${LABS_PYTHON3}" "${templates}/check-templates.py"
                   "${templates}/github/gpu-tests.yml" "${templates}/gitlab/.gitlab-ci.yml")
  add_test(NAME ci.templates.structure_catches_broken
           COMMAND "${LABS_PYTHON3}" "${templates}/check-templates.py"
                   "${templates}/tests/broken-github.yml" "${templates}/tests/broken-gitlab.yml"
                   "${templates}/tests/hosted-github.yml"
                   --expect-problem "no job runs-on [self-hosted"
                   --expect-problem "no actions/checkout"
                   "--expect-problem=ctest with --output-junit"
                   --expect-problem "use actions/upload-artifact@v4"
                   --expect-problem "if: always()"
                   --expect-problem "upload step does not keep the HTML reports"
                   --expect-problem "no artifacts:reports:junit"
                   --expect-problem "artifacts:when must be always")
endif()

add_test(NAME ci.gpu_resources.wrapper
         COMMAND sh "${PROJECT_SOURCE_DIR}/cmake/tests/ctest_gpu_test.sh" "${PROJECT_SOURCE_DIR}/cmake")
add_test(NAME ci.gpu_resources.ctest_j
         COMMAND "${CMAKE_COMMAND}" -E env "CMAKE=${CMAKE_COMMAND}" "CTEST=${CMAKE_CTEST_COMMAND}"
                 sh "${PROJECT_SOURCE_DIR}/cmake/tests/gpu_resources_test.sh" "${PROJECT_SOURCE_DIR}"
                 "${CMAKE_BINARY_DIR}/ci-tests/gpu-resources")
add_test(NAME ci.print_summary
         COMMAND sh "${PROJECT_SOURCE_DIR}/cmake/tests/print_summary_test.sh" "${CMAKE_COMMAND}"
                 "${PROJECT_SOURCE_DIR}/cmake")
if(NOT LABS_EMULATION)
  # The bench of the CUDA driver's host-wide lock (docs/batch-grading-h100.md): it compiles its
  # probe with nvcc.
  add_test(NAME ci.cuda_start_bench
           COMMAND "${CMAKE_COMMAND}" -E env "NVCC=${CMAKE_CUDA_COMPILER}"
                   sh "${PROJECT_SOURCE_DIR}/cmake/tests/cuda_start_bench_test.sh" "${PROJECT_SOURCE_DIR}")
endif()
foreach(script slurm/submit.sh slurm/grade-class.sbatch ci/slurm-test.sh ci/two-gpu-check.sh
               ctest-gpu-resources.sh packaging/install-grader.sh packaging/gpu-setup-check.sh)
  get_filename_component(name "${script}" NAME)
  add_test(NAME ci.syntax.${name} COMMAND sh -n "${PROJECT_SOURCE_DIR}/scripts/${script}")
endforeach()
if(LABS_PYTHON3)
  # The size limits of docs/architecture.md ("Sizes"): no production file over 400 lines, no
  # function over 60 (emulation/ and the labs' checks included).
  add_test(NAME ci.source_sizes
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/check-sizes.py")
  add_test(NAME ci.compare_gradebooks
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/ci/test-compare-gradebooks.py")
  add_test(NAME ci.check_class_points
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/ci/test-check-class-points.py")
  # Every lab's spec in the one schema's keys (docs/spec.md): a spec written in the old keys is
  # named with the command that migrates it.
  file(GLOB lab_specs "${PROJECT_SOURCE_DIR}/labs/*/spec.json")
  add_test(NAME ci.specs_in_one_schema
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/migrate-spec.py" --check
                   ${lab_specs})
endif()

if(LABS_PYTHON3)
  # Each lab's tests in order, from ctest's own listing: the checks' tests wait for
  # compute-sanitizer's pass (labN.sanitizer, GPU builds), which can fail a check; every
  # sanitizer test runs through labcheck.
  if(LABS_EMULATION)
    set(fixtures_backend emulation)
  else()
    set(fixtures_backend cuda)
  endif()
  add_test(NAME ci.lab_fixtures
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/tests/check-lab-fixtures.py"
                   --ctest "${CMAKE_CTEST_COMMAND}" --build "${CMAKE_BINARY_DIR}"
                   --backend ${fixtures_backend})
  add_test(NAME ci.lab_fixtures_catches_broken
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/tests/check-lab-fixtures.py"
                   --self-test)
endif()

# The one install script's choices (backend, emulated pass, packages offline, modes), with
# stand-ins for cmake, nvidia-smi and the package list.
add_test(NAME ci.install_grader
         COMMAND sh "${PROJECT_SOURCE_DIR}/scripts/tests/install-grader-test.sh"
                 "${CMAKE_BINARY_DIR}/ci-tests/install-grader")

if(LABS_PYTHON3)
  # containers/: the Dockerfiles, grader.def and their one install script agree, and copy every
  # top-level entry the build needs. Building an image is containers/test-cpu-image-in-clean-root.sh
  # (by hand: too slow for CI).
  add_test(NAME ci.containers.static
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/containers/check-containers.py")
  add_test(NAME ci.containers.static_catches_broken
           COMMAND "${LABS_PYTHON3}" "${PROJECT_SOURCE_DIR}/containers/check-containers.py"
                   --self-test)
endif()

get_property(ci_tests DIRECTORY PROPERTY TESTS)
list(FILTER ci_tests INCLUDE REGEX "^ci\\.")
set_tests_properties(${ci_tests} PROPERTIES LABELS "ci;self" SKIP_RETURN_CODE 77 TIMEOUT 120)
