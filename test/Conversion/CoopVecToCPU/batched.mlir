// RUN: coopvec-opt %s --convert-coopvec-to-cpu --split-input-file | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-cpu="batch-threads=2" --split-input-file | FileCheck %s --check-prefix=THREADS

// coopvec.batch_matvec: one kernel call over all rows, with the row count,
// the row strides in bytes and the row pointers taken from the memrefs'
// strided metadata (a subview's offset included).
// CHECK-LABEL: func.func @batch(
// CHECK-SAME:      %[[X:.*]]: memref<?x9xf32, strided<[9, 1], offset: ?>>, %[[W:.*]]: memref<?xi8>, %[[Y:.*]]: memref<?x64xf32>)
// CHECK:         call @coopvecCpuCheckMatrix
// CHECK:         %[[XB:.*]], %[[XO:.*]], %[[XS:.*]]:2, %[[XST:.*]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK:         %[[XROWBYTES:.*]] = arith.muli %[[XST]]#0, %{{.*}} : index
// CHECK:         %[[XROWS:.*]] = arith.index_cast %[[XS]]#0 : index to i32
// CHECK:         %[[YB:.*]], %[[YO:.*]], %[[YS:.*]]:2, %[[YST:.*]]:2 = memref.extract_strided_metadata %[[Y]]
// CHECK:         %[[YROWS:.*]] = arith.index_cast %[[YS]]#0 : index to i32
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[XROWS]], %[[YROWS]] : i32
// CHECK:         %[[ST:.*]] = arith.select %[[SAME]]
// CHECK:         scf.if
// CHECK:         call @coopvecCpuMatVecMulAdd(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[XROWS]], {{.*}})
// CHECK-NOT:     {{^[[:space:]]*coopvec\.}}
// THREADS-LABEL: func.func @batch(
// THREADS:       %[[TWO:.*]] = arith.constant 2 : i32
// THREADS:       call @coopvecCpuMatVecMulAdd({{.*}}, %[[TWO]])
func.func @batch(%x: memref<?x9xf32, strided<[9, 1], offset: ?>>, %w: memref<?xi8>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 64x9, InferencingOptimal> into %y
      : memref<?x9xf32, strided<[9, 1], offset: ?>>, memref<?xi8> -> memref<?x64xf32>
  return
}

// -----

// coopvec.mlp: a layer table of 12 words per layer in a stack slot, then
// one call of the fused kernel.
// CHECK-LABEL: func.func @mlp(
// CHECK:         %[[TABLE:.*]] = memref.alloca() : memref<24xi64>
// CHECK-COUNT-24: memref.store %{{.*}}, %[[TABLE]][%{{.*}}] : memref<24xi64>
// CHECK:         %[[EXP:.*]] = arith.constant 1 : i32
// CHECK:         call @coopvecCpuMlpForward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EXP]], %{{.*}}) : (!llvm.ptr, i64, !llvm.ptr, i64, i32, !llvm.ptr, i32, i32, i32) -> i32
// CHECK-NOT:     {{^[[:space:]]*coopvec\.}}
func.func @mlp(%x: memref<?x12xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c3072 = arith.constant 3072 : index
  coopvec.mlp %x layers [%w[%c0] matrix<F32, 64x12, InferencingOptimal> stride %c0 bias %b[%c0] relu,
                         %w[%c3072] matrix<F32, 3x64, InferencingOptimal> stride %c0 none] exp into %y
      : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}
