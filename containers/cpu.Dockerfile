# A CPU grading host: labgrade and every lab's grading kit built with the CPU emulation backend
# (correctness and structure are graded; speed is measured on a GPU only, and says so).
# Build from the top of the repository:
#   docker build -f containers/cpu.Dockerfile -t cuda-labs-grader:cpu .
# Run: containers/README.md (the sandbox needs flags beyond Docker's defaults; it says which, why).
# Every step is scripts/packaging/install-grader.sh, the one install script of the images and the
# autograder packages. containers/test-cpu-image-in-clean-root.sh replays this file in a clean
# Debian 12 root (containers/replay_dockerfile.py): keep to FROM, ARG, ENV, COPY, RUN, ENTRYPOINT
# and CMD, one line each.
FROM debian:12
COPY . /opt/cuda-labs
RUN /opt/cuda-labs/scripts/packaging/install-grader.sh --backend emulation --bin /usr/local/bin
ENTRYPOINT ["/usr/local/bin/labgrade-entrypoint"]
CMD ["labgrade", "--help"]
