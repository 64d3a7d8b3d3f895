// Block-float inputs (in0, SrcB) through the JIT, worked out by hand from
// the ISA's BFP8ToBF16 and the SrcB slices (hi = 1.m[22:17], lo =
// m[16:13]) against a BF16 matrix (SrcA: hi = 1.m[22:19], lo = m[18:14]):
//   row 0: input datum 0x20 (magnitude 32 = 0.5) in block 0, whose exponent
//          is 0xFF: 0.5 * 2^128 = 2^127, finite (0xFF is an ordinary binade
//          for a block float); times w = 1 it is 1.7014118e38;
//   row 1: input datum 0x80, sign-magnitude -0: the BF16 -inf pattern, read
//          as -2^128; times w = 1, Dst holds the exponent-255 pattern, -inf;
//   row 2: input datum 0x41 (1 + 2^-6) in block 1 (exponent 127) times
//          w = 1 + 2^-7: SrcB's hi slice holds all of 1 + 2^-6; SrcA's hi
//          slice is 1 and its lo slice 2^-7. LoFi (hi x hi) gives 1.015625,
//          HiFi2 adds lo x hi = 2^-7 * 1.015625: 1.0235596 (exact in f32);
//          HiFi4 adds nothing more (SrcB's lo slice is empty), and a bf16
//          Dst rounds 1 + 3.03 * 2^-7 to 1 + 3 * 2^-7 = 1.0234375.
// BFP4: byte 0 holds x[0] = 0x2 (0.5, so 2^127 again) in its low nibble and
// x[1] = 0x8 (-0) in its high one; x[16] = 0x5 (1.25) is byte 8's low
// nibble: LoFi 1.25, HiFi2 1.25 * (1 + 2^-7) = 1.2597656.
// RUN: coopvec-run %s -e bfp8_lofi | FileCheck %s --check-prefix=LOFI
// LOFI: [1.7014118e+38, -inf, 1.015625]
// RUN: coopvec-run %s -e bfp8_hifi2 | FileCheck %s --check-prefix=HIFI2
// HIFI2: [1.7014118e+38, -inf, 1.0235596]
// RUN: coopvec-run %s -e bfp8_hifi4_bf16 | FileCheck %s --check-prefix=BF16DST
// BF16DST: [1.7014118e+38, -inf, 1.0234375]
// RUN: coopvec-run %s -e bfp4_lofi | FileCheck %s --check-prefix=B4LOFI
// B4LOFI: [1.7014118e+38, -inf, 1.25]
// RUN: coopvec-run %s -e bfp4_hifi2 | FileCheck %s --check-prefix=B4HIFI2
// B4HIFI2: [1.7014118e+38, -inf, 1.2597656]

// 3 x 32 BF16 RowMajor with a 64-byte stride: w[0][0] = w[1][1] = 1.0
// (0x3F80), w[2][16] = 1 + 2^-7 (0x3F81), little-endian.
memref.global "private" constant @weights : memref<192xi8> = dense<[-128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -127, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]>

func.func @bfp8_lofi() -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %wg = memref.get_global @weights : memref<192xi8>
  %w = memref.cast %wg : memref<192xi8> to memref<?xi8>
  %x = arith.constant dense<[32, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : vector<32xi8>
  %e = arith.constant dense<[-1, 127]> : vector<2xi8>
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 3x32, RowMajor> stride %c64
         fidelity<lofi, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}

func.func @bfp8_hifi2() -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %wg = memref.get_global @weights : memref<192xi8>
  %w = memref.cast %wg : memref<192xi8> to memref<?xi8>
  %x = arith.constant dense<[32, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : vector<32xi8>
  %e = arith.constant dense<[-1, 127]> : vector<2xi8>
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 3x32, RowMajor> stride %c64
         fidelity<hifi2, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}

func.func @bfp8_hifi4_bf16() -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %wg = memref.get_global @weights : memref<192xi8>
  %w = memref.cast %wg : memref<192xi8> to memref<?xi8>
  %x = arith.constant dense<[32, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : vector<32xi8>
  %e = arith.constant dense<[-1, 127]> : vector<2xi8>
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 3x32, RowMajor> stride %c64
         fidelity<hifi4, dst = bf16> : vector<32xi8>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}

func.func @bfp4_lofi() -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %wg = memref.get_global @weights : memref<192xi8>
  %w = memref.cast %wg : memref<192xi8> to memref<?xi8>
  %x = arith.constant dense<[-126, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]> : vector<16xi8>
  %e = arith.constant dense<[-1, 127]> : vector<2xi8>
  %y = coopvec.matvec %x as BFP4 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 3x32, RowMajor> stride %c64
         fidelity<lofi, dst = f32> : vector<16xi8>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}

func.func @bfp4_hifi2() -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %wg = memref.get_global @weights : memref<192xi8>
  %w = memref.cast %wg : memref<192xi8> to memref<?xi8>
  %x = arith.constant dense<[-126, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]> : vector<16xi8>
  %e = arith.constant dense<[-1, 127]> : vector<2xi8>
  %y = coopvec.matvec %x as BFP4 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 3x32, RowMajor> stride %c64
         fidelity<hifi2, dst = f32> : vector<16xi8>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}
