#!/usr/bin/env bash
# Configures (once) and builds coopvec with clang-22 and lld against Debian's
# LLVM/MLIR 22. Extra arguments are ninja targets (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
