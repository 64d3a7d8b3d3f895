// RUN: coopvec-opt %s -split-input-file -verify-diagnostics -coopvec-check-support="profile=d3d12-tier1.0"
// RUN: coopvec-opt %s -coopvec-check-support="profile=d3d12-tier1.0 emulate=true" 2>&1 | FileCheck %s --check-prefix=EMULATE
// RUN: not coopvec-opt %s -coopvec-check-support="profile=d3d12-tier9" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// EMULATE: warning: 'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.0': outer-product accumulation needs tier1_1, but it is tier1_0 (it will be emulated)
// EMULATE: func.func @tier10
// UNKNOWN: error: unknown support profile 'd3d12-tier9'; expected one of d3d12-tier1.0, d3d12-tier1.1

func.func @tier10(%h: vector<8xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.0': outer-product accumulation needs tier1_1, but it is tier1_0}}
  coopvec.outer_product_accumulate %h, %h, %w[%o] matrix<F16, 8x8, TrainingOptimal> : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}
