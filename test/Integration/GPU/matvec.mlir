// coopvec.matvec in GPU kernels (convert-coopvec-to-nvvm through
// coopvec-run's GPU path) against the CPU runtime, in one program
// (Inputs/matvec-check.mlir): an F16 and an I8 case over 1000 threads, both
// compared bit for bit; @check returns the mismatch counts.
// REQUIRES: cuda-gpu
// RUN: coopvec-run %S/Inputs/matvec-check.mlir -e check | FileCheck %s
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NOT: {{.}}
