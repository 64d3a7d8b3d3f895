// With emulate=true a combination the profile does not list is a warning and
// is lowered (the software driver runs every valid combination).
// RUN: coopvec-opt %s --verify-diagnostics \
// RUN:   --convert-coopvec-to-dxil=emulate=true | FileCheck %s

// CHECK-LABEL: func.func @emulated
// CHECK: llvm.call @dx.op.matVecMul.v4f32.v4i16
// CHECK: llvm.call @dx.op.vectorAccumulate.v4f32
func.func @emulated(%x: vector<4xi16>, %m: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-warning@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = I16, input_interp = I16, matrix = I16, output = F32 (it will be emulated)}}
  %y = coopvec.matvec %x as I16, %m[%c0] matrix<I16, 4x4, TrainingOptimal, transpose>
         : vector<4xi16>, memref<?xi8> -> vector<4xf32>
  // expected-warning@+1 {{'coopvec.vector_accumulate' is not supported by profile 'd3d12-tier1.1': it does not list vector accumulation of f32 (it will be emulated)}}
  coopvec.vector_accumulate %y, %m[%c0] : vector<4xf32>, memref<?xi8>
  return %y : vector<4xf32>
}
