// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s

// The math-fidelity clause (#coopvec.math_fidelity) of coopvec.matvec,
// coopvec.batch_matvec, coopvec.tile_mma, coopvec.tile_pack_dst and
// coopvec.eltwise_mul round-trips, in every spelling.

// CHECK-LABEL: func.func @matvec_bf16
// CHECK: coopvec.matvec %{{[[:alnum:]_]+}} as BF16, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BF16, 32x64, RowMajor> stride %{{[[:alnum:]_]+}} fidelity<lofi, dst = bf16> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
// CHECK: fidelity<hifi2, dst = f32, pack = bf16> :
// CHECK: fidelity<hifi3, dst = f32, pack = f32> :
// CHECK: fidelity<hifi4, dst = bf16, pack = f32> :
func.func @matvec_bf16(%x: vector<64xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %0 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<lofi, dst = bf16> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  %1 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<hifi2, dst = f32, pack = bf16> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  %2 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<hifi3, dst = f32, pack = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  %3 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<hifi4, dst = bf16, pack = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  return
}

// The bias is the L1 accumulator's start; k_block splits K into L1 blocks.
// CHECK-LABEL: func.func @l1_accumulation
// CHECK: bias %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] as BF16 fidelity<hifi2, dst = f32, pack = bf16, l1_acc, k_block = 32> : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
// CHECK: fidelity<hifi4, dst = f32, l1_acc> :
func.func @l1_accumulation(%x: vector<64xf16>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %0 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, InferencingOptimal, transpose>
         bias %b[%c0] as BF16 fidelity<hifi2, dst = f32, pack = bf16, l1_acc, k_block = 32>
         : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
  %1 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, TrainingOptimal>
         fidelity<hifi4, dst = f32, l1_acc> : vector<64xf16>, memref<?xi8> -> vector<32xf32>
  return
}

// F32 operands are unpacked as TF32.
// CHECK-LABEL: func.func @tf32
// CHECK: coopvec.matvec %{{[[:alnum:]_]+}} as F32, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<F32, 16x32, ColumnMajor> stride %{{[[:alnum:]_]+}} bias %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] as F32 fidelity<hifi3, dst = f32, l1_acc>
func.func @tf32(%x: vector<32xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 16x32, ColumnMajor> stride %c64
         bias %b[%c0] as F32 fidelity<hifi3, dst = f32, l1_acc>
         : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
  return %0 : vector<16xf32>
}

// CHECK-LABEL: func.func @batch
// CHECK: coopvec.batch_matvec %{{[[:alnum:]_]+}} as BF16, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BF16, 64x64, RowMajor> stride %{{[[:alnum:]_]+}} fidelity<lofi, dst = bf16> into %{{[[:alnum:]_]+}} : memref<?x64xf32>, memref<?xi8> -> memref<?x64xf32>
func.func @batch(%x: memref<?x64xf32>, %w: memref<?xi8>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  coopvec.batch_matvec %x as BF16, %w[%c0] matrix<BF16, 64x64, RowMajor> stride %c128
      fidelity<lofi, dst = bf16> into %y : memref<?x64xf32>, memref<?xi8> -> memref<?x64xf32>
  return
}

// CHECK-LABEL: func.func @tile
// CHECK: coopvec.tile_mma %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} fidelity<hifi4, dst = f32> : vector<16x32xbf16>, vector<32x8xbf16> -> vector<16x8xf32>
// CHECK: coopvec.tile_mma %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} fidelity<lofi, dst = bf16> : vector<16x64xf32>, vector<64x8xf32> -> vector<16x8xf32>
func.func @tile(%a: vector<16x32xbf16>, %b: vector<32x8xbf16>, %acc: vector<16x8xf32>,
                %c: vector<16x64xf32>, %d: vector<64x8xf32>) {
  %0 = coopvec.tile_mma %a, %b, %acc fidelity<hifi4, dst = f32>
         : vector<16x32xbf16>, vector<32x8xbf16> -> vector<16x8xf32>
  %1 = coopvec.tile_mma %c, %d, %acc fidelity<lofi, dst = bf16>
         : vector<16x64xf32>, vector<64x8xf32> -> vector<16x8xf32>
  return
}

// The attribute on its own, with the dialect prefix.
// CHECK-LABEL: func.func @attr
// CHECK: test.fidelity = #coopvec.math_fidelity<hifi3, dst = bf16, pack = bf16, l1_acc, k_block = 64>
func.func @attr() attributes {test.fidelity = #coopvec.math_fidelity<hifi3, dst = bf16, pack = bf16, l1_acc, k_block = 64>} {
  return
}

// CHECK-LABEL: func.func @eltwise
// CHECK: coopvec.eltwise_mul %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} fidelity<hifi2, dst = f32> : vector<64xbf16> -> vector<64xf32>
// CHECK: coopvec.eltwise_mul %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} acc %{{[[:alnum:]_]+}} fidelity<lofi, dst = bf16, pack = f32, l1_acc> : vector<64xf32> -> vector<64xf32>
func.func @eltwise(%a: vector<64xbf16>, %b: vector<64xbf16>, %x: vector<64xf32>, %l1: vector<64xf32>) -> (vector<64xf32>, vector<64xf32>) {
  %p = coopvec.eltwise_mul %a, %b fidelity<hifi2, dst = f32> : vector<64xbf16> -> vector<64xf32>
  %q = coopvec.eltwise_mul %x, %x acc %l1 fidelity<lofi, dst = bf16, pack = f32, l1_acc> : vector<64xf32> -> vector<64xf32>
  return %p, %q : vector<64xf32>, vector<64xf32>
}

// CHECK-LABEL: func.func @pack_dst
// CHECK: coopvec.tile_pack_dst %{{[[:alnum:]_]+}} fidelity<hifi2, dst = f32, pack = bf16> : vector<16x8xf32>
// CHECK: coopvec.tile_pack_dst %{{[[:alnum:]_]+}} acc %{{[[:alnum:]_]+}} fidelity<lofi, dst = bf16, l1_acc> : vector<16x8xf32>
func.func @pack_dst(%d: vector<16x8xf32>, %l1: vector<16x8xf32>) -> (vector<16x8xf32>, vector<16x8xf32>) {
  %p = coopvec.tile_pack_dst %d fidelity<hifi2, dst = f32, pack = bf16> : vector<16x8xf32>
  %q = coopvec.tile_pack_dst %d acc %l1 fidelity<lofi, dst = bf16, l1_acc> : vector<16x8xf32>
  return %p, %q : vector<16x8xf32>, vector<16x8xf32>
}

// Block-float matrices: BFP8 and BFP4 data with their exponents as UE8M0
// block scales of 16, BF16 inputs.
// CHECK-LABEL: func.func @bfp_interp
// CHECK-SAME: test.interp = #coopvec.interp<BFP8>, test.interp4 = #coopvec.interp<BFP4>
func.func @bfp_interp() attributes {test.interp = #coopvec.interp<BFP8>, test.interp4 = #coopvec.interp<BFP4>} {
  return
}

// CHECK-LABEL: func.func @bfp(
// CHECK: coopvec.matvec %{{[[:alnum:]_]+}} as BF16, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16> stride %{{[[:alnum:]_]+}} scales %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] : memref<?xi8> fidelity<hifi2, dst = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
// CHECK: coopvec.batch_matvec %{{[[:alnum:]_]+}} as BF16, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BFP4, 32x64, InferencingOptimal, transpose, scale f8E8M0FNU block 16> scales %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] : memref<?xi8> fidelity<lofi, dst = bf16> into
func.func @bfp(%x: vector<64xf32>, %xs: memref<?x64xf32>, %w: memref<?xi8>, %e: memref<?xi8>, %y: memref<?x32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16> stride %c64
         scales %e[%c0] : memref<?xi8> fidelity<hifi2, dst = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  coopvec.batch_matvec %xs as BF16, %w[%c0] matrix<BFP4, 32x64, InferencingOptimal, transpose, scale f8E8M0FNU block 16>
      scales %e[%c0] : memref<?xi8> fidelity<lofi, dst = bf16> into %y : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return %0 : vector<32xf32>
}

// Block-float inputs: the stored bytes (BFP8 one per element, BFP4 two per
// byte) with their shared exponents, against BF16 and block-float matrices.
// CHECK-LABEL: func.func @bfp_inputs(
// CHECK: coopvec.matvec %{{[[:alnum:]_]+}} as BFP8 exponents %{{[[:alnum:]_]+}} : vector<4xi8>, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BF16, 32x64, RowMajor> stride %{{[[:alnum:]_]+}} fidelity<hifi4, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
// CHECK: coopvec.matvec %{{[[:alnum:]_]+}} as BFP4 exponents %{{[[:alnum:]_]+}} : vector<5xi8>, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BFP8, 32x65, RowMajor, scale f8E8M0FNU block 16> stride %{{[[:alnum:]_]+}} scales %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] : memref<?xi8> fidelity<lofi, dst = bf16> : vector<33xi8>, memref<?xi8> -> vector<32xf32>
// CHECK: coopvec.batch_matvec %{{[[:alnum:]_]+}} as BFP4 exponents %{{[[:alnum:]_]+}} : memref<?x4xi8>, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<BFP4, 32x64, InferencingOptimal, scale f8E8M0FNU block 16> scales %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] : memref<?xi8> fidelity<hifi2, dst = f32, pack = bf16> into %{{[[:alnum:]_]+}} : memref<?x32xi8>, memref<?xi8> -> memref<?x32xf32>
func.func @bfp_inputs(%x8: vector<64xi8>, %e: vector<4xi8>, %x4: vector<33xi8>, %e5: vector<5xi8>, %xs: memref<?x32xi8>, %es: memref<?x4xi8>, %w: memref<?xi8>, %s: memref<?xi8>, %y: memref<?x32xf32>) -> (vector<32xf32>, vector<32xf32>) {
  %c0 = arith.constant 0 : index
  %c80 = arith.constant 80 : index
  %c128 = arith.constant 128 : index
  %0 = coopvec.matvec %x8 as BFP8 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<hifi4, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
  %1 = coopvec.matvec %x4 as BFP4 exponents %e5 : vector<5xi8>, %w[%c0] matrix<BFP8, 32x65, RowMajor, scale f8E8M0FNU block 16> stride %c80
         scales %s[%c0] : memref<?xi8> fidelity<lofi, dst = bf16> : vector<33xi8>, memref<?xi8> -> vector<32xf32>
  coopvec.batch_matvec %xs as BFP4 exponents %es : memref<?x4xi8>, %w[%c0] matrix<BFP4, 32x64, InferencingOptimal, scale f8E8M0FNU block 16>
      scales %s[%c0] : memref<?xi8> fidelity<hifi2, dst = f32, pack = bf16> into %y : memref<?x32xi8>, memref<?xi8> -> memref<?x32xf32>
  return %0, %1 : vector<32xf32>, vector<32xf32>
}
