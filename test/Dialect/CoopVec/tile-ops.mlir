// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s

// CHECK-LABEL: func @tile_pack
// CHECK: coopvec.tile_pack %{{.*}}[%{{.*}}] matrix<I8, 64x32, InferencingOptimal> into %{{.*}} : memref<?xi8>, memref<4x2x16x16xi8>
// CHECK: coopvec.tile_pack %{{.*}}[%{{.*}}] matrix<U4, 13x20, RowMajor> stride %{{.*}} into %{{.*}} : memref<?xi8>, memref<4x5x4x4xi8>
// CHECK: coopvec.tile_pack %{{.*}}[%{{.*}}] matrix<BF16, 8x8, TrainingOptimal, transpose> into %{{.*}} : memref<?xi8>, memref<1x1x8x8xbf16>
func.func @tile_pack(%w: memref<?xi8>, %a: memref<4x2x16x16xi8>, %b: memref<4x5x4x4xi8>, %c: memref<1x1x8x8xbf16>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.tile_pack %w[%c0] matrix<I8, 64x32, InferencingOptimal> into %a : memref<?xi8>, memref<4x2x16x16xi8>
  coopvec.tile_pack %w[%c0] matrix<U4, 13x20, RowMajor> stride %s into %b : memref<?xi8>, memref<4x5x4x4xi8>
  coopvec.tile_pack %w[%c0] matrix<BF16, 8x8, TrainingOptimal, transpose> into %c : memref<?xi8>, memref<1x1x8x8xbf16>
  return
}

// CHECK-LABEL: func @tile_mma
// CHECK: coopvec.tile_mma %{{.*}}, %{{.*}} unsigned, %{{.*}} : vector<16x32xi8>, vector<32x8xi8> -> vector<16x8xi32>
// CHECK: coopvec.tile_mma %{{.*}} unsigned, %{{.*}}, %{{.*}} : vector<16x32xi8>, vector<32x8xi8> -> vector<16x8xi32>
// CHECK: coopvec.tile_mma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x4xf16>, vector<4x4xf32> -> vector<4x4xf32>
func.func @tile_mma(%a: vector<16x32xi8>, %b: vector<32x8xi8>, %acc: vector<16x8xi32>,
                    %fa: vector<4x4xf16>, %fb: vector<4x4xf32>, %facc: vector<4x4xf32>) -> (vector<16x8xi32>, vector<16x8xi32>, vector<4x4xf32>) {
  %0 = coopvec.tile_mma %a, %b unsigned, %acc : vector<16x32xi8>, vector<32x8xi8> -> vector<16x8xi32>
  %1 = coopvec.tile_mma %a unsigned, %b, %acc : vector<16x32xi8>, vector<32x8xi8> -> vector<16x8xi32>
  %2 = coopvec.tile_mma %fa, %fb, %facc : vector<4x4xf16>, vector<4x4xf32> -> vector<4x4xf32>
  return %0, %1, %2 : vector<16x8xi32>, vector<16x8xi32>, vector<4x4xf32>
}
