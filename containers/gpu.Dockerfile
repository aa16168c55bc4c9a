# A GPU grading host: labgrade and every lab's grading kit built with the CUDA backend, plus the
# emulation kits for the emulated memory and race pass (README.md, "Memory errors and races").
# Build from the top of the repository (no GPU is needed to build):
#   docker build -f containers/gpu.Dockerfile -t cuda-labs-grader:gpu .
#   docker build -f containers/gpu.Dockerfile --build-arg CUDA_ARCHITECTURES=90 ...  (H100 only)
# The default architectures are Turing, Ampere and Hopper, newer cards through PTX.
# Run with the NVIDIA Container Toolkit (--gpus all) and the sandbox's flags: containers/README.md.
# The steps are scripts/packaging/install-grader.sh, the CPU image's and the autograder packages'
# (tested in a clean root there and on a GPU host: scripts/packaging/gpu-setup-check.sh).
FROM nvidia/cuda:13.0.1-devel-ubuntu24.04
ARG CUDA_ARCHITECTURES=""
ENV LABS_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}
COPY . /opt/cuda-labs
RUN /opt/cuda-labs/scripts/packaging/install-grader.sh --backend cuda --bin /usr/local/bin
ENTRYPOINT ["/usr/local/bin/labgrade-entrypoint"]
CMD ["labgrade", "--help"]
