// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=xsfvqmacc-4x8x4 | FileCheck %s
// RUN: coopvec-opt %s --coopvec-riscv-sifive-pipeline="shape=2x8x2 emulate=true" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// coopvec.matvec on the SiFive isas: the function takes the EmitC path's
// calling convention for memrefs (a vector argument is a memref of its
// length, loaded at the entry; each vector result one more memref argument
// after the others, stored at the return), and each matvec is a
// batch_matvec of one row through 1 x K and 1 x M stack buffers allocated at
// the entry. A chained matvec reads the first one's result. The runtime
// errors name the matvec and its location.

// CHECK-DAG: llvm.mlir.global private constant @{{coopvec_rv_str[0-9]+}}("coopvec.matvec at {{.*}}sifive-matvec.mlir:47:8\00")
// CHECK-DAG: llvm.mlir.global private constant @{{coopvec_rv_str[0-9]+}}("coopvec.matvec at {{.*}}sifive-matvec.mlir:49:8\00")
// CHECK-LABEL: func.func @coopvec_chain(
// CHECK-SAME: %[[X:[^:]*]]: memref<10xf32>, %[[W:[^:]*]]: memref<?xi8>, %[[B:[^:]*]]: memref<?xi8>,
// CHECK-SAME: %[[Y:[^:]*]]: memref<7xi32>, %[[Z:[^:]*]]: memref<5xf32>) {
// CHECK: %[[XV:.*]] = vector.load %[[X]][%{{.*}}] : memref<10xf32>, vector<10xf32>
// CHECK-DAG: %[[IN2:.*]] = memref.alloca() : memref<1x7xi32>
// CHECK-DAG: %[[OUT2:.*]] = memref.alloca() : memref<1x5xf32>
// CHECK-DAG: %[[IN1:.*]] = memref.alloca() : memref<1x10xf32>
// CHECK-DAG: %[[OUT1:.*]] = memref.alloca() : memref<1x7xi32>
// CHECK: vector.store %[[XV]], %[[IN1]][%{{.*}}, %{{.*}}] : memref<1x10xf32>, vector<10xf32>
// CHECK: memref.load %[[IN1]]
// CHECK: "llvm.riscv.sf.vqmacc.4x8x4"
// CHECK: memref.store %{{.*}}, %[[OUT1]]
// CHECK: %[[YV:.*]] = vector.load %[[OUT1]][%{{.*}}, %{{.*}}] : memref<1x7xi32>, vector<7xi32>
// CHECK: vector.store %[[YV]], %[[IN2]][%{{.*}}, %{{.*}}] : memref<1x7xi32>, vector<7xi32>
// CHECK: "llvm.riscv.sf.vqmaccu.4x8x4"
// CHECK: memref.store %{{.*}}, %[[OUT2]]
// CHECK: %[[ZV:.*]] = vector.load %[[OUT2]][%{{.*}}, %{{.*}}] : memref<1x5xf32>, vector<5xf32>
// CHECK: vector.store %[[YV]], %[[Y]][%{{.*}}] : memref<7xi32>, vector<7xi32>
// CHECK: vector.store %[[ZV]], %[[Z]][%{{.*}}] : memref<5xf32>, vector<5xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }

// Every memref expanded, the two results last; a batch of one row takes
// LMUL 1 (one 2x2 C tile per 2x8 A tile).
// LLVM-LABEL: define void @coopvec_chain(
// LLVM-SAME: ptr %0, ptr %1, i64 %2, i64 %3, i64 %4,
// LLVM-SAME: ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}})
// LLVM: call <vscale x 2 x i32> @coopvec_sf_vqmacc_2x8x2_i32m1(
// LLVM: call <vscale x 2 x i32> @coopvec_sf_vqmaccu_2x8x2_i32m1(
func.func @chain(%x: vector<10xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> (vector<7xi32>, vector<5xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant 16 : index
  %y = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 7x10, RowMajor> stride %s bias %b[%c64] as I32
         : vector<10xf32>, memref<?xi8>, memref<?xi8> -> vector<7xi32>
  %z = coopvec.matvec %y as U8, %w[%c0] matrix<U8, 5x7, ColumnMajor> stride %s
         : vector<7xi32>, memref<?xi8> -> vector<5xf32>
  return %y, %z : vector<7xi32>, vector<5xf32>
}
