// RUN: coopvec-opt %s --coopvec-cpu-pipeline | FileCheck %s
// RUN: coopvec-opt %s --coopvec-cpu-pipeline="num-threads=0 bounds-checks=false" | FileCheck %s --check-prefix=NOCHECK

// The whole program ends in the LLVM dialect: the runtime calls, the status
// check and the loop around them.

// CHECK-DAG:   llvm.func @coopvecCpuMatVecMulAdd(!llvm.ptr) -> i32
// CHECK-DAG:   llvm.func @coopvecCpuReportError(i32, !llvm.ptr)
// CHECK-DAG:   llvm.func @coopvecCpuCheckMatrix(
// CHECK-LABEL: llvm.func @layer(
// CHECK-NOT:     coopvec.
// CHECK-NOT:     memref.
// CHECK-NOT:     vector.
// CHECK-NOT:     scf.
// CHECK-NOT:     func.
// CHECK-NOT:     arith.
// CHECK:         llvm.call @coopvecCpuCheckMatrix(
// CHECK:         llvm.call @coopvecCpuMatVecMulAdd(
// CHECK:         llvm.call @coopvecCpuReportError(
// CHECK:         llvm.fcmp
// CHECK:         llvm.return

// NOCHECK-NOT:   @coopvecCpuCheckMatrix
// NOCHECK:       %[[THREADS:.*]] = llvm.mlir.constant(0 : i32) : i32
// NOCHECK:       %[[NUMTHREADS:.*]] = llvm.getelementptr %{{.*}}[0, 19]
// NOCHECK-NEXT:  llvm.store %[[THREADS]], %[[NUMTHREADS]] : i32, !llvm.ptr
// NOCHECK:       llvm.call @coopvecCpuMatVecMulAdd(%{{.*}}) : (!llvm.ptr) -> i32
func.func @layer(%x: vector<8xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 8x8, RowMajor> stride %c32
         bias %b[%c0] as F32
         : vector<8xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
  %r = arith.maximumf %y, %zero : vector<8xf32>
  return %r : vector<8xf32>
}
