// RUN: coopvec-opt %s --convert-coopvec-to-cpu=bounds-checks=false --split-input-file | FileCheck %s

// The math-fidelity clause fills the last five fields of
// coopvecCpuMatVecMulAdd's parameters (fidelity + 1, Dst format, packer
// format, L1 accumulation, K block; formats as CoopVecFormat: F32 0,
// BF16 2), which route the call to the Wormhole model.

// CHECK-LABEL: func.func @matvec
// CHECK:         %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32, i64, ptr, i32, i32, i64, i32, ptr, i64, i32, i32, i32, i32, i32, i32, ptr, i64, i32, i32, ptr, i64, i32, i32, i32, i32, i32, i32, i32)>
// HiFi2 (1 + 1) and BF16 are both 2.
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[KB:.*]] = arith.constant 32 : i32
// CHECK:         %[[G24:.*]] = llvm.getelementptr %[[P]][0, 24]
// CHECK-NEXT:    llvm.store %[[TWO]], %[[G24]] : i32, !llvm.ptr
// CHECK:         %[[G25:.*]] = llvm.getelementptr %[[P]][0, 25]
// CHECK-NEXT:    llvm.store %[[F32]], %[[G25]] : i32, !llvm.ptr
// CHECK:         %[[G26:.*]] = llvm.getelementptr %[[P]][0, 26]
// CHECK-NEXT:    llvm.store %[[TWO]], %[[G26]] : i32, !llvm.ptr
// CHECK:         %[[G27:.*]] = llvm.getelementptr %[[P]][0, 27]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G27]] : i32, !llvm.ptr
// CHECK:         %[[G28:.*]] = llvm.getelementptr %[[P]][0, 28]
// CHECK-NEXT:    llvm.store %[[KB]], %[[G28]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @matvec(%x: vector<64xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         bias %b[%c0] as BF16 fidelity<hifi2, dst = f32, pack = bf16, l1_acc, k_block = 32>
         : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

// Without `pack` the packer format is the Dst format (BF16 here).
// CHECK-LABEL: func.func @batch
// CHECK-DAG:     %[[HIFI4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[BF16:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[G24:.*]] = llvm.getelementptr %[[P:.*]][0, 24]
// CHECK-NEXT:    llvm.store %[[HIFI4]], %[[G24]] : i32, !llvm.ptr
// CHECK:         %[[G25:.*]] = llvm.getelementptr %[[P]][0, 25]
// CHECK-NEXT:    llvm.store %[[BF16]], %[[G25]] : i32, !llvm.ptr
// CHECK:         %[[G26:.*]] = llvm.getelementptr %[[P]][0, 26]
// CHECK-NEXT:    llvm.store %[[BF16]], %[[G26]] : i32, !llvm.ptr
// CHECK:         %[[G27:.*]] = llvm.getelementptr %[[P]][0, 27]
// CHECK-NEXT:    llvm.store %[[ZERO]], %[[G27]] : i32, !llvm.ptr
// CHECK:         %[[G28:.*]] = llvm.getelementptr %[[P]][0, 28]
// CHECK-NEXT:    llvm.store %[[ZERO]], %[[G28]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @batch(%x: memref<?x64xf32>, %w: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 32x64, InferencingOptimal, transpose>
      fidelity<hifi4, dst = bf16> into %y : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}
