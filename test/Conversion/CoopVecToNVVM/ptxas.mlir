// Both paths, f16 and int8, assembled by ptxas (format=bin: a cubin) for
// every SM of the NVIDIA profiles.
// REQUIRES: ptxas
// RUN: coopvec-opt %S/ptx.mlir --coopvec-nvvm-pipeline="chip=sm_80 format=bin" | FileCheck %s --check-prefix=SM80
// RUN: coopvec-opt %S/ptx.mlir --coopvec-nvvm-pipeline="chip=sm_89 format=bin" | FileCheck %s --check-prefix=SM89
// RUN: coopvec-opt %S/ptx.mlir --coopvec-nvvm-pipeline="chip=sm_90 format=bin" | FileCheck %s --check-prefix=SM90
// RUN: coopvec-opt %S/ptx.mlir --coopvec-nvvm-pipeline="chip=sm_100a format=bin" | FileCheck %s --check-prefix=SM100A
// RUN: coopvec-opt %S/ptx.mlir --coopvec-nvvm-pipeline="chip=sm_120a format=bin" | FileCheck %s --check-prefix=SM120A
// RUN: coopvec-opt %S/ptx.mlir --coopvec-nvvm-pipeline="chip=sm_90 format=bin cooperative=false" | FileCheck %s --check-prefix=SM90

// SM80: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM89: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_89", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM90: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM100A: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx87">, {{.*}}bin = "\7FELF
// SM120A: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_120a", features = "+ptx87">, {{.*}}bin = "\7FELF
