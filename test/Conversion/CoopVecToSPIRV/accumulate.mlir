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

    // i16 elements: no 16-bit atomics, so a compare-and-swap on the word
    // whose half holds the element, which wraps (no saturation).
    // CHECK-LABEL: gpu.func @vector_i16
    // CHECK: memref.generic_atomic_rmw
    // CHECK: arith.trunci %{{.*}} : i32 to i16
    // CHECK: arith.extsi %{{.*}} : i16 to i64
    // CHECK-NOT: arith.maxsi
    // CHECK: memref.atomic_yield
    gpu.func @vector_i16(%x: memref<?xi16>, %buf: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = vector.load %x[%c0] : memref<?xi16>, vector<1xi16>
      coopvec.vector_accumulate %v, %buf[%c0] : vector<1xi16>, memref<?xi8>
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

    // Integer outer products: the vectors go to i64 arrays, the product is
    // exact in i64. Into an I16 matrix: the half of the word (address & 2,
    // shifted by 8 bits a byte) is sign-extended, the product added, the
    // sum saturated to [-32768, 32767] and put back with the other half
    // unchanged. Into an F32 matrix: the exact product rounded once to f32
    // and added as the float products are.
    // CHECK-LABEL: gpu.func @outer_int
    // CHECK-DAG: memref.alloca() : memref<3xi64, #spirv.storage_class<Function>>
    // CHECK-DAG: memref.alloca() : memref<2xi64, #spirv.storage_class<Function>>
    // CHECK: scf.for
    // CHECK: scf.for
    // CHECK: %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
    // CHECK: memref.generic_atomic_rmw
    // CHECK: arith.andi %{{.*}}, %c2_i32 : i32
    // CHECK: arith.trunci %{{.*}} : i32 to i16
    // CHECK: %[[OLD:.*]] = arith.extsi %{{.*}} : i16 to i64
    // CHECK: %[[SUM:.*]] = arith.addi %[[OLD]], %[[P]] : i64
    // CHECK: arith.maxsi %[[SUM]], %c-32768_i64 : i64
    // CHECK: arith.minsi %{{.*}}, %c32767_i64 : i64
    // CHECK: memref.atomic_yield
    // CHECK: scf.for
    // CHECK: scf.for
    // CHECK: %[[Q:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
    // CHECK: %[[F:.*]] = arith.sitofp %[[Q]] : i64 to f32
    // CHECK: memref.generic_atomic_rmw
    // CHECK: spirv.FAdd %{{.*}}, %[[F]] {no_contraction} : f32
    // SPIRV-LABEL: spirv.func @outer_int
    // SPIRV: spirv.IMul {{.*}} : i64
    // SPIRV: spirv.AtomicCompareExchange <Device> <None> <None>
    // SPIRV: spirv.ConvertSToF {{.*}} : i64 to f32
    // SPIRV: spirv.AtomicCompareExchange <Device> <None> <None>
    gpu.func @outer_int(%x: memref<?xi32>, %m: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %a = vector.load %x[%c0] : memref<?xi32>, vector<3xi32>
      %b = vector.load %x[%c3] : memref<?xi32>, vector<2xi32>
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<I16, 3x2, RowMajor> stride %c16
          : vector<3xi32>, vector<2xi32>, memref<?xi8>
      coopvec.outer_product_accumulate %a, %b, %m[%c128] matrix<F32, 3x2, ColumnMajor> stride %c16
          : vector<3xi32>, vector<2xi32>, memref<?xi8>
      gpu.return
    }

    // Float vectors into integer matrices: the element to f32, one f32
    // addition of the product, nearest even by adding and taking away 2^23
    // (each NoContraction), saturated, NaN 0; a 32-bit unsigned element
    // converts at most the largest f32 below 2^32 and takes 2^32 - 1 above.
    // CHECK-LABEL: gpu.func @outer_float_int
    // CHECK: %[[P:.*]] = spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
    // CHECK: memref.generic_atomic_rmw
    // CHECK: arith.trunci %{{.*}} : i32 to i8
    // CHECK: %[[OLD:.*]] = arith.sitofp %{{.*}} : i32 to f32
    // CHECK: %[[SUM:.*]] = spirv.FAdd %[[OLD]], %[[P]] {no_contraction} : f32
    // CHECK: %[[ABS:.*]] = spirv.GL.FAbs %[[SUM]] : f32
    // CHECK: %[[UP:.*]] = spirv.FAdd %[[ABS]], %[[M:.*]] {no_contraction} : f32
    // CHECK: spirv.FSub %[[UP]], %[[M]] {no_contraction} : f32
    // CHECK: arith.negf
    // CHECK: arith.maximumf %{{.*}}, %cst{{.*}} : f32
    // CHECK: arith.minimumf
    // CHECK: arith.fptosi %{{.*}} : f32 to i32
    // CHECK: arith.cmpf uno, %[[SUM]], %[[SUM]] : f32
    // CHECK: memref.atomic_yield
    // CHECK: memref.generic_atomic_rmw
    // CHECK: arith.uitofp %{{.*}} : i32 to f32
    // CHECK: arith.fptoui %{{.*}} : f32 to i32
    // CHECK: arith.cmpf oge, %{{.*}}, %{{.*}} : f32
    // CHECK: arith.select %{{.*}}, %c-1_i32, %{{.*}} : i32
    // SPIRV-LABEL: spirv.func @outer_float_int
    // SPIRV: spirv.ConvertSToF {{.*}} : i32 to f32
    // SPIRV: spirv.ConvertFToS {{.*}} : f32 to i32
    // SPIRV: spirv.AtomicCompareExchange <Device> <None> <None>
    // SPIRV: spirv.ConvertUToF {{.*}} : i32 to f32
    // SPIRV: spirv.ConvertFToU {{.*}} : f32 to i32
    // SPIRV: spirv.AtomicCompareExchange <Device> <None> <None>
    gpu.func @outer_float_int(%x: memref<?xf32>, %m: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %a = vector.load %x[%c0] : memref<?xf32>, vector<3xf32>
      %b = vector.load %x[%c3] : memref<?xf32>, vector<2xf32>
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<I8, 3x2, RowMajor> stride %c16
          : vector<3xf32>, vector<2xf32>, memref<?xi8>
      coopvec.outer_product_accumulate %a, %b, %m[%c128] matrix<U32, 3x2, ColumnMajor> stride %c16
          : vector<3xf32>, vector<2xf32>, memref<?xi8>
      gpu.return
    }

    // An 8-bit float matrix: the byte decoded exactly (f8ToF32), one f32
    // addition, the DXIL rounding back to E5M2 (dxilToF8) on the bits.
    // CHECK-LABEL: gpu.func @outer_f8
    // CHECK: %[[P:.*]] = spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
    // CHECK: memref.generic_atomic_rmw
    // CHECK: %[[BYTE:.*]] = arith.andi %{{.*}}, %c255_i32 : i32
    // CHECK: arith.andi %[[BYTE]], %c127_i32 : i32
    // CHECK: %[[OLD:.*]] = arith.bitcast %{{.*}} : i32 to f32
    // CHECK: %[[SUM:.*]] = spirv.FAdd %[[OLD]], %[[P]] {no_contraction} : f32
    // CHECK: arith.bitcast %[[SUM]] : f32 to i32
    // CHECK: arith.subi %{{.*}}, %c448_i32 : i32
    // CHECK: memref.atomic_yield
    // SPIRV-LABEL: spirv.func @outer_f8
    // SPIRV: spirv.FAdd {{.*}} : f32
    // SPIRV: spirv.AtomicCompareExchange <Device> <None> <None>
    gpu.func @outer_f8(%x: memref<?xf32>, %m: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %a = vector.load %x[%c0] : memref<?xf32>, vector<3xf32>
      %b = vector.load %x[%c3] : memref<?xf32>, vector<2xf32>
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F8_E5M2, 3x2, RowMajor> stride %c16
          : vector<3xf32>, vector<2xf32>, memref<?xi8>
      gpu.return
    }
  }
}
