// Float accumulation on Vulkan: core Vulkan 1.3 has integer atomics only, so
// convert-coopvec-to-spirv writes each float add as a
// memref.generic_atomic_rmw on the 32-bit word (an f16 is one half of it),
// and coopvec-convert-gpu-to-spirv turns that into a compare-and-swap loop.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @vector
    // CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf16>, %[[BUF:.*]]: memref<?xi32>)
    // CHECK: memref.generic_atomic_rmw %[[BUF]]
    // CHECK: spirv.FAdd {{.*}} {no_contraction} : f32
    // CHECK: memref.atomic_yield
    // f16: the half's bits are shifted out of the word, widened, added in
    // f32, rounded back by the DXIL rule and put back.
    // CHECK: memref.generic_atomic_rmw %[[BUF]]
    // CHECK: arith.extf {{.*}} : f16 to f32
    // CHECK: spirv.FAdd {{.*}} {no_contraction} : f32
    // CHECK: arith.ori
    // CHECK: memref.atomic_yield
    // SPIRV-LABEL: spirv.func @vector
    // SPIRV: spirv.mlir.loop
    // SPIRV: spirv.AtomicCompareExchange <Device> <None> <None>
    // SPIRV: spirv.IEqual
    // SPIRV: spirv.BranchConditional
    // SPIRV: spirv.mlir.merge
    gpu.func @vector(%x: memref<?xf32>, %y: memref<?xf16>, %buf: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %v = vector.load %x[%c0] : memref<?xf32>, vector<2xf32>
      %h = vector.load %y[%c0] : memref<?xf16>, vector<2xf16>
      coopvec.vector_accumulate %v, %buf[%c0] : vector<2xf32>, memref<?xi8>
      coopvec.vector_accumulate %h, %buf[%c64] : vector<2xf16>, memref<?xi8>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @outer
    // The vectors go to private arrays; two loops; one product (no
    // contraction) and one compare-and-swap per element.
    // CHECK-DAG: memref.alloca() : memref<3xf32, #spirv.storage_class<Function>>
    // CHECK-DAG: memref.alloca() : memref<2xf32, #spirv.storage_class<Function>>
    // CHECK: scf.for
    // CHECK: scf.for
    // CHECK: spirv.FMul {{.*}} {no_contraction} : f32
    // CHECK: memref.generic_atomic_rmw
    gpu.func @outer(%x: memref<?xf16>, %m: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %a = vector.load %x[%c0] : memref<?xf16>, vector<3xf16>
      %b = vector.load %x[%c3] : memref<?xf16>, vector<2xf16>
      %c16 = arith.constant 16 : index
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F16, 3x2, RowMajor> stride %c16
          : vector<3xf16>, vector<2xf16>, memref<?xi8>
      gpu.return
    }
  }
}
