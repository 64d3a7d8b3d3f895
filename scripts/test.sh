#!/usr/bin/env bash
# Installs the dependencies, builds coopvec and runs every test (lit), then
# prints one summary line: `N passed, N failed, N skipped`. Exits non-zero if
# anything failed. Tests whose optional tool (qemu, ptxas, a GPU) is missing
# are skipped through lit's REQUIRES.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
bash scripts/build.sh all coopvec-test-depends
results=$BUILD_DIR/test-results.json
status=0
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" --output "$results" || status=$?
python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
codes = [t["code"] for t in tests]
passed = sum(c in ("PASS", "XFAIL") for c in codes)
skipped = sum(c == "UNSUPPORTED" for c in codes)
failed = len(codes) - passed - skipped
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
