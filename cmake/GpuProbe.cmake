# Asks nvidia-smi, once per configure, whether this machine has a GPU: LABS_GPU_FOUND (TRUE or
# FALSE) and LABS_GPU_COMPUTE_CAPS (what it printed, e.g. "9.0"). The backend choice and the CUDA
# architectures both need the answer.
include_guard(GLOBAL)
find_program(LABS_NVIDIA_SMI nvidia-smi)
set(LABS_GPU_FOUND FALSE)
set(LABS_GPU_COMPUTE_CAPS "")
if(LABS_NVIDIA_SMI)
  execute_process(COMMAND "${LABS_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE _labs_smi_result OUTPUT_VARIABLE _labs_smi_output
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 20)
  if(_labs_smi_result EQUAL 0 AND _labs_smi_output MATCHES "[0-9]+\\.[0-9]+")
    set(LABS_GPU_FOUND TRUE)
    set(LABS_GPU_COMPUTE_CAPS "${_labs_smi_output}")
  endif()
endif()
