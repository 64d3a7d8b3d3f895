#!/usr/bin/env bash
# Configures (once) and builds coopvec with clang-22 and lld against Debian's
# LLVM/MLIR 22. Extra arguments are ninja targets (default: all).
#
#   BUILD_DIR   build folder (default: build, or build-san with SANITIZE=1)
#   SANITIZE=1  the instrumented build: ASan (LeakSanitizer on) and UBSan,
#               every report fatal, coverage for the libFuzzer targets of
#               fuzz/, RelWithDebInfo; its lit suite sets the sanitizer
#               options itself (test/lit.cfg.py)
#   CMAKE_ARGS  further configure arguments, e.g. ccache launchers
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${SANITIZE:-0} == 1 ]]; then
  BUILD_DIR=${BUILD_DIR:-build-san}
  # Coverage instrumentation too: the same build makes the libFuzzer
  # targets of fuzz/, which test/Fuzz runs.
  config=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DLLVM_USE_SANITIZER=Address;Undefined"
          -DLLVM_USE_SANITIZE_COVERAGE=ON)
else
  BUILD_DIR=${BUILD_DIR:-build}
  config=(-DCMAKE_BUILD_TYPE=Release)
fi
if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  # shellcheck disable=SC2086 # CMAKE_ARGS is a list of arguments
  cmake -G Ninja -S . -B "$BUILD_DIR" "${config[@]}" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld ${CMAKE_ARGS:-} >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
