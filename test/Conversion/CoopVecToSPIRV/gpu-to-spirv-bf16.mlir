// coopvec-convert-gpu-to-spirv carries bf16 as its 16 bits: a bf16 memref
// is an array of i16 with stride 2 (MLIR 22's converter alone makes it an
// f32 array of stride 4, which reads the host's 2-byte buffer wrongly), a
// bf16 value or vector an i16 one; loads, stores, arith.bitcast and
// arith.select move the bits unchanged.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv --coopvec-convert-gpu-to-spirv | FileCheck %s

// CHECK-LABEL: spirv.module @__spv__m
// CHECK: spirv.func @copy(%[[X:[^:]*]]: !spirv.ptr<!spirv.struct<(!spirv.array<8 x i16, stride=2> [0])>, StorageBuffer> {{{.*}}}, %[[Y:[^:]*]]: !spirv.ptr<!spirv.struct<(!spirv.array<8 x i16, stride=2> [0])>, StorageBuffer> {{{.*}}}, %[[Z:[^:]*]]: !spirv.ptr<!spirv.struct<(!spirv.array<8 x i16, stride=2> [0])>, StorageBuffer> {{{.*}}}, %[[C:[^:]*]]: i1
// CHECK: spirv.AccessChain %[[X]]
// CHECK-NEXT: %[[A:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i16
// CHECK: spirv.AccessChain %[[X]]
// CHECK-NEXT: %[[B:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i16
// CHECK-NEXT: %[[PICK:.*]] = spirv.Select %[[C]], %[[A]], %[[B]] : i1, i16
// CHECK: %[[AT:.*]] = spirv.AccessChain %[[Y]]
// CHECK-NEXT: spirv.Store "StorageBuffer" %[[AT]], %[[PICK]] : i16
// CHECK: spirv.AccessChain %[[Y]]
// CHECK-NEXT: %[[BITS:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i16
// CHECK: %[[ZAT:.*]] = spirv.AccessChain %[[Z]]
// CHECK-NEXT: spirv.Store "StorageBuffer" %[[ZAT]], %[[BITS]] : i16
// CHECK-NEXT: spirv.Return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @copy(%x: memref<8xbf16>, %y: memref<8xbf16>, %z: memref<8xi16>, %c: i1) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %x[%c0] : memref<8xbf16>
      %b = memref.load %x[%c1] : memref<8xbf16>
      %pick = arith.select %c, %a, %b : bf16
      memref.store %pick, %y[%c0] : memref<8xbf16>
      %v = memref.load %y[%c1] : memref<8xbf16>
      %bits = arith.bitcast %v : bf16 to i16
      memref.store %bits, %z[%c0] : memref<8xi16>
      gpu.return
    }
  }
}
