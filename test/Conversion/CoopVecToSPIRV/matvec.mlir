// convert-coopvec-to-spirv: coopvec.matvec in a kernel as a loop over rows;
// 8-bit matrices through packed dot products of the signedness of each side,
// float matrices as NoContraction multiply then add (or GL.Fma), the bias
// and the DXIL conversion; vectors of the kernel split into scalars; the
// workgroup size from the launch and the Vulkan 1.3 target environment.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-spirv=fma=true | FileCheck %s --check-prefix=FMA
// Then everything to the SPIR-V dialect:
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

// CHECK-LABEL: gpu.module @kernels
// CHECK-SAME: #spirv.target_env<#spirv.vce<v1.6, [Shader, Int8, Int16, Int64, Float16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, DotProduct, DotProductInputAll, DotProductInput4x8BitPacked]
// CHECK-SAME: api=Vulkan

// CHECK-LABEL: gpu.func @s8
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>
// The input words and the results in Function arrays, at the start:
// CHECK-DAG: memref.alloca() : memref<7xi32, #spirv.storage_class<Function>>
// CHECK-DAG: memref.alloca() : memref<16xi32, #spirv.storage_class<Function>>
// The vector.load became element loads:
// CHECK-COUNT-7: memref.load %{{.*}} : memref<?xi32>
// The last word keeps its K % 4 = 2 bytes:
// CHECK: arith.andi %{{.*}}, %c65535_i32
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c16 step %c1 {
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1 iter_args
// CHECK: spirv.SDot %{{.*}}, %{{.*}}, <PackedVectorFormat4x8Bit> : i32 -> i32
// The partial word: two weights.
// CHECK: spirv.SDot
// The I32 bias exactly in i64, saturated to i32:
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.minsi
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: memref.store %{{.*}} : memref<16xi32, #spirv.storage_class<Function>>

// CHECK-LABEL: gpu.func @mixed
// U8 matrix, I8 input (from f32 elements, rounded to nearest even by the
// magic number): SUDot with the signed input first.
// CHECK: spirv.FAdd %{{.*}}, %cst{{.*}} {no_contraction} : f32
// CHECK: spirv.FSub
// CHECK: spirv.SUDot %[[X:.*]], %[[W:.*]], <PackedVectorFormat4x8Bit>
// CHECK-NOT: spirv.SDot

// CHECK-LABEL: gpu.func @u8
// CHECK: spirv.UDot
// U32 results saturate to [0, 2^32 - 1]:
// CHECK: arith.maxsi %{{.*}}, %c0_i64
// CHECK: arith.minsi %{{.*}}, %c4294967295_i64

// CHECK-LABEL: gpu.func @f16
// CHECK-SAME: workgroup_size = [128, 1, 1]
// CHECK: scf.for
// CHECK: scf.for
// Two bytes, little-endian, as an f16 weight:
// CHECK: arith.shli %{{.*}}, %c8_i16 : i16
// CHECK: arith.bitcast %{{.*}} : i16 to f16
// CHECK: %[[P:.*]] = spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: spirv.FAdd %{{.*}}, %[[P]] {no_contraction} : f32
// The F16 result: rounded to nearest even on the bits (OpFConvert's
// rounding is the driver's), saturated to 65504 (0x7bff) from 65520
// (0x477ff000) up.
// CHECK: arith.cmpi uge, %{{.*}}, %c1199566848_i32
// CHECK: arith.select %{{.*}}, %c31743_i32
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK-NOT: arith.truncf
// FMA-LABEL: gpu.func @f16
// FMA: spirv.GL.Fma
// FMA-NOT: spirv.FMul

// SPIRV: spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.6,
// SPIRV-SAME: DotProduct
// SPIRV: spirv.func @s8(
// SPIRV: spirv.SDot
// SPIRV: spirv.func @f16(
// SPIRV: spirv.FMul {{.*}} {no_contraction}
// SPIRV: spirv.EntryPoint "GLCompute" @s8
// SPIRV: spirv.ExecutionMode @s8 "LocalSize", 64, 1, 1
// SPIRV: spirv.EntryPoint "GLCompute" @f16
// SPIRV: spirv.ExecutionMode @f16 "LocalSize", 128, 1, 1

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @s8(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                 %y: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 32 : index
      %xv = vector.load %x[%c0] : memref<?xi32>, vector<7xi32>
      %r = coopvec.matvec %xv as PackedS8x32, %w[%c0] matrix<I8, 16x26, RowMajor> stride %stride
             bias %b[%c0] as I32
             : vector<7xi32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<16xi32>
      gpu.return
    }
    gpu.func @mixed(%w: memref<?xi8>, %y: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 16 : index
      %x = arith.constant dense<[1.5, -2.5, 300.0, 0.25, 7.0, -8.0, 9.0, 10.0]> : vector<8xf32>
      %r = coopvec.matvec %x as I8, %w[%c0] matrix<U8, 4x8, ColumnMajor> stride %stride
             : vector<8xf32>, memref<?xi8> -> vector<4xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<4xi32>
      gpu.return
    }
    gpu.func @u8(%x: memref<?xi32>, %w: memref<?xi8>, %y: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 16 : index
      %xv = vector.load %x[%c0] : memref<?xi32>, vector<4xi32>
      %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<U8, 8x16, RowMajor> stride %stride
             unsigned_result
             : vector<4xi32>, memref<?xi8> -> vector<8xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<8xi32>
      gpu.return
    }
    gpu.func @f16(%x: memref<?xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
                  %y: memref<?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 32 : index
      %xv = vector.load %x[%c0] : memref<?xf16>, vector<16xf16>
      %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 8x16, RowMajor> stride %stride
             bias %b[%c0] as F16
             : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
      %relu = arith.maximumf %r, %r : vector<8xf16>
      vector.store %relu, %y[%c0] : memref<?xf16>, vector<8xf16>
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                    %y: memref<?xi32>, %xh: memref<?xf16>, %yh: memref<?xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@s8 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>)
    gpu.launch_func @kernels::@s8 blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>)
    gpu.launch_func @kernels::@f16 blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%xh : memref<?xf16>, %w : memref<?xi8>, %b : memref<?xi8>, %yh : memref<?xf16>)
    return
  }
}
