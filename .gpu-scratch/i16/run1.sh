#!/bin/sh
# GPU run: fresh build of everything (solutions, self tests, known-wrong), then the labs' checks
# and the known-wrong kernels (no sanitizer), logs under $OUT.
set -u
root=$(pwd)
w=/tmp/w1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
cmake -S "$root" -B $w -DLABS_USE_SOLUTIONS=ON -DLABS_BUILD_SELF_TESTS=ON > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
cmake --build $w --target all all_labs all_known_wrong -j 16 -k > $OUT/build.log 2>&1 || { grep -E "error|Error" -B2 -A6 $OUT/build.log | head -80; }
echo "build: $(( $(date +%s) - start )) s"
cd $w
timeout 420 ctest -j 8 -L "lab[0-9]|known_wrong|harness" -LE sanitizer --timeout 200 > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" $OUT/ctest.log | head -60
echo "total: $(( $(date +%s) - start )) s"
tar -czf $OUT/results.tar.gz results reports 2>/dev/null
