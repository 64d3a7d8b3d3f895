// The numerics ops run on the CPU through the numerics library (the values
// are worked out by hand from the formats' definitions; the same cases fold
// at compile time in test/Dialect/CoopVec/numerics-fold.mlir). Inputs are
// arguments, so nothing is folded.
//
// E4M3, RN + satfinite: 0.3 rounds to 1.25 * 2^-2; 1000 and +inf clamp to
// 448; 1e-9 underflows; NaN stays NaN.
// RUN: coopvec-run %s -e e4m3 --arg '[1.0, 1000.0, 0.3, -0.3, 448.0, 1e-9, inf, nan]' | FileCheck %s --check-prefix=E4M3
// E4M3: [1, 448, 0.3125, -0.3125, 448, 0, 448, nan]
//
// E2M1, stochastic + satfinite + relu: 5.0 is half an ulp above 4 and
// 1.25 half an ulp above 1: random bits below 2^15 keep them, from 2^15
// on they round up; relu clears -2; 0.7 is 0.4 ulp above 0.5; 100 clamps.
// RUN: coopvec-run %s -e e2m1 --arg '[5.0, 1.25, 1.25, -2.0, 0.7, 100.0]' --arg '[0, 32767, 32768, 0, 0, 0]' | FileCheck %s --check-prefix=E2M1
// E2M1: [4, 1, 1.5, 0, 0.5, 6]
//
// PTX e2m1x2 packing: the first operand is the high nibble (1.0 = 0x2,
// -0.5 = 0x9).
// RUN: coopvec-run %s -e pack --arg 1.0 --arg -0.5 | FileCheck %s --check-prefix=PACK
// PACK: 41
//
// MXFP4: amax 5 gives the shared exponent floor(log2 5) - 2 = 0; 0.1 rounds
// to 0 and 5 (a tie between 4 and 6) to 4.
// RUN: coopvec-run %s -e mx --arg '[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1, 5.0]' | FileCheck %s --check-prefix=MX
// MX: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 4]

func.func @e4m3(%x: vector<8xf32>) -> vector<8xf32> {
  %a = coopvec.convert %x rounding rn satfinite : vector<8xf32> -> vector<8xf8E4M3FN>
  %b = coopvec.convert %a rounding rn : vector<8xf8E4M3FN> -> vector<8xf32>
  return %b : vector<8xf32>
}
func.func @e2m1(%x: vector<6xf32>, %r: vector<6xi32>) -> vector<6xf32> {
  %a = coopvec.convert %x rbits %r rounding rs satfinite relu : vector<6xf32>, vector<6xi32> -> vector<6xf4E2M1FN>
  %b = coopvec.convert %a rounding rn : vector<6xf4E2M1FN> -> vector<6xf32>
  return %b : vector<6xf32>
}
func.func @pack(%a: f32, %b: f32) -> i8 {
  %p = coopvec.pack %a, %b to f4E2M1FN rounding rn satfinite : f32, f32 -> i8
  return %p : i8
}
func.func @mx(%x: vector<32xf32>) -> vector<32xf32> {
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>
  %d = coopvec.mx_dequantize %e, %s block 32 : vector<32xf4E2M1FN>, vector<1xf8E8M0FNU> -> vector<32xf32>
  return %d : vector<32xf32>
}

// MXFP8 (E4M3 elements: 8-bit codes and scales move as whole vectors; the
// per-element lowering this replaced failed on 8-bit codes), two blocks. Block 0: amax 1 gives the scale 2^(0 - 8); 0.3 * 256 = 76.8 rounds
// to 80 (spacing 8 in [64, 128)), 80 / 256 = 0.3125. Block 1: amax 1000
// gives 2^(9 - 8) = 2; 1000 / 2 = 500 saturates to 448 (896), 3 / 2 = 1.5
// is exact. The scales decode to 2^-8 and 2.
// RUN: coopvec-run %s -e mx8 --arg '[1.0, 0.5, -0.75, 0.3, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 1000.0, 3.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]' | FileCheck %s --check-prefix=MX8
// MX8: [1, 0.5, -0.75, 0.3125, 0.25, {{.*}}, 0.25, 896, 3, -1, {{.*}}, -1]
// MX8-NEXT: [0.00390625, 2]
func.func @mx8(%x: vector<64xf32>) -> (vector<64xf32>, vector<2xf32>) {
  %e, %s = coopvec.mx_quantize %x block 32 : vector<64xf32> -> vector<64xf8E4M3FN>, vector<2xf8E8M0FNU>
  %d = coopvec.mx_dequantize %e, %s block 32 : vector<64xf8E4M3FN>, vector<2xf8E8M0FNU> -> vector<64xf32>
  %sf = coopvec.convert %s rounding rn : vector<2xf8E8M0FNU> -> vector<2xf32>
  return %d, %sf : vector<64xf32>, vector<2xf32>
}
