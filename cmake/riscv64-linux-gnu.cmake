# Cross-compiles for 64-bit RISC-V Linux with the vector extension, with
# clang-22 and lld against Debian's cross sysroot (gcc-riscv64-linux-gnu,
# g++-riscv64-linux-gnu, libc6-dev-riscv64-cross). Executables are static, so
# `qemu-riscv64 -cpu rv64,v=true,vlen=256 ./prog` runs them without a
# sysroot. Used for lib/Runtime alone:
#   cmake -G Ninja -S lib/Runtime -B build/riscv64 \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(COOPVEC_RISCV64_MARCH rv64gcv CACHE STRING "-march for riscv64")
set(triple riscv64-linux-gnu)
set(CMAKE_C_COMPILER clang-22)
set(CMAKE_CXX_COMPILER clang++-22)
set(CMAKE_C_COMPILER_TARGET ${triple})
set(CMAKE_CXX_COMPILER_TARGET ${triple})
set(coopvec_rv_flags "-march=${COOPVEC_RISCV64_MARCH} --gcc-toolchain=/usr")
set(CMAKE_C_FLAGS_INIT "${coopvec_rv_flags}")
set(CMAKE_CXX_FLAGS_INIT "${coopvec_rv_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld -static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")

set(CMAKE_FIND_ROOT_PATH /usr/${triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
