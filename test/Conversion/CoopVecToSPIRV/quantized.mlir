// convert-coopvec-to-spirv: the quantized form of coopvec.batch_matvec in a
// kernel, in the reference's order (lib/Runtime/Reference/Quantized.cpp):
// per batch row and output, per compute group (the finer scale grouping,
// here 16) the exact i64 sum of (x - zx) * w, minus zw * (R - sum zx) per
// reduction group (8), then f32(acc) * sx * sw added (NoContraction), the
// bias, one rounding to f16 (nearest even, on the bits).
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @quantized
    // Batch rows, outputs, compute groups (K / 16 = 2) carrying the f32 sum:
    // CHECK: scf.for %[[B:.*]] = %c0 to %c4 step %c1
    // CHECK: scf.for %[[N:.*]] = %c0 to %c8 step %c1
    // CHECK: scf.for %[[J:.*]] = %c0 to %c2 step %c1 iter_args(%[[Y:.*]] = %{{.*}}) -> (f32)
    // CHECK: %[[K0:.*]] = arith.muli %[[J]], %c16 : index
    // The group's terms: the I4 nibble sign-extended, (x - zx) * w in i64:
    // CHECK: scf.for %[[K:.*]] = %[[K0]] to %{{.*}} step %c1 iter_args(%{{.*}} = %c0_i64) -> (i64)
    // CHECK: arith.xori %{{.*}}, %c8_i64 : i64
    // CHECK: arith.subi %{{.*}}, %c8_i64 : i64
    // CHECK: memref.load %{{.*}}[%[[B]], %[[K]]] : memref<4x32xi8>
    // CHECK: arith.muli %{{.*}} : i64
    // Reduction groups of 8: - zw (R - sum zx):
    // CHECK: scf.for %[[G:.*]] = %[[K0]] to %{{.*}} step %c8 iter_args
    // CHECK: memref.load %{{.*}} : memref<4x4xi32>
    // CHECK: scf.for
    // CHECK: arith.subi
    // CHECK: arith.muli
    // f32(acc) * sx * sw, then added:
    // CHECK: arith.sitofp %{{.*}} : i64 to f32
    // CHECK: spirv.FMul {{.*}} {no_contraction}
    // CHECK: spirv.FMul {{.*}} {no_contraction}
    // CHECK: spirv.FAdd %[[Y]], {{.*}} {no_contraction}
    // The F16 bias, then f16 by nearest even:
    // CHECK: spirv.FAdd {{.*}} {no_contraction}
    // CHECK: memref.store %{{.*}}, %{{.*}}[%[[B]], %[[N]]] : memref<4x8xf16>
    // SPIRV-LABEL: spirv.func @quantized
    // SPIRV: spirv.ConvertSToF %{{.*}} : i64 to f32
    gpu.func @quantized(%x: memref<4x32xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %sw: memref<?xi8>,
                        %zx: memref<4x2xi8>, %sx: memref<4x2xf32>, %r: memref<4x4xi32>,
                        %b: memref<?xi8>, %y: memref<4x8xf16>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      coopvec.batch_matvec %x as I8, %w[%c0] matrix<I4, 8x32, RowMajor> stride %c16
          weight_zero_points %zw[%c0] as I8 group 16 : memref<?xi8>
          weight_scales %sw[%c0] as BF16 group 32 : memref<?xi8>
          input_zero_points %zx as U8 group 16 : memref<4x2xi8>
          input_scales %sx as F32 group 16 : memref<4x2xf32>
          reductions %r as I32 group 8 : memref<4x4xi32>
          bias %b[%c0] as F16 into %y
          : memref<4x32xi8>, memref<?xi8>, memref<?xi8> -> memref<4x8xf16>
      gpu.return
    }
  }
}
