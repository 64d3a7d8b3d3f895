// The D3D12 profile applies before lowering: what it does not list is an
// error and nothing is lowered (see profile-emulate.mlir for emulation).
// RUN: coopvec-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-coopvec-to-dxil | FileCheck %s
// RUN: not coopvec-opt %s --split-input-file \
// RUN:   --convert-coopvec-to-dxil=profile=vulkan 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: unknown support profile 'vulkan'; expected one of d3d12-tier1.0, d3d12-tier1.1
func.func @f32_matvec(%x: vector<4xf32>, %m: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F32, input_interp = F32, matrix = F32, output = F32}}
  %y = coopvec.matvec %x as F32, %m[%c0] matrix<F32, 4x4, RowMajor> stride %c16
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// Minimum-set combinations of tier 1.1 lower without a diagnostic.
// CHECK-LABEL: func.func @minimum_set
// CHECK: llvm.call @dx.op.matVecMulAdd.v32i32.v8i32
// CHECK: llvm.call @dx.op.matVecMul.v8f16.v16f16
// CHECK: llvm.call @dx.op.outerProductAccumulate.v8f16.v8f16
// CHECK: llvm.call @dx.op.vectorAccumulate.v8f16
func.func @minimum_set(%p: vector<8xi32>, %x: vector<16xf16>, %a: vector<8xf16>, %m: memref<?xi8>) -> vector<32xi32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %p as PackedS8x32, %m[%c0] matrix<I8, 32x32, InferencingOptimal>
         bias %m[%c0] as I32 : vector<8xi32>, memref<?xi8>, memref<?xi8> -> vector<32xi32>
  %z = coopvec.matvec %x as F8_E4M3, %m[%c0] matrix<F8_E4M3, 8x16, InferencingOptimal>
         : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  coopvec.outer_product_accumulate %a, %a, %m[%c0] matrix<F16, 8x8, TrainingOptimal>
      : vector<8xf16>, vector<8xf16>, memref<?xi8>
  coopvec.vector_accumulate %z, %m[%c0] : vector<8xf16>, memref<?xi8>
  return %y : vector<32xi32>
}

// -----

// FP8 matrices need an optimal layout in the D3D12 profile.
func.func @fp8_row_major(%x: vector<16xf16>, %m: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': F8_E4M3 matrices need an optimal layout, but got RowMajor}}
  %z = coopvec.matvec %x as F8_E4M3, %m[%c0] matrix<F8_E4M3, 8x16, RowMajor> stride %c16
         : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  return %z : vector<8xf16>
}

// -----

// Transpose is never guaranteed.
func.func @transpose(%x: vector<16xf16>, %m: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not support transpose for input = F16, input_interp = F16, matrix = F16, output = F16}}
  %z = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 8x16, InferencingOptimal, transpose>
         : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  return %z : vector<8xf16>
}

// -----

// A profile attached to the module wins over the option.
module attributes {coopvec.profile = #coopvec.profile<name = "f32-only", tier = tier1_0,
    matvec = [#coopvec.matvec_support<input = F32, input_interp = F32, matrix = F32,
                                      bias = F32, output = F32>],
    outer_product = [], vector_accumulate = []>} {
  func.func @module_profile(%x: vector<4xf32>, %m: memref<?xi8>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %y = coopvec.matvec %x as F32, %m[%c0] matrix<F32, 4x4, InferencingOptimal>
           : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    // expected-error@+1 {{'coopvec.vector_accumulate' is not supported by profile 'f32-only': vector accumulation needs tier1_1, but it is tier1_0}}
    coopvec.vector_accumulate %y, %m[%c0] : vector<4xf32>, memref<?xi8>
    return %y : vector<4xf32>
  }
}
