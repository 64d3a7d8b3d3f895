// The fp6/fp4 and block-scaled kernels assembled by ptxas: sm_120a (tensor
// cores and per-lane path) and sm_100a (per-lane path only).
// REQUIRES: ptxas
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --coopvec-nvvm-pipeline="chip=sm_120a format=bin" | FileCheck %s --check-prefix=SM120A
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --coopvec-nvvm-pipeline="chip=sm_100a format=bin" | FileCheck %s --check-prefix=SM100A
// SM120A: gpu.binary @m  [#gpu.object<#nvvm.target<O = 3, chip = "sm_120a", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM100A: gpu.binary @m  [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx87">, {{.*}}bin = "\7FELF
