#!/usr/bin/env bash
# Installs the dependencies, builds coopvec and runs every test (lit) twice:
# in the Release build (BUILD_DIR, default build) and in the sanitized build
# (ASan with LeakSanitizer, and UBSan: SANITIZE=1 scripts/build.sh, into
# SAN_BUILD_DIR, default build-san; SANITIZE=0 leaves it out). Prints one
# line per build, then one summary line over both:
# `N passed, N failed, N skipped`. Exits non-zero if anything failed. Tests
# whose optional tool (qemu, ptxas, a GPU) is missing are skipped through
# lit's REQUIRES.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
SAN_BUILD_DIR=${SAN_BUILD_DIR:-build-san}
bash scripts/install-deps.sh

status=0
results=()
run_suite() { # build folder
  local out=$1/test-results.json
  rm -f "$out"
  /usr/lib/llvm-22/bin/lit -sv "$1/test" --output "$out" || status=$?
  results+=("$out")
}
BUILD_DIR=$BUILD_DIR SANITIZE=0 bash scripts/build.sh all coopvec-test-depends
run_suite "$BUILD_DIR"
if [[ ${SANITIZE:-1} != 0 ]]; then
  BUILD_DIR=$SAN_BUILD_DIR SANITIZE=1 bash scripts/build.sh all coopvec-test-depends
  run_suite "$SAN_BUILD_DIR"
fi

python3 - "${results[@]}" <<'PY'
import json, os, sys
total = [0, 0, 0]
for path in sys.argv[1:]:
    # A lit run that stopped before writing its results counts as a failure.
    tests = json.load(open(path))["tests"] if os.path.exists(path) else []
    codes = [t["code"] for t in tests]
    passed = sum(c in ("PASS", "XFAIL") for c in codes)
    skipped = sum(c == "UNSUPPORTED" for c in codes)
    failed = len(codes) - passed - skipped if tests else 1
    print(f"{os.path.dirname(path)}: {passed} passed, {failed} failed, {skipped} skipped")
    total = [total[0] + passed, total[1] + failed, total[2] + skipped]
print(f"{total[0]} passed, {total[1]} failed, {total[2]} skipped")
PY
exit $status
