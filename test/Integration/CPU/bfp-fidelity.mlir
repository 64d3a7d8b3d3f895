// Block-float edge encodings through the JIT, worked out by hand from the
// ISA's BFP8ToBF16 (the unpacker decodes a datum with its block's exponent to
// BF16) and the FPU's reading of BF16 (exponent 255 is the binade 2^128):
//   row 0: datum 0x20 (magnitude 32 = 0.5) with exponent 0xFF: 0.5 * 2^128
//          = 2^127, a finite value (0xFF is not a NaN here, unlike a UE8M0
//          scale); times x[0] = 1 it is 1.7014118e38 in an f32 Dst;
//   row 1: datum 0x80, sign-magnitude -0: BFP8ToBF16 gives the BF16 -inf
//          pattern, which the FPU reads as -2^128; the product -2^128 is
//          written to Dst as the exponent-255 zero-mantissa pattern, -inf;
//   row 2: datum 0x41 (1 + 2^-6) in block 1 (k = 16) with exponent 127,
//          times x[16] = 1: SrcA's phase-0 slice 1.m[22:19] drops 2^-6, so
//          LoFi gives 1 and HiFi2 (phase 1 adds the lo slice) 1.015625.
// RUN: coopvec-run %s -e lofi --arg '[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' | FileCheck %s --check-prefix=LOFI
// LOFI: [1.7014118e+38, -inf, 1]
// RUN: coopvec-run %s -e hifi2 --arg '[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' | FileCheck %s --check-prefix=HIFI2
// HIFI2: [1.7014118e+38, -inf, 1.015625]

// 3 rows x 32 BFP8 data, RowMajor with a 32-byte stride; 3 x 2 exponents.
memref.global "private" constant @data : memref<96xi8> = dense<[32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]>
memref.global "private" constant @exps : memref<6xi8> = dense<[-1, 0, 127, 127, 0, 127]>

func.func @lofi(%x: vector<32xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %wg = memref.get_global @data : memref<96xi8>
  %eg = memref.get_global @exps : memref<6xi8>
  %w = memref.cast %wg : memref<96xi8> to memref<?xi8>
  %e = memref.cast %eg : memref<6xi8> to memref<?xi8>
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 3x32, RowMajor, scale f8E8M0FNU block 16> stride %c32
         scales %e[%c0] : memref<?xi8> fidelity<lofi, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}

func.func @hifi2(%x: vector<32xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %wg = memref.get_global @data : memref<96xi8>
  %eg = memref.get_global @exps : memref<6xi8>
  %w = memref.cast %wg : memref<96xi8> to memref<?xi8>
  %e = memref.cast %eg : memref<6xi8> to memref<?xi8>
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 3x32, RowMajor, scale f8E8M0FNU block 16> stride %c32
         scales %e[%c0] : memref<?xi8> fidelity<hifi2, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<3xf32>
  return %y : vector<3xf32>
}
