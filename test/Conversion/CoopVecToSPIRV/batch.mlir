// convert-coopvec-to-spirv: a coopvec.batch_matvec inside a kernel is a loop
// over the batch's static rows (the output's here: the input's count is
// dynamic), each row one coopvec.matvec lowered as usual.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

// CHECK-LABEL: gpu.func @batch
// CHECK-NOT: coopvec.
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c6 step %c1 {
// The row's 16 inputs, element by element:
// CHECK-COUNT-16: memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: spirv.FMul
// Its 8 results:
// CHECK-COUNT-8: memref.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<6x8xf32>
// CHECK: gpu.return

// SPIRV-LABEL: spirv.func @batch(
// SPIRV: spirv.mlir.loop

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @batch(%x: memref<?x16xf32>, %w: memref<?xi8>, %y: memref<6x8xf32>) kernel
        attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 8x16, RowMajor> stride %c64
          into %y : memref<?x16xf32>, memref<?xi8> -> memref<6x8xf32>
      gpu.return
    }
  }
}
