// The batching pass carries the math fidelity into the batched op and never
// fuses a fidelity layer; the tiling pass tiles the batched op with its
// packer settings (a tile_pack_dst per K block; fidelity-tile.mlir has the
// details), and with the default tile-k of 16 keeps it whole and says why.
// RUN: coopvec-opt %s -split-input-file -coopvec-batch | FileCheck %s
// RUN: coopvec-opt %s -split-input-file -coopvec-batch -coopvec-tile=tile-k=32 | FileCheck %s --check-prefix=TILE
// RUN: coopvec-opt %s -split-input-file -coopvec-batch -coopvec-tile -verify-diagnostics -o /dev/null

// CHECK-LABEL: func @batch_carries
// CHECK: coopvec.batch_matvec %{{.*}} as BF16, %{{.*}} matrix<BF16, 32x64, RowMajor> stride %{{.*}} bias %{{.*}} as BF16 fidelity<hifi3, dst = bf16, pack = bf16, l1_acc, k_block = 32> into
// CHECK-NOT: scf.for
// TILE-LABEL: func @batch_carries
// TILE-NOT: coopvec.batch_matvec
// TILE: coopvec.tile_mma {{.*}} fidelity<hifi3, dst = bf16> :
// TILE: coopvec.tile_pack_dst {{.*}} fidelity<hifi3, dst = bf16, pack = bf16, l1_acc> :
func.func @batch_carries(%in: memref<?x64xf32>, %out: memref<?x32xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // The batched op takes the loop's location.
  // expected-remark@+1 {{not tiled: math fidelity needs tile-k to be a multiple of 32 (the matrix unit's K tile), not 16}}
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x64xf32>, vector<64xf32>
    %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
           bias %b[%c0] as BF16 fidelity<hifi3, dst = bf16, pack = bf16, l1_acc, k_block = 32>
           : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
    vector.store %y, %out[%i, %c0] : memref<?x32xf32>, vector<32xf32>
  }
  return
}

// -----

// An f32 chain that would fuse into coopvec.mlp stays a loop when a layer
// has a fidelity: the fused kernel has no Wormhole model.
// CHECK-LABEL: func @no_fusion
// CHECK: scf.for
// CHECK: coopvec.matvec {{.*}} fidelity<hifi4, dst = f32>
// CHECK-NOT: coopvec.mlp
func.func @no_fusion(%in: memref<?x16xf32>, %out: memref<?x16xf32>, %w: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w1 = arith.constant 1024 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x16xf32>, vector<16xf32>
    %h = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 16x16, InferencingOptimal>
           fidelity<hifi4, dst = f32> : vector<16xf32>, memref<?xi8> -> vector<16xf32>
    %y = coopvec.matvec %h as F32, %w[%w1] matrix<F32, 16x16, InferencingOptimal>
           : vector<16xf32>, memref<?xi8> -> vector<16xf32>
    vector.store %y, %out[%i, %c0] : memref<?x16xf32>, vector<16xf32>
  }
  return
}

// -----

// A matvec with a block-float input stays in its loop, even with
// loop-invariant exponents: a batch would need an exponent row per input.
// CHECK-LABEL: func @bfp_input_not_batched
// CHECK: scf.for
// CHECK: coopvec.matvec {{.*}} as BFP8 exponents
// CHECK-NOT: coopvec.batch_matvec
func.func @bfp_input_not_batched(%in: memref<?x64xi8>, %out: memref<?x32xf32>, %w: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %e = arith.constant dense<127> : vector<4xi8>
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x64xi8>, vector<64xi8>
    %y = coopvec.matvec %x as BFP8 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
           fidelity<hifi2, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
    vector.store %y, %out[%i, %c0] : memref<?x32xf32>, vector<32xf32>
  }
  return
}
