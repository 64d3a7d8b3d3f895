// --coopvec-tile takes a math-fidelity product without packer settings
// apart into tile_mma steps with the same fidelity and Dst format (no
// packer on the tiles; a pack format equal to Dst's converts nothing); the
// inputs reach the rhs tiles as the Wormhole model reads them (NaN made
// the quiet NaN of its sign, then rounded to nearest even bf16 in integer
// arithmetic for BF16, subnormals included). The matrix
// unit's K tile is 32 wide and its phases loop inside it, so tile-k must
// be a multiple of 32. test/Integration/CPU/fidelity.test runs the tiled
// form bit for bit against the model.
// RUN: coopvec-opt %s -split-input-file -coopvec-tile="tile-m=16 tile-n=8 tile-k=32" | FileCheck %s
// RUN: coopvec-opt %s -split-input-file -coopvec-tile="tile-m=16 tile-n=8 tile-k=16" -verify-diagnostics

// CHECK-LABEL: func @bf16
// CHECK:         coopvec.tile_pack {{.*}} matrix<BF16, 32x64, RowMajor> {{.*}} : memref<?xi8>, memref<2x2x16x32xbf16>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[ACC:.*]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
// CHECK:             scf.for {{.*}} iter_args(%[[A:.*]] = %[[ACC]])
// CHECK:               %[[X:.*]] = vector.transfer_read {{.*}} : memref<?x64xf32>, vector<8x32xf32>
// CHECK:               %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<8x32xf32>
// CHECK:               %[[SEL:.*]] = arith.select %[[NAN]], %{{.*}}, %[[X]] : vector<8x32xi1>, vector<8x32xf32>
// CHECK:               %[[BITS:.*]] = arith.bitcast %[[SEL]] : vector<8x32xf32> to vector<8x32xi32>
// CHECK:               arith.shrui %[[BITS]], %{{.*}} : vector<8x32xi32>
// CHECK:               %[[SUM:.*]] = arith.addi %[[BITS]], %{{.*}} : vector<8x32xi32>
// CHECK:               %[[RND:.*]] = arith.shrui %[[SUM]], %{{.*}} : vector<8x32xi32>
// CHECK:               %[[HALF:.*]] = arith.trunci %[[RND]] : vector<8x32xi32> to vector<8x32xi16>
// CHECK:               %[[BF:.*]] = arith.bitcast %[[HALF]] : vector<8x32xi16> to vector<8x32xbf16>
// CHECK:               %[[B:.*]] = vector.transpose %[[BF]], [1, 0] : vector<8x32xbf16> to vector<32x8xbf16>
// CHECK:               coopvec.tile_mma %{{.*}}, %[[B]], %[[A]] fidelity<hifi2, dst = f32> : vector<16x32xbf16>, vector<32x8xbf16> -> vector<16x8xf32>
func.func @bf16(%in: memref<?x64xf32>, %out: memref<?x32xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-remark@+1 {{not tiled: math fidelity needs tile-k to be a multiple of 32 (the matrix unit's K tile), not 16}}
  coopvec.batch_matvec %in as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      fidelity<hifi2, dst = f32> into %out
      : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// F32 (TF32 sources): the inputs stay f32; `pack = bf16` equal to a bf16
// Dst is left off the tiles.
// CHECK-LABEL: func @tf32
// CHECK:             coopvec.tile_mma %{{.*}}, %{{.*}}, %{{.*}} fidelity<lofi, dst = bf16> : vector<16x32xf32>, vector<32x8xf32> -> vector<16x8xf32>
func.func @tf32(%in: memref<?x64xf16>, %out: memref<?x32xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  // expected-remark@+1 {{not tiled: math fidelity needs tile-k to be a multiple of 32 (the matrix unit's K tile), not 16}}
  coopvec.batch_matvec %in as F32, %w[%c0] matrix<F32, 32x64, RowMajor> stride %c256
      fidelity<lofi, dst = bf16, pack = bf16> into %out
      : memref<?x64xf16>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// A packer that converts or accumulates has no tile op: the op stays whole.
// CHECK-LABEL: func @packer
// CHECK-NOT:     coopvec.tile_mma
// CHECK:         coopvec.batch_matvec {{.*}} fidelity<hifi4, dst = f32, pack = bf16>
func.func @packer(%in: memref<?x64xf32>, %out: memref<?x32xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-remark@+1 {{not tiled: math fidelity with packer settings (a pack format other than Dst's, l1_acc, k_block) is not tiled: the packer has no tile op}}
  coopvec.batch_matvec %in as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      fidelity<hifi4, dst = f32, pack = bf16> into %out
      : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}
