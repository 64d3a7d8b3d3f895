// RUN: coopvec-opt %s -split-input-file -coopvec-tile="tile-m=4 tile-n=4 tile-k=8" -canonicalize -verify-diagnostics | FileCheck %s

// A 13x20 I8 matrix (4 row tiles, 3 K tiles, zero-padded), f32 inputs read
// as I8, an I32 bias: packed once, then row tiles x batch tiles x K tiles
// around tile_mma, the bias added in i64 and saturated to i32 (the exact
// sum plus bias, as the reference), the 4x4 block stored masked.
// CHECK-LABEL: func @int8
// CHECK-SAME: (%[[X:.*]]: memref<?x20xf32>, %[[W:.*]]: memref<?xi8>, %[[B:.*]]: memref<?xi8>, %[[Y:.*]]: memref<?x13xi32>)
// CHECK: %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x3x4x8xi8>
// CHECK: coopvec.tile_pack %[[W]][%{{.*}}] matrix<I8, 13x20, RowMajor> stride %{{.*}} into %[[T]] : memref<?xi8>, memref<4x3x4x8xi8>
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[BRAW:.*]] = vector.transfer_read %[[B]]{{.*}} : memref<?xi8>, vector<16xi8>
// CHECK:   %[[BIAS:.*]] = vector.bitcast %[[BRAW]] : vector<16xi8> to vector<4xi32>
// CHECK:   scf.for %[[N0:.*]] = %{{.*}} to %[[N]] step
// CHECK:     %[[ACC:.*]] = scf.for %[[KT:.*]] = {{.*}} iter_args(%[[A0:.*]] = %{{.*}}) -> (vector<4x4xi32>)
// CHECK:       %[[A:.*]] = vector.transfer_read %[[T]][%[[I]], %[[KT]], %{{.*}}, %{{.*}}]{{.*}} : memref<4x3x4x8xi8>, vector<4x8xi8>
// CHECK:       %[[XM:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<4x8xi1>
// CHECK:       vector.transfer_read %[[X]][%[[N0]], %{{.*}}], %{{.*}}, %[[XM]] : memref<?x20xf32>, vector<4x8xf32>
// CHECK:       math.roundeven
// CHECK:       %[[XB:.*]] = arith.trunci %{{.*}} : vector<4x8xi32> to vector<4x8xi8>
// CHECK:       %[[BT:.*]] = vector.transpose %[[XB]], [1, 0] : vector<4x8xi8> to vector<8x4xi8>
// CHECK:       %[[R:.*]] = coopvec.tile_mma %[[A]], %[[BT]], %[[A0]] : vector<4x8xi8>, vector<8x4xi8> -> vector<4x4xi32>
// CHECK:       scf.yield %[[R]]
// CHECK:     %[[YT:.*]] = vector.transpose %[[ACC]], [1, 0]
// CHECK:     %[[BB:.*]] = vector.broadcast %[[BIAS]] : vector<4xi32> to vector<4x4xi32>
// CHECK:     %[[YW:.*]] = arith.extsi %[[YT]] : vector<4x4xi32> to vector<4x4xi64>
// CHECK:     %[[BW:.*]] = arith.extsi %[[BB]] : vector<4x4xi32> to vector<4x4xi64>
// CHECK:     %[[SUM:.*]] = arith.addi %[[YW]], %[[BW]] : vector<4x4xi64>
// CHECK:     %[[LO:.*]] = arith.maxsi %[[SUM]], %{{.*}} : vector<4x4xi64>
// CHECK:     %[[HI:.*]] = arith.minsi %[[LO]], %{{.*}} : vector<4x4xi64>
// CHECK:     %[[Y32:.*]] = arith.trunci %[[HI]] : vector<4x4xi64> to vector<4x4xi32>
// CHECK:     %[[YM:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<4x4xi1>
// CHECK:     vector.transfer_write %[[Y32]], %[[Y]][%[[N0]], %{{.*}}], %[[YM]] : vector<4x4xi32>, memref<?x13xi32>
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: coopvec.batch_matvec
func.func @int8(%x: memref<?x20xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x13xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant 48 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 13x20, RowMajor> stride %s bias %b[%c64] as I32 into %y : memref<?x20xf32>, memref<?xi8>, memref<?xi8> -> memref<?x13xi32>
  return
}

// -----

// F16 weights, f32 inputs and results: f16 tiles into an f32 accumulator.
// CHECK-LABEL: func @f16
// CHECK: coopvec.tile_pack {{.*}} into %{{.*}} : memref<?xi8>, memref<2x2x4x8xf16>
// CHECK: coopvec.tile_mma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x8xf16>, vector<8x4xf32> -> vector<4x4xf32>
func.func @f16(%x: memref<?x16xf32>, %w: memref<?xi8>, %y: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F16, 8x16, InferencingOptimal> into %y : memref<?x16xf32>, memref<?xi8> -> memref<?x8xf32>
  return
}

// -----

// Combinations without a tiled form stay as they are, with a remark.
// CHECK-LABEL: func @untiled
// CHECK: coopvec.batch_matvec
// CHECK: coopvec.batch_matvec
// CHECK: coopvec.batch_matvec
func.func @untiled(%x: memref<?x16xf32>, %p: memref<?x3xi32>, %u: memref<?x33026xi32>, %w: memref<?xi8>, %y: memref<?x8xf32>, %q: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 33040 : index
  // expected-remark@+1 {{not tiled: no tiled form for a F8_E4M3 matrix with F32 f32 inputs}}
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F8_E4M3, 8x16, InferencingOptimal> into %y : memref<?x16xf32>, memref<?xi8> -> memref<?x8xf32>
  // expected-remark@+1 {{not tiled: an unsigned result saturates; it has no tiled form}}
  coopvec.batch_matvec %p as PackedS8x32, %w[%c0] matrix<I8, 8x12, InferencingOptimal> unsigned_result into %q : memref<?x3xi32>, memref<?xi8> -> memref<?x8xi32>
  // U8 x U8 sums of K = 33026 products could leave the tiles' i32.
  // expected-remark@+1 {{not tiled: K = 33026 could take the i32 sums of the tiles out of range}}
  coopvec.batch_matvec %u as U8, %w[%c0] matrix<U8, 8x33026, RowMajor> stride %s into %q : memref<?x33026xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

// An optimal layout ignores the batch_matvec's stride (here given): the
// tile_pack takes none, as its verifier requires. Found by
// test/Differential/gen.py.
// CHECK-LABEL: func @optimal_with_stride
// CHECK: coopvec.tile_pack %{{.*}}[%{{.*}}] matrix<F16, 8x8, InferencingOptimal> into %{{.*}} : memref<?xi8>, memref<2x1x4x8xf16>
func.func @optimal_with_stride(%x: memref<?x8xf16>, %w: memref<?xi8>, %y: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c48 = arith.constant 48 : index
  coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 8x8, InferencingOptimal> stride %c48 into %y
      : memref<?x8xf16>, memref<?xi8> -> memref<?x8xf32>
  return
}
