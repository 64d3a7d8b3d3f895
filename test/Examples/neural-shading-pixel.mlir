// The README's example: it passes the D3D12 profile, and the layer offsets it
// uses agree with the sizes the CPU target's layout math folds to (1536 = 64x12 halves in
// 8-row panels; 1536 + 8192 = 9728).
// RUN: coopvec-opt %coopvec_src/examples/neural_shading/shade_pixel.mlir \
// RUN:   --coopvec-check-support="profile=d3d12-tier1.1" \
// RUN:   --coopvec-attach-profile=profile=cpu-host --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @shade_pixel
// CHECK-COUNT-3: coopvec.matvec
// CHECK: math.exp
// CHECK-LABEL: func.func @weight_sizes
// CHECK-DAG: arith.constant 1536 : index
// CHECK-DAG: arith.constant 8192 : index
// CHECK-DAG: arith.constant 1024 : index
