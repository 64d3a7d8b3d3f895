// The same program lowered for every NVIDIA profile without a GPU (needs
// ptxas): kernels in a cubin with the tensor-core step, host code with the
// launches and the CPU runtime's matvec.
// REQUIRES: ptxas
// RUN: coopvec-run %S/Inputs/matvec-check.mlir -e check --gpu-chip=sm_80 --print-lowered | FileCheck %s -DCHIP=sm_80
// RUN: coopvec-run %S/Inputs/matvec-check.mlir -e check --gpu-chip=sm_120a --print-lowered | FileCheck %s -DCHIP=sm_120a
// CHECK: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "[[CHIP]]", features = "+ptx87">, {{.*}}bin = "\7FELF
// CHECK: llvm.func @run_f16(
// CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@f16
// CHECK: llvm.func @run_int8(
// CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@int8
// CHECK: llvm.func @check(
// CHECK: llvm.call @coopvecCpuMatVecMulAdd(

// A coopvec op the NVVM lowering does not take stops the run with a located
// error before anything is compiled for the GPU.
// RUN: not coopvec-run %S/Inputs/int4-kernel.mlir -e run --gpu-chip=sm_90 --print-lowered 2>&1 | FileCheck %s --check-prefix=INT4
// INT4: int4-kernel.mlir:12:12: error: 'coopvec.matvec' op is not supported by convert-coopvec-to-nvvm: matrix interpretation I4
// INT4-NOT: gpu.binary
