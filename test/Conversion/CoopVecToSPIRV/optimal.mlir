// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s

// Matrices in the optimal layouts: the shader computes Layout.h's byte
// offsets (LinAlgCoop/Conversion/OptimalLayout.h) for each element it reads
// or accumulates into. Execution against the CPU runtime:
// test/Integration/Vulkan/cases.test.

module attributes {gpu.container_module} {
  gpu.module @k {
    // I8 InferencingOptimal, transposed: stored element (k, m) of a 16 x 8
    // matrix; panels of 8 rows of 8 x 2 bytes (the panel is 8 * 8 = 64
    // bytes): offset + (k / 8) 64 + (m / 2) 16 + (k % 8) 2 + m % 2.
    // CHECK-LABEL: gpu.func @iopt_t
    // CHECK: scf.for %[[ROW:.*]] =
    // CHECK: %[[RP:.*]] = arith.divui %[[COL:.*]], %c8 : index
    // CHECK: %[[RI:.*]] = arith.remui %[[COL]], %c8 : index
    // CHECK: %[[SP:.*]] = arith.divui %[[ROW]], %c2 : index
    // CHECK: %[[SI:.*]] = arith.remui %[[ROW]], %c2 : index
    // CHECK: arith.muli %[[RP]], %c64 : index
    // CHECK: arith.muli %[[SP]], %c16 : index
    // CHECK: arith.muli %[[RI]], %c2 : index
    // CHECK: spirv.SDot
    gpu.func @iopt_t(%x: vector<4xi32>, %w: memref<?xi8>, %y: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 8x16, InferencingOptimal, transpose>
             : vector<4xi32>, memref<?xi8> -> vector<8xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<8xi32>
      gpu.return
    }

    // F16 TrainingOptimal: 8 x 8 tiles of halves stored column by column,
    // ((row / 8) * 2 + col / 8) * 128 + ((col % 8) * 8 + row % 8) * 2 for
    // a 16-column matrix.
    // CHECK-LABEL: gpu.func @topt
    // CHECK: arith.divui %{{.*}}, %c8 : index
    // CHECK: arith.remui %{{.*}}, %c8 : index
    // CHECK: arith.muli %{{.*}}, %c128 : index
    // CHECK: arith.bitcast %{{.*}} : i16 to f16
    gpu.func @topt(%xs: memref<?xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %x = vector.load %xs[%c0] : memref<?xf16>, vector<16xf16>
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 8x16, TrainingOptimal>
             : vector<16xf16>, memref<?xi8> -> vector<8xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }

    // An outer product into an F32 TrainingOptimal matrix (4-byte elements:
    // tiles of 256 bytes).
    // CHECK-LABEL: gpu.func @outer_topt
    // CHECK: scf.for
    // CHECK: scf.for
    // CHECK: arith.muli %{{.*}}, %c256 : index
    // CHECK: memref.generic_atomic_rmw
    gpu.func @outer_topt(%a: vector<3xf32>, %b: vector<2xf32>, %m: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F32, 3x2, TrainingOptimal>
          : vector<3xf32>, vector<2xf32>, memref<?xi8>
      gpu.return
    }
  }
}
