// The fp6/fp4 and block-scaled kernels assembled by ptxas: sm_120a (tensor
// cores and per-lane path) and sm_100a (per-lane path only).
// REQUIRES: ptxas
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --coopvec-nvvm-pipeline="chip=sm_120a format=bin" | FileCheck %s --check-prefix=SM120A
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --coopvec-nvvm-pipeline="chip=sm_100a format=bin" | FileCheck %s --check-prefix=SM100A
// A block-scaled fp8 matrix per lane on sm_89 and sm_90.
// RUN: coopvec-opt %S/Inputs/mxfp8.mlir --coopvec-nvvm-pipeline="chip=sm_89 format=bin" | FileCheck %s --check-prefix=SM89
// RUN: coopvec-opt %S/Inputs/mxfp8.mlir --coopvec-nvvm-pipeline="chip=sm_90 format=bin" | FileCheck %s --check-prefix=SM90
// SM89: gpu.binary @m  [#gpu.object<#nvvm.target<O = 3, chip = "sm_89", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM90: gpu.binary @m  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM120A: gpu.binary @m  [#gpu.object<#nvvm.target<O = 3, chip = "sm_120a", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM100A: gpu.binary @m  [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx87">, {{.*}}bin = "\7FELF
