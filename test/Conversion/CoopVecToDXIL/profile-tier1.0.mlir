// Under the tier 1.0 profile the training operations are errors; the
// multiply lowers.
// RUN: coopvec-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-coopvec-to-dxil=profile=d3d12-tier1.0 | FileCheck %s

// CHECK-LABEL: func.func @matvec
// CHECK: llvm.call @dx.op.matVecMulAdd.v8f16.v16f16
func.func @matvec(%x: vector<16xf16>, %m: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 8x16, InferencingOptimal>
         bias %m[%c0] as F16 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// -----

func.func @outer_product(%a: vector<8xf16>, %m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.0': outer-product accumulation needs tier1_1, but it is tier1_0}}
  coopvec.outer_product_accumulate %a, %a, %m[%c0] matrix<F16, 8x8, TrainingOptimal>
      : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}

// -----

func.func @vector_accumulate(%v: vector<8xf16>, %m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.vector_accumulate' is not supported by profile 'd3d12-tier1.0': vector accumulation needs tier1_1, but it is tier1_0}}
  coopvec.vector_accumulate %v, %m[%c0] : vector<8xf16>, memref<?xi8>
  return
}
