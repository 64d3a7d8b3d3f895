// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s

// coopvec composes with the upstream dialects a kernel is written in: a GPU
// kernel per pixel, scf loops, memref views, LLVM-dialect values.

// CHECK-LABEL: gpu.module @shading
// CHECK: gpu.func @pixel
// CHECK: coopvec.matvec
// CHECK: llvm.intr.fma
gpu.module @shading {
  gpu.func @pixel(%features: memref<?x16xf16>, %w: memref<?xi8>, %out: memref<?x8xf16>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %x = vector.load %features[%tid, %c0] : memref<?x16xf16>, vector<16xf16>
    %y = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 8x16, InferencingOptimal>
           : vector<16xf16>, memref<?xi8> -> vector<8xf16>
    %a = llvm.mlir.constant(2.0 : f32) : f32
    %b = llvm.intr.fma(%a, %a, %a) : (f32, f32, f32) -> f32
    vector.store %y, %out[%tid, %c0] : memref<?x8xf16>, vector<8xf16>
    gpu.return
  }
}

// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK: memref.subview
// CHECK: coopvec.vector_accumulate
func.func @loop(%v: vector<8xf16>, %buf: memref<4096xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c64 : index
    %view = memref.subview %buf[0] [1024] [1] : memref<4096xi8> to memref<1024xi8, strided<[1]>>
    %cast = memref.cast %buf : memref<4096xi8> to memref<?xi8>
    coopvec.vector_accumulate %v, %cast[%off] : vector<8xf16>, memref<?xi8>
  }
  return
}
