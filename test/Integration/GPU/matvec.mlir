// coopvec.matvec in GPU kernels (convert-coopvec-to-nvvm through
// coopvec-run's GPU path) against the CPU runtime, in one program
// (Inputs/matvec-check.mlir): an F16 and an I8 case over 1000 threads, both
// compared bit for bit; @check returns the mismatch counts.
// REQUIRES: cuda-gpu
// RUN: coopvec-run %S/Inputs/matvec-check.mlir -e check | FileCheck %s
// The same program with the optimal layouts (F16 InferencingOptimal, I8
// TrainingOptimal transposed; the footprints equal the strided ones).
// RUN: sed -e 's/\(matrix<F16, 64x64,\) RowMajor> stride %%[a-z0-9]*/\1 InferencingOptimal>/' \
// RUN:     -e 's/\(matrix<I8, 48x96,\) ColumnMajor> stride %%[a-z0-9]*/\1 TrainingOptimal, transpose>/' \
// RUN:     %S/Inputs/matvec-check.mlir > %t.optimal.mlir
// RUN: grep -c 'Optimal' %t.optimal.mlir | FileCheck %s --check-prefix=SED
// RUN: coopvec-run %t.optimal.mlir -e check | FileCheck %s
// SED: 4
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NOT: {{.}}
