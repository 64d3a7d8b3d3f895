// RUN: coopvec-opt %s -split-input-file -coopvec-batch | FileCheck %s
// RUN: coopvec-opt %s -split-input-file -coopvec-batch="fuse=false" | FileCheck %s --check-prefix=NOFUSE

// A per-pixel network (the neural-shading shape) becomes one fused op.
// CHECK-LABEL: func @fuse_parallel
// CHECK-SAME: (%[[IN:.*]]: memref<?x9xf32>, %[[OUT:.*]]: memref<?x3xf32>, %[[W:.*]]: memref<?xi8>, %[[B:.*]]: memref<?xi8>, %[[N:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[W1:.*]] = arith.constant 2304 : index
// CHECK-DAG: %[[B1:.*]] = arith.constant 256 : index
// CHECK: %[[ROWS:.*]] = arith.maxsi %[[N]], %[[C0]]
// CHECK: %[[X:.*]] = memref.subview %[[IN]][%[[C0]], 0] [%[[ROWS]], 9] [1, 1]
// CHECK: %[[Y:.*]] = memref.subview %[[OUT]][%[[C0]], 0] [%[[ROWS]], 3] [1, 1]
// CHECK: coopvec.mlp %[[X]] layers [%[[W]][%[[C0]]] matrix<F32, 64x9, InferencingOptimal> stride %{{.*}} bias %[[B]][%[[C0]]] relu, %[[W]][%[[W1]]] matrix<F32, 3x64, InferencingOptimal> stride %{{.*}} bias %[[B]][%[[B1]]] none] exp into %[[Y]]
// CHECK-NOT: scf.parallel
// NOFUSE-LABEL: func @fuse_parallel
// NOFUSE: scf.parallel
// NOFUSE-NOT: coopvec.mlp
func.func @fuse_parallel(%in: memref<?x9xf32>, %out: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w1 = arith.constant 2304 : index
  %b1 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = vector.load %in[%i, %c0] : memref<?x9xf32>, vector<9xf32>
    %l0 = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 64x9, InferencingOptimal> bias %b[%c0] as F32 : vector<9xf32>, memref<?xi8>, memref<?xi8> -> vector<64xf32>
    %h0 = arith.maximumf %l0, %zero : vector<64xf32>
    %l1 = coopvec.matvec %h0 as F32, %w[%w1] matrix<F32, 3x64, InferencingOptimal> bias %b[%b1] as F32 : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<3xf32>
    %rgb = math.exp %l1 : vector<3xf32>
    vector.store %rgb, %out[%i, %c0] : memref<?x3xf32>, vector<3xf32>
    scf.reduce
  }
  return
}

// -----

// scf.for over a sub-range, F16 weights, a layer without bias, ReLU written
// with the zero first.
// CHECK-LABEL: func @fuse_for_range
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C96:.*]] = arith.constant 96 : index
// CHECK: memref.subview %{{.*}}[%[[C4]], 0] [%[[C96]], 8] [1, 1]
// CHECK: coopvec.mlp %{{.*}} layers [%{{.*}}[%{{.*}}] matrix<F16, 16x8, RowMajor> stride %{{.*}} relu, %{{.*}}[%{{.*}}] matrix<F16, 8x16, InferencingOptimal> stride %{{.*}} bias %{{.*}}[%{{.*}}] none] into
func.func @fuse_for_range(%in: memref<128x8xf32>, %out: memref<128x8xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %i = %c4 to %c100 step %c1 {
    %x = vector.load %in[%i, %c0] : memref<128x8xf32>, vector<8xf32>
    %l0 = coopvec.matvec %x as F32, %w[%c0] matrix<F16, 16x8, RowMajor> stride %c32 : vector<8xf32>, memref<?xi8> -> vector<16xf32>
    %h0 = arith.maximumf %zero, %l0 : vector<16xf32>
    %l1 = coopvec.matvec %h0 as F32, %w[%c256] matrix<F16, 8x16, InferencingOptimal> bias %w[%c0] as F32 : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
    vector.store %l1, %out[%i, %c0] : memref<128x8xf32>, vector<8xf32>
  }
  return
}

// -----

// A single product is batched into one matrix-matrix product (with or
// without fusion), whatever its types.
// CHECK-LABEL: func @batch_int8
// CHECK: coopvec.batch_matvec %{{.*}} as PackedS8x32, %{{.*}}[%{{.*}}] matrix<I8, 32x32, InferencingOptimal> bias %{{.*}}[%{{.*}}] as I32 into %{{.*}} : memref<?x8xi32, strided<[8, 1], offset: ?>>, memref<?xi8>, memref<?xi8> -> memref<?x32xi32, strided<[32, 1], offset: ?>>
// NOFUSE-LABEL: func @batch_int8
// NOFUSE: coopvec.batch_matvec
func.func @batch_int8(%in: memref<?x8xi32>, %out: memref<?x32xi32>, %w: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x8xi32>, vector<8xi32>
    %y = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 32x32, InferencingOptimal> bias %w[%c0] as I32 : vector<8xi32>, memref<?xi8>, memref<?xi8> -> vector<32xi32>
    vector.store %y, %out[%i, %c0] : memref<?x32xi32>, vector<32xi32>
  }
  return
}

// -----

// CHECK-LABEL: func @batch_f32
// CHECK: coopvec.batch_matvec %{{.*}} as F32, %{{.*}}[%{{.*}}] matrix<F32, 4x4, RowMajor> stride %{{.*}} into
func.func @batch_f32(%in: memref<?x4xf32>, %out: memref<?x4xf32>, %w: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = vector.load %in[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, RowMajor> stride %c16 : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    vector.store %y, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    scf.reduce
  }
  return
}

// -----

// An f16 chain rounds every intermediate to f16: the f32 fused kernel would
// not compute the same values, so it stays per invocation.
// CHECK-LABEL: func @f16_chain
// CHECK: scf.for
// CHECK-COUNT-2: coopvec.matvec
func.func @f16_chain(%in: memref<?x8xf16>, %out: memref<?x8xf16>, %w: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<8xf16>
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x8xf16>, vector<8xf16>
    %y = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 8x8, InferencingOptimal> : vector<8xf16>, memref<?xi8> -> vector<8xf16>
    %h = arith.maximumf %y, %zero : vector<8xf16>
    %z = coopvec.matvec %h as F16, %w[%c0] matrix<F16, 8x8, InferencingOptimal> : vector<8xf16>, memref<?xi8> -> vector<8xf16>
    vector.store %z, %out[%i, %c0] : memref<?x8xf16>, vector<8xf16>
  }
  return
}

// -----

// Loops the pass must leave alone.
// CHECK-LABEL: func @not_batched
// CHECK-COUNT-5: scf.for
// CHECK-NOT: coopvec.mlp
// CHECK-NOT: coopvec.batch_matvec
func.func @not_batched(%in: memref<?x4xf32>, %out: memref<?x4xf32>, %w: memref<?xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant dense<1.0> : vector<4xf32>
  // Step 2.
  scf.for %i = %c0 to %n step %c2 {
    %x = vector.load %in[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    vector.store %y, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
  }
  // The matrix offset varies with the invocation.
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    %c128 = arith.constant 128 : index
    %off = arith.muli %i, %c128 : index
    %y = coopvec.matvec %x as F32, %w[%off] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    vector.store %y, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
  }
  // Another operation in the chain.
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    %z = arith.addf %y, %one : vector<4xf32>
    vector.store %z, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
  }
  // The row read is not row %i.
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%c0, %c0] : memref<?x4xf32>, vector<4xf32>
    %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    vector.store %y, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
  }
  // ReLU against a non-zero value.
  scf.for %i = %c0 to %n step %c1 {
    %x = vector.load %in[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    %z = arith.maximumf %y, %one : vector<4xf32>
    vector.store %z, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
  }
  return
}
