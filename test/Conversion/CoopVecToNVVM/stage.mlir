// The cooperative step's shared-memory stage: one memref.global per
// gpu.module, 256 words (1 KiB) for each warp of the largest block among its
// functions with a matvec (known_block_size, else stage-warps).
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm=stage-warps=2 | FileCheck %s --check-prefix=TWO
// RUN: not coopvec-opt %s --convert-coopvec-to-nvvm=stage-warps=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not coopvec-opt %s --convert-coopvec-to-nvvm=stage-warps=33 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm=cooperative=false | FileCheck %s --check-prefix=LANE

// ZERO: error: convert-coopvec-to-nvvm: stage-warps must be 1 to 32, not 0
// MANY: error: convert-coopvec-to-nvvm: stage-warps must be 1 to 32, not 33
// LANE-NOT: __coopvec_warp_stage

module attributes {gpu.container_module} {
// 64 x 2 threads: four warps, whatever stage-warps says.
// CHECK-LABEL: gpu.module @known
// CHECK-NEXT: memref.global "private" @__coopvec_warp_stage : memref<1024xi32, #gpu.address_space<workgroup>>
// CHECK: arith.cmpi ult, %{{.*}}, %c4 : index
// TWO-LABEL: gpu.module @known
// TWO-NEXT: memref.global "private" @__coopvec_warp_stage : memref<1024xi32, #gpu.address_space<workgroup>>
  gpu.module @known {
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 2, 1>} {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }

// No known_block_size: stage-warps warps (8, or 2), the larger of the two
// functions.
// CHECK-LABEL: gpu.module @unknown
// CHECK-NEXT: memref.global "private" @__coopvec_warp_stage : memref<2048xi32, #gpu.address_space<workgroup>>
// CHECK: arith.cmpi ult, %{{.*}}, %c8 : index
// TWO-LABEL: gpu.module @unknown
// TWO-NEXT: memref.global "private" @__coopvec_warp_stage : memref<512xi32, #gpu.address_space<workgroup>>
// TWO: arith.cmpi ult, %{{.*}}, %c2 : index
  gpu.module @unknown {
    gpu.func @small(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }

// 1024 threads: 32 warps, 32 KiB.
// CHECK-LABEL: gpu.module @full
// CHECK-NEXT: memref.global "private" @__coopvec_warp_stage : memref<8192xi32, #gpu.address_space<workgroup>>
// TWO-LABEL: gpu.module @full
// TWO-NEXT: memref.global "private" @__coopvec_warp_stage : memref<8192xi32, #gpu.address_space<workgroup>>
  gpu.module @full {
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }

// No matvec, no stage.
// CHECK-LABEL: gpu.module @none
// CHECK-NOT: __coopvec_warp_stage
// CHECK: gpu.func @k
  gpu.module @none {
    gpu.func @k(%y: memref<?xf32>) kernel {
      gpu.return
    }
  }
}
