// On the wormhole-b0 profile --coopvec-tile takes its tile shape from the
// profile: the engine step [16, 8, 16] cannot hold a 32-wide K tile (the
// fidelity phases loop inside one), so a product with fidelity takes the
// next shape, tt-metal's 32x32 tile [32, 32, 32]; the cycle report still
// counts engine steps of 16x8x16.
// RUN: coopvec-opt %s -coopvec-tile | FileCheck %s
// The profile takes the tiled form it makes (the feature tile_mma).
// RUN: coopvec-opt %s -coopvec-tile -coopvec-check-support -o /dev/null
// RUN: coopvec-opt %s -coopvec-cycle-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=CYCLES

// CHECK-LABEL: func @wormhole
// CHECK:         coopvec.tile_pack {{.*}} : memref<?xi8>, memref<2x2x32x32xbf16>
// CHECK:         coopvec.tile_mma %{{.*}}, %{{.*}}, %{{.*}} fidelity<hifi2, dst = f32> : vector<32x32xbf16>, vector<32x32xbf16> -> vector<32x32xf32>
// CHECK:         coopvec.tile_pack_dst %{{.*}} acc %{{.*}} fidelity<hifi2, dst = f32, pack = bf16, l1_acc> : vector<32x32xf32>
// CYCLES: remark: 64x64 x 64x?(8), hifi2: 4x1x4 = 16 tile steps of 16x8x16 x 2 phases = 32 cycles
module attributes {coopvec.profile = "wormhole-b0"} {
  func.func @wormhole(%in: memref<?x64xf32>, %out: memref<?x64xf32>, %w: memref<?xi8>, %b: memref<?xi8>) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    coopvec.batch_matvec %in as BF16, %w[%c0] matrix<BF16, 64x64, RowMajor> stride %c128
        bias %b[%c0] as BF16 fidelity<hifi2, dst = f32, pack = bf16, l1_acc> into %out
        : memref<?x64xf32>, memref<?xi8>, memref<?xi8> -> memref<?x64xf32>
    return
  }
}
