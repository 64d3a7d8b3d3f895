// dx.op declarations the driver does not implement are errors.
// RUN: coopvec-opt %s --split-input-file --verify-diagnostics \
// RUN:   --coopvec-dxil-link-host-driver

// expected-error@+1 {{'dx.op.createHandle' is not a cooperative-vector dx.op the software driver implements (dx.op.matVecMul, matVecMulAdd, outerProductAccumulate or vectorAccumulate with the SM 6.9 signature)}}
llvm.func @dx.op.createHandle(i32, i8, i32, i32, i1) -> !llvm.struct<"dx.types.Handle", (ptr)>

// -----

// The seed's argument order (interpretation before the signed flag) is not
// the shipped one.
// expected-error@+1 {{'dx.op.matVecMulAdd.v4f32.v4f32' is not a cooperative-vector dx.op the software driver implements (dx.op.matVecMul, matVecMulAdd, outerProductAccumulate or vectorAccumulate with the SM 6.9 signature)}}
llvm.func @dx.op.matVecMulAdd.v4f32.v4f32(i32, vector<4xf32>, i32, i1, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i32, i32, i32, i1, i32, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i1) -> vector<4xf32>

// -----

// expected-error@+1 {{'dx.op.matVecMul.v4f64.v4f32' has the wrong result type for its operation}}
llvm.func @dx.op.matVecMul.v4f64.v4f32(i32, vector<4xf32>, i1, i32, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i32, i32, i32, i1, i32, i1) -> vector<4xf64>

// -----

// expected-error@+1 {{'dx.op.outerProductAccumulate.v4f16.v4f32' has input vectors of different types}}
llvm.func @dx.op.outerProductAccumulate.v4f16.v4f32(i32, vector<4xf16>, vector<4xf32>, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i32, i32)
