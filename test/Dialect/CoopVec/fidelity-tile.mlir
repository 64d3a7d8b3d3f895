// --coopvec-tile takes a math-fidelity product apart into tile_mma steps
// with the same fidelity and Dst format (no packer on the tiles; a pack
// format equal to Dst's converts nothing), and a tile_pack_dst per K block
// where the packer converts or accumulates; the
// inputs reach the rhs tiles as the Wormhole model reads them (NaN made
// the quiet NaN of its sign, then rounded to nearest even bf16 in integer
// arithmetic for BF16, subnormals included). The matrix
// unit's K tile is 32 wide and its phases loop inside it, so tile-k must
// be a multiple of 32. test/Integration/CPU/fidelity.test runs the tiled
// form bit for bit against the model.
// RUN: coopvec-opt %s -split-input-file -coopvec-tile="tile-m=16 tile-n=8 tile-k=32" | FileCheck %s
// RUN: coopvec-opt %s -split-input-file -coopvec-tile="tile-m=16 tile-n=8 tile-k=16" -verify-diagnostics
// RUN: coopvec-opt %s -split-input-file -coopvec-tile="tile-m=16 tile-n=8 tile-k=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=K64

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

// A packer that converts (an f32 Dst packed to bf16): one tile_pack_dst
// after the K chain, without L1 values.
// CHECK-LABEL: func @packer
// CHECK:             %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
// CHECK:             %[[D:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[ZERO]])
// CHECK:               coopvec.tile_mma %{{.*}}, %{{.*}}, %[[A]] fidelity<hifi4, dst = f32> :
// CHECK:             %[[P:.*]] = coopvec.tile_pack_dst %[[D]] fidelity<hifi4, dst = f32, pack = bf16> : vector<16x8xf32>
// CHECK:             vector.transpose %[[P]], [1, 0]
func.func @packer(%in: memref<?x64xf32>, %out: memref<?x32xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-remark@+1 {{not tiled: math fidelity needs tile-k to be a multiple of 32 (the matrix unit's K tile), not 16}}
  coopvec.batch_matvec %in as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      fidelity<hifi4, dst = f32, pack = bf16> into %out
      : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// L1 accumulation in K blocks of 32 from a bias: a loop over the two
// blocks carries the L1 values, which start from the bias (read as bf16,
// the pack format, and broadcast over the batch); each block's chain
// starts from a zero Dst and ends in a tile_pack_dst onto them; the bias
// is not added again. The bias is widened bit for bit (arith.extf may
// quiet a NaN pattern, which the packer reads as a number). With tile-k 64
// a K tile would straddle two blocks.
// CHECK-LABEL: func @l1_blocks
// CHECK:             %[[BIAS:.*]] = vector.bitcast {{.*}} : vector<32xi8> to vector<16xi16>
// CHECK:             %[[WIDE:.*]] = arith.extui %[[BIAS]] : vector<16xi16> to vector<16xi32>
// CHECK:             %[[SHL:.*]] = arith.shli %[[WIDE]], %{{.*}} : vector<16xi32>
// CHECK:             %[[BIAS32:.*]] = arith.bitcast %[[SHL]] : vector<16xi32> to vector<16xf32>
// CHECK:             %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
// CHECK:             %[[BC:.*]] = vector.broadcast %[[BIAS32]] : vector<16xf32> to vector<8x16xf32>
// CHECK:             %[[L1:.*]] = vector.transpose %[[BC]], [1, 0] : vector<8x16xf32> to vector<16x8xf32>
// CHECK:             %[[OUT:.*]] = scf.for %[[BLK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[L:.*]] = %[[L1]])
// CHECK:               %[[LB:.*]] = arith.muli %[[BLK]], %{{.*}} : index
// CHECK:               %[[UB:.*]] = arith.minui
// CHECK:               %[[D:.*]] = scf.for %{{.*}} = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[A:.*]] = %[[ZERO]])
// CHECK:                 coopvec.tile_mma %{{.*}}, %{{.*}}, %[[A]] fidelity<lofi, dst = bf16> :
// CHECK:               %[[P:.*]] = coopvec.tile_pack_dst %[[D]] acc %[[L]] fidelity<lofi, dst = bf16, pack = bf16, l1_acc> : vector<16x8xf32>
// CHECK:               scf.yield %[[P]]
// CHECK-NOT:         arith.addf
// CHECK:             vector.transpose %[[OUT]], [1, 0]
// K64: remark: not tiled: math fidelity with k_block = 32 needs tile-k to divide it (a K tile would straddle two L1 blocks), not 64
func.func @l1_blocks(%in: memref<?x64xf32>, %out: memref<?x32xf32>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-remark@+1 {{not tiled: math fidelity needs tile-k to be a multiple of 32 (the matrix unit's K tile), not 16}}
  coopvec.batch_matvec %in as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      bias %b[%c0] as BF16 fidelity<lofi, dst = bf16, pack = bf16, l1_acc, k_block = 32> into %out
      : memref<?x64xf32>, memref<?xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// A block-float matrix has no tiled form: tile_pack takes no block scales.
// CHECK-LABEL: func @bfp
// CHECK:         coopvec.batch_matvec {{.*}} matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16>
func.func @bfp(%in: memref<?x64xf32>, %out: memref<?x32xf32>, %w: memref<?xi8>, %e: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-remark@+1 {{not tiled: a BFP8 matrix has no tiled form (tile_pack takes no block scales)}}
  coopvec.batch_matvec %in as BF16, %w[%c0] matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16> stride %c64
      scales %e[%c0] : memref<?xi8> fidelity<hifi2, dst = f32> into %out
      : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// A block-float input has no tiled form either: its rows are stored bytes
// with shared exponents, not tile elements.
// CHECK-LABEL: func @bfp_input
// CHECK:         coopvec.batch_matvec {{.*}} as BFP8 exponents
func.func @bfp_input(%in: memref<?x64xi8>, %e: memref<?x4xi8>, %out: memref<?x32xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-remark@+1 {{not tiled: a BFP8 input has no tiled form (its rows are stored bytes with shared exponents, not tile elements)}}
  coopvec.batch_matvec %in as BFP8 exponents %e : memref<?x4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      fidelity<hifi2, dst = f32> into %out
      : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}
