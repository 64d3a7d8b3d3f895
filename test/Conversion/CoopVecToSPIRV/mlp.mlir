// convert-coopvec-to-spirv: a coopvec.mlp inside a kernel is a loop over
// the batch's static rows; each row runs the layers as coopvec.matvec ops
// (lowered as usual) with the activation, the requant scale and exp in
// scalar code between them.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

// CHECK-LABEL: gpu.func @i8
// CHECK-NOT: coopvec.
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c4 step %c1 {
// The row times the input scale, then read as I8 (saturated, nearest even
// by the magic number, NaN 0):
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: spirv.FAdd %{{.*}}, %cst{{.*}} {no_contraction} : f32
// CHECK: arith.fptosi
// CHECK: arith.cmpf uno
// Layer 0: SDot, the I32 bias, the exact sum rounded once to f32:
// CHECK: spirv.SDot
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// ReLU as x > 0 ? x : 0, then the requant scale (four bytes, an f32):
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[H:.*]], %[[ZERO:.*]] : f32
// CHECK: arith.select %[[POS]], %[[H]], %[[ZERO]] : f32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.mulf
// Layer 1 reads those as U8: SUDot with the signed weights first.
// CHECK: spirv.SUDot
// The results' exp:
// CHECK: math.exp
// CHECK: gpu.return

// SPIRV-LABEL: spirv.func @i8(
// SPIRV: spirv.SDot
// SPIRV: spirv.SUDot
// SPIRV: spirv.GL.Exp

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @i8(%x: memref<4x8xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %s: memref<?xi8>,
                 %q: f32, %y: memref<?x2xf32>) kernel
        attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      coopvec.mlp %x layers [%w[%c0] matrix<I8, 4x8, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
                             %w[%c128] matrix<I8, 2x4, RowMajor> stride %c16 none requant %s[%c16]]
          input_scale %q exp into %y
          : memref<4x8xf32>, memref<?x2xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }
    gpu.func @bf16(%x: memref<4x4xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x2xf32>) kernel
        attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      coopvec.mlp %x layers [%w[%c0] matrix<BF16, 4x4, RowMajor> stride %c16 bias %b[%c0] relu,
                             %w[%c128] matrix<BF16, 2x4, RowMajor> stride %c16 none]
          into %y
          : memref<4x4xf32>, memref<?x2xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }
  }
}

// A BF16 network: each layer reads its input (the row, then the ReLU's
// values) rounded to bf16 by the DXIL rule (nearest even on the bits, NaN
// quieted, a finite value beyond the range to +-MAX_NORM), widens the BF16
// weights exactly and sums the exact products in f32 in column order.
// CHECK-LABEL: gpu.func @bf16
// CHECK-NOT: coopvec.
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %c32767_i32 : i32
// CHECK: arith.ori %{{.*}}, %c32639_i32 : i32
// CHECK: spirv.FMul %{{.*}} {no_contraction} : f32
// CHECK: spirv.FAdd %{{.*}} {no_contraction} : f32
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.addi %{{.*}}, %c32767_i32 : i32
// CHECK: spirv.FMul %{{.*}} {no_contraction} : f32
// CHECK-NOT: math.exp
// CHECK: gpu.return

// SPIRV-LABEL: spirv.func @bf16(
// SPIRV-NOT: spirv.GL.Exp
// SPIRV: spirv.Return
