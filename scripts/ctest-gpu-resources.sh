#!/bin/sh
# Writes ctest's resource spec for this machine's GPUs: one "gpus" resource per GPU with one slot,
# so that every GPU test (each asks for "gpus:1") has its GPU alone under `ctest -j`.
#   scripts/ctest-gpu-resources.sh [FILE]     (default: build/gpu-resources.json)
# Counts the entries of CUDA_VISIBLE_DEVICES when it is set (ids then index into it, see
# cmake/ctest_gpu.sh), else the GPUs `nvidia-smi -L` lists. Exit 1, writing nothing, when there is
# no GPU. CMake runs it at configure time; run it again when the build moves to other GPUs, then
#   ctest -j --resource-spec-file build/gpu-resources.json
set -eu
file=${1:-build/gpu-resources.json}
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  count=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
else
  count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
if [ "${count:-0}" -lt 1 ]; then
  echo "ctest-gpu-resources: no GPU found (nvidia-smi -L)" >&2
  exit 1
fi
gpus=""
i=0
while [ "$i" -lt "$count" ]; do
  gpus="$gpus${gpus:+, }{\"id\": \"$i\", \"slots\": 1}"
  i=$((i + 1))
done
mkdir -p "$(dirname "$file")"
printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [{"gpus": [%s]}]\n}\n' "$gpus" > "$file.tmp"
mv "$file.tmp" "$file"
echo "ctest-gpu-resources: $count GPU(s) -> $file"
