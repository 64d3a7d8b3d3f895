// convert-coopvec-to-spirv: 8-, 6- and 4-bit float matrices, with or
// without block scales. Weights and scales are decoded exactly in integer
// code on the bits (Vulkan 1.3 has no such float types); a scaled weight is
// element x scale in one NoContraction OpFMul; then the float matrices'
// multiply and add.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

// CHECK-LABEL: gpu.func @mxfp4
// K = 37 in blocks of 32: two scales per row.
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c8 step %c1
// The element's byte: row * stride + k / 2 (a column pair per byte) ...
// CHECK: %[[PAIR:.*]] = arith.divui %[[K:.*]], %c2 : index
// CHECK: %[[START:.*]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK: arith.addi %[[START]], %[[PAIR]]
// CHECK: %[[BYTE:.*]] = memref.load
// ... its low nibble for even k, high for odd k:
// CHECK: %[[ODD:.*]] = arith.remui %[[K]], %c2 : index
// CHECK: %[[ODDI:.*]] = arith.index_castui %[[ODD]] : index to i32
// CHECK: %[[SHIFT:.*]] = arith.muli %[[ODDI]], %c4_i32
// CHECK: %[[CODE:.*]] = arith.shrui %{{.*}}, %[[SHIFT]] : i32
// E2M1: sign bit 3 to bit 31; the magnitude's 3 bits:
// CHECK: arith.andi %[[CODE]], %c8_i32
// CHECK: arith.shli %{{.*}}, %c28_i32
// CHECK: arith.andi %[[CODE]], %c7_i32
// The scale: byte scales offset + row * 2 + k / 32 ...
// CHECK: arith.muli %[[ROW]], %c2 : index
// CHECK: arith.divui %[[K]], %c32 : index
// ... 2^(e - 127): 0 is 2^-127 (0x00400000), 0xff NaN:
// CHECK: arith.select %{{.*}}, %c4194304_i32
// CHECK: arith.select %{{.*}}, %c2143289344_i32
// CHECK: %[[W:.*]] = spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: %[[P:.*]] = spirv.FMul %[[W]], %{{.*}} {no_contraction} : f32
// CHECK: spirv.FAdd %{{.*}}, %[[P]] {no_contraction} : f32

// CHECK-LABEL: gpu.func @nvfp4
// Transposed: the stored column, and so the nibble, is the row's.
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c16 step %c1
// CHECK: arith.remui %[[ROW]], %c2 : index
// UE4M3 scales: unsigned (no sign bit; bit 7 ignored), 0x7f NaN:
// CHECK: arith.andi %{{.*}}, %c127_i32
// CHECK: arith.cmpi eq, %{{.*}}, %c127_i32

// CHECK-LABEL: gpu.func @e3m2
// Six bits of each byte, the sign at bit 5:
// CHECK: arith.andi %{{.*}}, %c32_i32
// CHECK: arith.shli %{{.*}}, %c26_i32
// CHECK: arith.andi %{{.*}}, %c31_i32
// No scale:
// CHECK-NOT: arith.select %{{.*}}, %c4194304_i32
// CHECK: gpu.return

// SPIRV-LABEL: spirv.func @mxfp4(
// SPIRV: spirv.FMul {{.*}} {no_contraction}
// SPIRV: spirv.FAdd {{.*}} {no_contraction}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mxfp4(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>,
                    %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %xv = vector.load %x[%c0] : memref<?xf32>, vector<37xf32>
      %r = coopvec.matvec %xv as F32, %w[%c0] matrix<F4_E2M1, 8x37, RowMajor, scale f8E8M0FNU block 32> stride %c32
             scales %s[%c0] : memref<?xi8>
             : vector<37xf32>, memref<?xi8> -> vector<8xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
    gpu.func @nvfp4(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>,
                    %y: memref<?xf16>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %xv = vector.load %x[%c0] : memref<?xf16>, vector<32xf16>
      %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F4_E2M1, 16x32, TrainingOptimal, transpose, scale f8E4M3FN block 16>
             scales %s[%c0] : memref<?xi8>
             : vector<32xf16>, memref<?xi8> -> vector<16xf16>
      vector.store %r, %y[%c0] : memref<?xf16>, vector<16xf16>
      gpu.return
    }
    gpu.func @e3m2(%x: memref<?xf32>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %xv = vector.load %x[%c0] : memref<?xf32>, vector<16xf32>
      %r = coopvec.matvec %xv as F8_E4M3, %w[%c0] matrix<F6_E3M2, 4x16, RowMajor> stride %c16
             : vector<16xf32>, memref<?xi8> -> vector<4xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }
}
