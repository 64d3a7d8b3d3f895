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
// CHECK:         %[[BATCH:.*]] = llvm.getelementptr %[[P:.*]][0, 7]
// CHECK-NEXT:    llvm.store %[[XROWS]], %[[BATCH]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]]) : (!llvm.ptr) -> i32
// CHECK-NOT:     {{^[[:space:]]*coopvec\.}}
// THREADS-LABEL: func.func @batch(
// THREADS:       %[[TWO:.*]] = arith.constant 2 : i32
// THREADS:       %[[NUMTHREADS:.*]] = llvm.getelementptr %{{.*}}[0, 19]
// THREADS-NEXT:  llvm.store %[[TWO]], %[[NUMTHREADS]] : i32, !llvm.ptr
// THREADS:       call @coopvecCpuMatVecMulAdd(
func.func @batch(%x: memref<?x9xf32, strided<[9, 1], offset: ?>>, %w: memref<?xi8>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 64x9, InferencingOptimal> into %y
      : memref<?x9xf32, strided<[9, 1], offset: ?>>, memref<?xi8> -> memref<?x64xf32>
  return
}

// -----

// coopvec.mlp: an array of CoopVecMlpLayer structs (15 fields each) in a
// stack slot, a CoopVecMlpParams pointing at it, then one call of the fused
// kernel.
// CHECK-LABEL: func.func @mlp(
// CHECK-DAG:     %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG:     %[[TABLE:.*]] = llvm.alloca %[[TWO]] x !llvm.struct<(ptr, i64, i32, i32, i32, i32, i32, i32, ptr, i64, i32, i32, f32, ptr, i64)>
// CHECK-DAG:     %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64, ptr, i64, i32, ptr, i32, f32, i32, i32)>
// CHECK-COUNT-15: llvm.getelementptr %[[TABLE]][0, {{[0-9]+}}]
// CHECK-COUNT-15: llvm.getelementptr %[[TABLE]][1, {{[0-9]+}}]
// CHECK:         %[[LAYERS:.*]] = llvm.getelementptr %[[P]][0, 5]
// CHECK-NEXT:    llvm.store %[[TABLE]], %[[LAYERS]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[EXP:.*]] = llvm.getelementptr %[[P]][0, 8]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[EXP]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMlpForward(%[[P]]) : (!llvm.ptr) -> i32
// CHECK-NOT:     {{^[[:space:]]*coopvec\.}}
func.func @mlp(%x: memref<?x12xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c3072 = arith.constant 3072 : index
  coopvec.mlp %x layers [%w[%c0] matrix<F32, 64x12, InferencingOptimal> stride %c0 bias %b[%c0] relu,
                         %w[%c3072] matrix<F32, 3x64, InferencingOptimal> stride %c0 none] exp into %y
      : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}

// -----

// coopvec.mlp with I8 weights: I32 biases (field 10), each layer's requant
// buffer and offset (fields 13, 14), the input scale in the parameters
// (field 7).
// CHECK-LABEL: func.func @mlp_i8(
// CHECK-SAME:    %[[Q:[^:]*]]: f32
// CHECK-DAG:     %[[I32:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[TABLE:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64, i32, i32, i32, i32, i32, i32, ptr, i64, i32, i32, f32, ptr, i64)>
// CHECK:         %[[BI:.*]] = llvm.getelementptr %[[TABLE]][0, 10]
// CHECK-NEXT:    llvm.store %[[I32]], %[[BI]] : i32, !llvm.ptr
// CHECK:         %[[RS:.*]] = llvm.getelementptr %[[TABLE]][0, 13]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[RS]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[RO:.*]] = llvm.getelementptr %[[TABLE]][0, 14]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[RO]] : i64, !llvm.ptr
// CHECK:         %[[IS:.*]] = llvm.getelementptr %{{.*}}[0, 7]
// CHECK-NEXT:    llvm.store %[[Q]], %[[IS]] : f32, !llvm.ptr
// CHECK:         call @coopvecCpuMlpForward
func.func @mlp_i8(%x: memref<?x12xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %s: memref<?xi8>, %q: f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  coopvec.mlp %x layers [%w[%c0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
                         %w[%c1024] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%c256] none requant %s[%c256]]
      input_scale %q exp into %y
      : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}
