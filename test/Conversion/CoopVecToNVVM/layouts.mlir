// The optimal layouts in NVIDIA kernels: Layout.h's addresses (the CPU
// runtime's and the Vulkan shaders'; lanes-on-cpu.test runs them against the
// runtime). A transposed 2x2 F4_E2M1 InferencingOptimal matrix is stored
// 2 x 2 (K x M) in 8-row panels of column pairs, one byte per stored row:
// logical (r, c) is the nibble r % 2 of byte 2 * c.
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm="chip=sm_100a cooperative=false" --canonicalize | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm=chip=sm_100a --canonicalize | FileCheck %s --check-prefix=WARP

// CHECK-LABEL: gpu.func @fp4_transposed
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C15:.*]] = arith.constant 15 : i32
// Row 0: the low nibbles of bytes 0 and 2.
// CHECK: %[[B00:.*]] = memref.load %[[V:.*]][%[[C0]]] : memref<?xi8>
// CHECK-NEXT: %[[E00:.*]] = arith.extui %[[B00]]
// CHECK-NEXT: arith.andi %[[E00]], %[[C15]]
// CHECK: %[[B01:.*]] = memref.load %[[V]][%[[C2]]] : memref<?xi8>
// CHECK-NEXT: %[[E01:.*]] = arith.extui %[[B01]]
// CHECK-NEXT: arith.andi %[[E01]], %[[C15]]
// Row 1: their high nibbles.
// CHECK: %[[B10:.*]] = memref.load %[[V]][%[[C0]]] : memref<?xi8>
// CHECK-NEXT: %[[E10:.*]] = arith.extui %[[B10]]
// CHECK-NEXT: %[[S10:.*]] = arith.shrui %[[E10]], %[[C4]]
// CHECK-NEXT: arith.andi %[[S10]], %[[C15]]
// CHECK: %[[B11:.*]] = memref.load %[[V]][%[[C2]]] : memref<?xi8>
// CHECK-NEXT: %[[E11:.*]] = arith.extui %[[B11]]
// CHECK-NEXT: %[[S11:.*]] = arith.shrui %[[E11]], %[[C4]]
// CHECK-NEXT: arith.andi %[[S11]], %[[C15]]

// The warp's step reads an optimal-layout matrix element by element (no
// 32-bit word view of it): stored (r, c) of this 16 x 32 I8 TrainingOptimal
// matrix is at (r / 8 * 4 + c / 8) * 64 + c % 8 * 8 + r % 8.
// WARP-LABEL: gpu.func @int8_training
// WARP-NOT: memref<?xi8> to memref<?xi32>
// WARP: nvvm.vote.sync
// WARP-NOT: memref<?xi8> to memref<?xi32>
// WARP: nvvm.mma.sync
// WARP-NOT: memref<?xi8> to memref<?xi32>
// WARP: gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp4_transposed(%x: vector<2xf16>, %w: memref<?xi8>) -> vector<2xf32> {
      %c0 = arith.constant 0 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F4_E2M1, 2x2, InferencingOptimal, transpose>
             : vector<2xf16>, memref<?xi8> -> vector<2xf32>
      gpu.return %r : vector<2xf32>
    }
    gpu.func @int8_training(%x: vector<8xi32>, %w: memref<?xi8>, %y: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 16x32, TrainingOptimal>
             : vector<8xi32>, memref<?xi8> -> vector<16xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<16xi32>
      gpu.return
    }
  }
}
