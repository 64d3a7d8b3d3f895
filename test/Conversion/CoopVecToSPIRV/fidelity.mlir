// convert-coopvec-to-spirv: coopvec.matvec with #coopvec.math_fidelity, the
// Wormhole model of the CPU runtime in integer code (WormholeArith.h): per
// row, K blocks (packer L1 accumulation), 32-wide K tiles, fidelity phases,
// 16-wide chunks; each chunk (straight-line code) sums Dst and its slice
// products exactly in a Function array of twenty 32-bit limbs held in i64
// values, then rounds Dst to its format (ties away, FindUMsb for the
// leading bit). And a BF16
// matrix without fidelity: F32 products of inputs read as BF16.
// RUN: coopvec-opt %s --convert-coopvec-to-spirv | FileCheck %s
// RUN: coopvec-opt %s --coopvec-vulkan-pipeline=binary=false | FileCheck %s --check-prefix=SPIRV

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A block-float input: each element's SrcB bits from its stored byte
    // (BFP4: the low nibble of byte k/2 for even k, the byte shifted right
    // by four for odd k) and its block's exponent (byte k/16), decoded as
    // the matrix's block floats are (FindUMsb normalizes the magnitude).
    // CHECK-LABEL: gpu.func @bfp4_input
    // CHECK-DAG: %[[B0:.*]] = memref.load %arg0[%c0] : memref<?xi8>
    // CHECK-DAG: %[[B8:.*]] = memref.load %arg0[%c8] : memref<?xi8>
    // CHECK-DAG: %[[E0:.*]] = memref.load %arg1[%c0] : memref<?xi8>
    // CHECK-DAG: %[[E1:.*]] = memref.load %arg1[%c1] : memref<?xi8>
    // CHECK: %[[X0:.*]] = arith.extui %[[B0]] : i8 to i32
    // CHECK-NEXT: arith.extui %[[E0]] : i8 to i32
    // CHECK-NEXT: arith.shli %[[X0]], %c4_i32 : i32
    // CHECK: spirv.GL.FindUMsb
    // CHECK: memref.store %{{.*}}, %[[XS:.*]][%c0] : memref<20xi32
    // CHECK: %[[X1:.*]] = arith.extui %[[B0]] : i8 to i32
    // CHECK-NEXT: %[[N1:.*]] = arith.shrui %[[X1]], %c4_i32 : i32
    // CHECK-NEXT: arith.extui %[[E0]] : i8 to i32
    // CHECK-NEXT: arith.shli %[[N1]], %c4_i32 : i32
    // CHECK: memref.store %{{.*}}, %[[XS]][%c1] : memref<20xi32
    // CHECK: %[[X16:.*]] = arith.extui %[[B8]] : i8 to i32
    // CHECK-NEXT: arith.extui %[[E1]] : i8 to i32
    // CHECK: memref.store %{{.*}}, %[[XS]][%c16] : memref<20xi32
    gpu.func @bfp4_input(%xs: memref<?xi8>, %es: memref<?xi8>, %w: memref<?xi8>, %y: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c48 = arith.constant 48 : index
      %x = vector.load %xs[%c0] : memref<?xi8>, vector<10xi8>
      %e = vector.load %es[%c0] : memref<?xi8>, vector<2xi8>
      %r = coopvec.matvec %x as BFP4 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x20, RowMajor> stride %c48
             fidelity<lofi, dst = f32> : vector<10xi8>, memref<?xi8> -> vector<4xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<4xf32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @bfp4
    // The inputs' SrcB bits, the results and the exact accumulator:
    // CHECK-DAG: memref.alloca() : memref<40xi32, #spirv.storage_class<Function>>
    // CHECK-DAG: memref.alloca() : memref<20xi64, #spirv.storage_class<Function>>
    // Rows; K blocks of 32 from the bias (the L1 start); tiles; phases
    // (HiFi3: three); chunks:
    // CHECK: scf.for %[[ROW:.*]] = %c0 to %c10 step %c1
    // CHECK: scf.for %[[BLK:.*]] = %c0 to %c2 step %c1 iter_args(%[[L1:.*]] = %{{.*}}) -> (i32)
    // CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %c32 iter_args(%{{.*}} = %c0_i32) -> (i32)
    // CHECK: scf.for %[[PH:.*]] = %c0 to %c3 step %c1 iter_args
    // CHECK: scf.for %[[C:.*]] = %[[T]] to %{{.*}} step %c16 iter_args(%[[DST:.*]] = %{{.*}}) -> (i32)
    // The chunk in straight-line code (lavapipe counts loop iterations):
    // clear the twenty limbs; add Dst at bit (exp + 300): limb (shift >> 5),
    // low and high 32 bits of sig << (shift & 31), negated for a negative
    // value:
    // CHECK: memref.store %c0_i64, %[[SUM:.*]][%c0] : memref<20xi64
    // CHECK: memref.store %c0_i64, %[[SUM]][%c19] : memref<20xi64
    // CHECK: arith.subi %{{.*}}, %c-300_i32 : i32
    // CHECK: arith.shrui %{{.*}}, %c5_i32 : i32
    // CHECK: arith.andi %{{.*}}, %c4294967295_i64 : i64
    // CHECK: arith.shrui %{{.*}}, %c32_i64 : i64
    // CHECK: arith.subi %c0_i64, %{{.*}} : i64
    // Then sixteen guarded terms (K < the chunk's end); the second:
    // CHECK: %[[KK:.*]] = arith.addi %[[C]], %c1 : index
    // CHECK: %[[LIVE:.*]] = arith.cmpi ult, %[[KK]], %{{.*}} : index
    // CHECK: %[[AT:.*]] = arith.select %[[LIVE]], %[[KK]], %[[C]] : index
    // The BFP4 datum's nibble and its block's shared exponent (row * 3 +
    // k / 16), normalized with FindUMsb:
    // CHECK: arith.muli %[[ROW]], %c3 : index
    // CHECK: arith.divui %[[AT]], %c16 : index
    // CHECK: spirv.GL.FindUMsb
    // SrcA's slice by phase (bit 0: the lo slice) and SrcB's (bit 1):
    // CHECK: arith.andi %{{.*}}, %c1_i32
    // CHECK: arith.andi %{{.*}}, %c2_i32
    // CHECK: arith.muli %{{.*}} : i32
    // CHECK: arith.select %[[LIVE]], %{{.*}}, %c0_i64 : i64
    // The sixteenth:
    // CHECK: arith.addi %[[C]], %c15 : index
    // Rounding: the carries (the last one the sign), the magnitude, the
    // leading limb (FindUMsb), ties away:
    // CHECK: arith.shrsi %{{.*}}, %c32_i64 : i64
    // CHECK: spirv.GL.FindUMsb
    // Dst below 2^-126 flushes to +0:
    // CHECK: arith.cmpi slt, %{{.*}}, %c-126_i32
    // The packer: f32 Dst to bf16, then L1 accumulation in bf16.
    // CHECK: scf.yield
    // SPIRV-LABEL: spirv.func @bfp4
    // SPIRV: spirv.Variable : !spirv.ptr<!spirv.struct<(!spirv.array<20 x i64>)>, Function>
    // SPIRV: spirv.GL.FindUMsb
    gpu.func @bfp4(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 32 : index
      %xv = vector.load %x[%c0] : memref<?xf32>, vector<40xf32>
      %r = coopvec.matvec %xv as BF16, %w[%c0] matrix<BFP4, 10x40, RowMajor, scale f8E8M0FNU block 16> stride %stride
             scales %s[%c0] : memref<?xi8> bias %b[%c0] as BF16
             fidelity<hifi3, dst = f32, pack = bf16, l1_acc, k_block = 32>
             : vector<40xf32>, memref<?xi8>, memref<?xi8> -> vector<10xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<10xf32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @bf16
    // Inputs by the DXIL rule: nearest even, a finite value that rounds to
    // infinity saturates to 0x7f7f, NaN 0x7fc0 (with its sign):
    // CHECK: arith.addi %{{.*}}, %c32767_i32
    // CHECK: arith.ori %{{.*}}, %c32639_i32
    // CHECK: arith.ori %{{.*}}, %c32704_i32
    // Weights: two bytes to the top of an f32; multiply, then add:
    // CHECK: arith.shli %{{.*}}, %c16_i32
    // CHECK: spirv.FMul {{.*}} {no_contraction}
    // CHECK: spirv.FAdd {{.*}} {no_contraction}
    gpu.func @bf16(%x: memref<?xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %xv = vector.load %x[%c0] : memref<?xf16>, vector<24xf16>
      %r = coopvec.matvec %xv as BF16, %w[%c0] matrix<BF16, 8x24, InferencingOptimal, transpose>
             : vector<24xf16>, memref<?xi8> -> vector<8xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
