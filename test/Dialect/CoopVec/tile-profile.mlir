// RUN: coopvec-opt %s -coopvec-tile="tile-m=8 tile-n=2 tile-k=4" | FileCheck %s

// The module names the Nuclei vqmacc target: its row for packed int8 inputs
// times I8 matrices into I32 gives 4x4x4 tiles, which replace the options;
// an op its rows do not cover (F32) keeps the options' 8x2x4.
module attributes {coopvec.profile = "rv64-nuclei-xxlvqmacc"} {
  // CHECK-LABEL: func @packed_int8
  // CHECK: coopvec.tile_pack %{{.*}} matrix<I8, 8x16, RowMajor> stride %{{.*}} into %{{.*}} : memref<?xi8>, memref<2x4x4x4xi8>
  // CHECK: coopvec.tile_mma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x4xi8>, vector<4x4xi8> -> vector<4x4xi32>
  func.func @packed_int8(%x: memref<?x4xi32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x8xi32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    coopvec.batch_matvec %x as PackedS8x32, %w[%c0] matrix<I8, 8x16, RowMajor> stride %c16
        bias %b[%c0] as I32 into %y : memref<?x4xi32>, memref<?xi8>, memref<?xi8> -> memref<?x8xi32>
    return
  }

  // CHECK-LABEL: func @float_uses_options
  // CHECK: coopvec.tile_pack %{{.*}} into %{{.*}} : memref<?xi8>, memref<1x4x8x4xf32>
  // CHECK: coopvec.tile_mma %{{.*}}, %{{.*}}, %{{.*}} : vector<8x4xf32>, vector<4x2xf32> -> vector<8x2xf32>
  func.func @float_uses_options(%x: memref<?x16xf32>, %w: memref<?xi8>, %y: memref<?x8xf32>) {
    %c0 = arith.constant 0 : index
    coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 8x16, InferencingOptimal>
        into %y : memref<?x16xf32>, memref<?xi8> -> memref<?x8xf32>
    return
  }
}
