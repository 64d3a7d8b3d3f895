#!/usr/bin/env bash
# Installs every Debian package coopvec needs to build, test and benchmark.
# Idempotent and quiet: only missing packages are installed.
set -euo pipefail

PKGS=(
  # Toolchain: LLVM/MLIR 22, lit/FileCheck live in /usr/lib/llvm-22/bin.
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22
  # Sanitizer and libFuzzer runtimes (fuzz/, the sanitizer build).
  libclang-rt-22-dev
  cmake ninja-build python3 spirv-tools
  # Vulkan target: the loader, lavapipe (Vulkan 1.3 on the CPU) and the
  # Khronos validation layer the tests run under.
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
  # RISC-V cross execution.
  qemu-user gcc-riscv64-linux-gnu g++-riscv64-linux-gnu libc6-dev-riscv64-cross
  # Benchmark peers and image output.
  libdnnl-dev libopenblas-dev libpng-dev libomp-22-dev
  # Training and checking the example network (Debian python, /usr/bin/python3).
  python3-numpy
  # lit's per-test time limit (test/lit.cfg.py) kills a test's processes with it.
  python3-psutil
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
